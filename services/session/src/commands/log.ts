// Reading a draft's log (GET /v1/drafts/:id/events): the steps as their public StepView JSON,
// rendered by Postgres, as a page or as the whole log in NDJSON pages.
import type { StepViewsPage } from '@weft/store';
import type { Ctx } from '../context.ts';
import type { Principal } from './principal.ts';
import { requireScope } from './principal.ts';
import { WeftError } from './errors.ts';

/** Steps per NDJSON page (one Postgres query each). */
const NDJSON_PAGE = 5000;
/** Pages asked for ahead of the one being written (each on its own pooled connection). */
const NDJSON_AHEAD = 2;

/**
 * The committed head a read of the log stops at (reads never see a step in flight): the open room's,
 * or the log's own head. Reading the log never opens a room: that would build the draft's JSON
 * mirror and Yjs lineage (a full replay for a draft without a snapshot) for a reader who wants rows.
 */
export async function logHead(ctx: Ctx, p: Principal, id: string): Promise<number> {
  requireScope(p, id, 'read');
  const open = ctx.rooms.peek(id);
  if (open) return open.committedVersion;
  const meta = await ctx.store.getDraft(id);
  if (!meta) throw new WeftError('NOT_FOUND', `No draft "${id}" (or no access to it).`);
  return meta.headVersion;
}

/** Up to `limit` StepViews after `after` (at or below `head`) as JSON texts, and where the next page starts. */
export async function logPage(ctx: Ctx, id: string, after: number, limit: number, head: number): Promise<{ steps: string[]; next: number | null }> {
  const rows = await ctx.store.readStepViewsText(id, after, limit, head);
  const last = rows[rows.length - 1];
  return { steps: rows.map((r) => r.json), next: last && last.version < head ? last.version : null };
}

/**
 * Every step after `after` up to `head` as NDJSON texts, in order. Postgres renders each page
 * (json_build_object, ~6 µs a step: the stream's floor); two are asked for ahead of the one the
 * caller is writing, so two backends render at once. Throws on a page with a hole or a failed read
 * after yielding what came before it: the caller must not end the stream as if it were whole.
 */
export async function* logNdjson(ctx: Ctx, id: string, after: number, head: number): AsyncGenerator<string> {
  const ahead: Promise<StepViewsPage | null>[] = [];
  let asked = after;
  const ask = (): void => {
    while (ahead.length < NDJSON_AHEAD && asked < head) {
      const p = ctx.store.readStepViewsPage(id, asked, NDJSON_PAGE, head);
      p.catch(() => {}); // awaited in order below, or dropped when the reader goes away
      ahead.push(p);
      asked = Math.min(asked + NDJSON_PAGE, head);
    }
  };
  for (ask(); ahead.length > 0; ask()) {
    // Never null: a page is only asked for below the head (empty ranges are the store's null).
    yield (await ahead.shift()!)!.ndjson;
  }
}
