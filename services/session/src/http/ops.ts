import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.ts';
import { mustView } from '../commands/drafts.ts';
import { requireScope } from '../commands/principal.ts';
import { outcomeOrThrow, submit, SubmitBody } from '../commands/submit.ts';
import { undoRedo } from '../commands/undo.ts';
import { z } from 'zod';
import { DRAFT_PARAM } from './drafts.ts';
import { sendJson, sendJsonText } from './respond.ts';
import { EventsPage, StepResult, UndoBody, UndoResult, versionParam } from './schemas.ts';
import type { ServerResponse } from 'node:http';
import type { StepViewsPage } from '@weft/store';
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

  router.on('GET', '/v1/drafts/:id/events', async ({ req, res, params, url, query }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'read');
    const room = await mustView(ctx, id);
    const head = room.committedVersion;
    const q = query();
    const after = q.after ?? 0;
    const ndjson = q.format === 'ndjson' || (req.headers.accept ?? '').includes('application/x-ndjson');
    if (ndjson) return streamEvents(ctx, res, id, after, head);
    const limit = Math.min(1000, Math.max(1, q.limit ?? 100));
    const rows = await ctx.store.readStepViewsText(id, after, limit, head);
    const last = rows[rows.length - 1];
    const next = last && last.version < head ? last.version : null;
    sendJsonText(res, 200, `{"steps":[${rows.map((r) => r.json).join(',')}],"next":${next},"head":${head}}`);
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
 * line. Pages are version ranges rendered as NDJSON text by Postgres, which is the stream's floor
 * (json_build_object, ~6 µs a step): two are asked for ahead, so two backends render while this one
 * is written; a slow reader is waited for, not buffered. A failed read (the database gone, a hole
 * in the log) aborts the response without its final chunk, so a client can never take a cut
 * stream for the whole log.
 */
async function streamEvents(ctx: Ctx, res: ServerResponse, id: string, after: number, head: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-weft-head': String(head) });
  const ahead: Promise<StepViewsPage | null>[] = [];
  let asked = after;
  const ask = (): void => {
    while (ahead.length < NDJSON_AHEAD && asked < head) {
      const p = ctx.store.readStepViewsPage(id, asked, NDJSON_PAGE, head);
      p.catch(() => {}); // awaited in order below, or dropped with a closed response
      ahead.push(p);
      asked = Math.min(asked + NDJSON_PAGE, head);
    }
  };
  try {
    for (ask(); ahead.length > 0 && !res.destroyed; ask()) {
      const page = await ahead.shift()!;
      if (page === null) throw new Error(`draft ${id}: the log ends before v${head}`);
      if (!res.write(page.ndjson)) await new Promise((r) => res.once('drain', r));
    }
  } catch (e) {
    ctx.log.error('NDJSON replay aborted', { draftId: id, error: String(e) });
    res.destroy();
    return;
  }
  res.end();
}

const NDJSON_PAGE = 5000;
/** Pages asked for ahead of the one being written (each on its own pooled connection). */
const NDJSON_AHEAD = 2;
