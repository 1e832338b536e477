import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.ts';
import { mustView } from '../commands/drafts.ts';
import { requireScope } from '../commands/principal.ts';
import { OP_ID, outcomeOrThrow, parseSubmit, submit } from '../commands/submit.ts';
import { undoRedo } from '../commands/undo.ts';
import { parseVersion } from './drafts.ts';
import { isObject, readJson, sendJson, sendJsonText } from './respond.ts';
import type { ServerResponse } from 'node:http';
import type { Router } from './router.ts';

export function registerOps(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/drafts/:id/ops', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const body = parseSubmit(await readJson(req, ctx.config.maxBodyBytes));
    const value = outcomeOrThrow(await submit(ctx, p, params['id']!, body));
    sendJson(res, 200, value);
  });

  router.on('GET', '/v1/drafts/:id/events', async ({ req, res, params, url }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'read');
    const room = await mustView(ctx, id);
    const head = room.committedVersion;
    const after = parseVersion(url.searchParams.get('after') ?? '0', '/after');
    const ndjson = url.searchParams.get('format') === 'ndjson' || (req.headers.accept ?? '').includes('application/x-ndjson');
    if (ndjson) return streamEvents(ctx, res, id, after, head);
    const limit = Math.min(1000, Math.max(1, parseVersion(url.searchParams.get('limit') ?? '100', '/limit')));
    const rows = await ctx.store.readStepViewsText(id, after, limit, head);
    const last = rows[rows.length - 1];
    const next = last && last.version < head ? last.version : null;
    sendJsonText(res, 200, `{"steps":[${rows.map((r) => r.json).join(',')}],"next":${next},"head":${head}}`);
  });

  for (const mode of ['undo', 'redo'] as const) {
    router.on('POST', `/v1/drafts/:id/${mode}`, async ({ req, res, params }) => {
      const p = await ctx.auth.fromHeader(req.headers.authorization);
      const id = params['id']!;
      requireScope(p, id, 'write');
      const body = await readJson(req, 4096);
      const scope = isObject(body) && body['scope'] === 'turn' ? 'turn' : 'step';
      const opId = isObject(body) && typeof body['opId'] === 'string' && OP_ID.test(body['opId']) ? body['opId'] : `${mode}-${randomUUID()}`;
      sendJson(res, 200, await undoRedo(ctx, p, id, mode, scope, opId));
    });
  }
}


/**
 * The whole log after `after` (up to the head when the request came) as NDJSON, one StepView per
 * line, paged from Postgres and written as it arrives; a slow reader is waited for, not buffered.
 */
async function streamEvents(ctx: Ctx, res: ServerResponse, id: string, after: number, head: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-weft-head': String(head) });
  let from = after;
  while (from < head && !res.destroyed) {
    const rows = await ctx.store.readStepViewsText(id, from, NDJSON_PAGE, head);
    if (rows.length === 0) break;
    const ok = res.write(rows.map((r) => r.json).join('\n') + '\n');
    from = rows[rows.length - 1]!.version;
    if (!ok) await new Promise((r) => res.once('drain', r));
  }
  res.end();
}

const NDJSON_PAGE = 5000;
