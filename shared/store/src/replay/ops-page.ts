// One page of a draft's log for replay (PERFORMANCE.md B6): Postgres renders the page's ops as one
// JSON array text, so the client decodes one value and parses it with one JSON.parse (per-row
// decoding and parsing was most of the in-process replay time).
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.ts';
import { int } from '../rows.ts';

/** Versions first..last, gapless, in order; `text` is a JSON array with one element (a step's ops) per version. */
export interface OpsPage { first: number; last: number; count: number; text: string; /** steps follow this page (up to the bound) */ more: boolean }

type Row = { first: string | number | null; last: string | number | null; n: string | number; text: string | null; next: string | number | null };

/**
 * The next up to `limit` steps after `after` (and at or below `upTo`), or null past the end. Throws
 * if the log has a hole there: versions are gapless by construction, so a hole is damage, and a
 * replay never folds around it.
 */
export async function readOpsPage(db: Kysely<DB>, draftId: string, after: number, limit: number, upTo?: number): Promise<OpsPage | null> {
  // A version range, not ORDER BY … LIMIT (which Postgres renders in about twice the time). `next`,
  // the first version past the range (an index probe, not min(), which scans the rest of the log),
  // tells a full page from a page that ends at a hole.
  const bound = upTo ?? Number.MAX_SAFE_INTEGER;
  const end = Math.min(after + limit, bound);
  const r = await sql<Row>`
    SELECT min(version) AS first, max(version) AS last, count(*) AS n, '[' || string_agg(ops::text, ',' ORDER BY version) || ']' AS text,
      (SELECT version FROM events WHERE draft_id = ${draftId} AND version > ${end} AND version <= ${bound} ORDER BY version LIMIT 1) AS next
    FROM events WHERE draft_id = ${draftId} AND version > ${after} AND version <= ${end}`.execute(db);
  const row = r.rows[0]!;
  const next = row.next === null ? null : int(row.next);
  if (row.text === null || row.first === null || row.last === null) {
    if (next !== null) throw new Error(await gapIn(db, draftId, after, next));
    return null;
  }
  const page = { first: int(row.first), last: int(row.last), count: int(row.n), text: row.text, more: next !== null };
  if (page.first !== after + 1 || page.last - page.first + 1 !== page.count || (next !== null && page.last !== end)) {
    throw new Error(await gapIn(db, draftId, after, next ?? page.last));
  }
  return page;
}

/** The message naming the first hole after `after` (the rare path: one more query). */
export async function gapIn(db: Kysely<DB>, draftId: string, after: number, through: number): Promise<string> {
  const rows = await db.selectFrom('events').select('version').where('draft_id', '=', draftId)
    .where('version', '>', after).where('version', '<=', through).orderBy('version').execute();
  let v = after;
  for (const row of rows) {
    const n = int(row.version);
    if (n !== v + 1) return `draft ${draftId}: the log has a gap after v${v} (next is v${n})`;
    v = n;
  }
  return `draft ${draftId}: the log has a gap after v${v}`;
}
