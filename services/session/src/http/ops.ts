import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.ts';
import { logHead, logNdjson, logPage } from '../commands/log.ts';
import { requireScope } from '../commands/principal.ts';
import { outcomeOrThrow, submit, SubmitBody } from '../commands/submit.ts';
import { undoRedo } from '../commands/undo.ts';
import { z } from 'zod';
import { DRAFT_PARAM } from './drafts.ts';
import { sendJson, sendJsonText } from './respond.ts';
import { EventsPage, StepResult, UndoBody, UndoResult, versionParam } from './schemas.ts';
import type { ServerResponse } from 'node:http';
import type { Router } from './router.ts';

export function registerOps(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/drafts/:id/ops', async ({ req, res, params, body }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const value = outcomeOrThrow(await submit(ctx, p, params['id']!, await body()));
    sendJson(res, 200, value);
  }, {
    summary: 'Submit JSON Patch ops as one step (one version)', tags: ['ops'], access: 'bearer', params: { id: DRAFT_PARAM }, body: SubmitBody,
    description: 'Each op is repaired (`repairs`) or refused (`refused`) on its own; the applied ops form one version. A step whose ops are all refused keeps the version. Budgets: 429 RATE_LIMITED (with Retry-After) and BUDGET_EXCEEDED.',
    errors: ['BAD_REQUEST', 'MALFORMED_JSON', 'FORBIDDEN', 'NOT_FOUND', 'SESSION_CLOSED', 'VERSION_CONFLICT', 'IDEMPOTENCY_CONFLICT', 'PAYLOAD_TOO_LARGE', 'RATE_LIMITED', 'BUDGET_EXCEEDED'], responses: {
      200: { description: 'The step: applied, repaired and refused ops.', schema: StepResult }
    },
  });

  router.on('GET', '/v1/drafts/:id/events', async ({ req, res, params, query }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    const head = await logHead(ctx, p, id);
    const q = query();
    const after = q.after ?? 0;
    const ndjson = q.format === 'ndjson' || (req.headers.accept ?? '').includes('application/x-ndjson');
    if (ndjson) return streamEvents(ctx, res, id, after, head);
    const page = await logPage(ctx, id, after, Math.min(1000, Math.max(1, q.limit ?? 100)), head);
    sendJsonText(res, 200, `{"steps":[${page.steps.join(',')}],"next":${page.next},"head":${head}}`);
  }, {
    summary: 'The log: a page of steps, or all of it as NDJSON', tags: ['ops'], access: 'bearer', params: { id: DRAFT_PARAM },
    query: z.object({
      after: versionParam('after', 'Steps after this version (default 0).').optional(),
      limit: versionParam('limit', 'Page size, clamped to 1..1000 (default 100).').optional(),
      format: z.string().optional().meta({ description: '`ndjson` (or `Accept: application/x-ndjson`): the whole log after `after` up to the head (`x-weft-head`), one StepView a line, streamed.' }),
    }),
    errors: ['BAD_REQUEST', 'NOT_FOUND'], responses: {
      200: { description: 'A page (JSON), or the stream (NDJSON, one StepView a line).', schema: EventsPage, media: { 'application/x-ndjson': null } }
    },
  });

  for (const mode of ['undo', 'redo'] as const) {
    router.on('POST', `/v1/drafts/:id/${mode}`, async ({ req, res, params, body }) => {
      const p = await ctx.auth.fromHeader(req.headers.authorization);
      const id = params['id']!;
      requireScope(p, id, 'write');
      const b = await body();
      sendJson(res, 200, await undoRedo(ctx, p, id, mode, b.scope ?? 'step', b.opId ?? `${mode}-${randomUUID()}`));
    }, {
      summary: mode === 'undo' ? "Undo the caller's last step (or turn)" : "Redo the caller's last undo", tags: ['ops'], access: 'bearer',
      params: { id: DRAFT_PARAM }, body: UndoBody, bodyLimit: 4096,
      description: 'From the log: 409 UNDO_CONFLICT when someone else changed the same place later, 409 NOTHING_TO_UNDO when there is nothing of yours.',
      errors: ['MALFORMED_JSON', 'FORBIDDEN', 'NOT_FOUND', 'UNDO_CONFLICT', 'NOTHING_TO_UNDO', 'PAYLOAD_TOO_LARGE'], responses: {
        200: { description: 'The new step.', schema: UndoResult }
      },
    });
  }
}


/**
 * The whole log after `after` (up to the head when the request came) as NDJSON, one StepView per
 * line, written as the pages come; a slow reader is waited for, not buffered. A failed read (the
 * database gone, a hole in the log) aborts the response without its last chunk, so a client can
 * never take a cut stream for the whole log.
 */
async function streamEvents(ctx: Ctx, res: ServerResponse, id: string, after: number, head: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-weft-head': String(head) });
  const pages = logNdjson(ctx, id, after, head);
  try {
    for await (const text of pages) {
      if (res.destroyed) break; // the reader went away: the generator's return stops the reads
      if (!res.write(text)) await new Promise((r) => res.once('drain', r));
    }
  } catch (e) {
    ctx.log.error('NDJSON replay aborted', { draftId: id, error: String(e) });
    res.destroy();
    return;
  }
  res.end();
}
