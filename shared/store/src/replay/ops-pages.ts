// A draft's log for replay as a sequence of pages (PERFORMANCE.md B6). On Postgres, one query
// streams them: Postgres renders page after page on one backend while the replay worker parses and
// folds the ones already sent, and the whole replay reads one snapshot of the log. Elsewhere
// (PGlite), page queries, a few asked for ahead.
import type { Kysely } from 'kysely';
import type { DB } from '../schema.ts';
import { int } from '../rows.ts';
import { gapIn, readOpsPage } from './ops-page.ts';
import type { OpsPage } from './ops-page.ts';
import { rowStreamOf } from './row-stream.ts';
import type { StreamRows } from './row-stream.ts';

export interface PagesOptions {
  /** Steps per page; default 1,000 (paged reads then size later pages to ~100 KB of text). */
  pageSize?: number;
  /** Paged reads only: pages asked for ahead of the one being taken. */
  ahead?: number;
  /** The last version to read (default: the head). */
  upTo?: number;
  /** false: page queries even where one streamed query could serve (the bench's side-by-side baseline). */
  stream?: boolean;
}

const FIRST_PAGE = 1000;
const AHEAD = 4;
/**
 * Paged reads size pages from the steps seen so far to stay under ~100 KB of text: V8 keeps a
 * string over 128 KB in a space of its own, mapped fresh and unmapped after GC, and on our VMs
 * (11–14 µs a page fault) 10,000-step pages of 850 KB made a 100k-step replay 570k steps/s against
 * 740k at ~1,000 steps, four ahead (shared/store/bench/replay.bench.ts).
 */
const PAGE_BYTES = 100_000;
const pageFor = (p: OpsPage): number => Math.max(100, Math.min(10_000, Math.floor((PAGE_BYTES * p.count) / p.text.length)));

/** The steps after `after` (up to `upTo`), in version order, a page at a time; throws at a hole in the log. */
export function readOpsPages(db: Kysely<DB>, draftId: string, after: number, opts: PagesOptions = {}): AsyncGenerator<OpsPage> {
  const stream = opts.stream === false ? undefined : rowStreamOf(db as Kysely<never>);
  return stream ? streamedPages(stream, db, draftId, after, opts) : pagedReads(db, draftId, after, opts);
}

/**
 * The pages as rows of one query: the head is read once (so the replay is of one snapshot), then a
 * page per range of `pageSize` versions, each the ops of its steps as one JSON array text. The
 * nested loop returns the ranges in generate_series order; each row is checked against the range
 * it must be, so an order Postgres did not keep, or a hole, fails instead of folding wrong.
 * (Without `jit = off` (connect-postgres.ts), Postgres compiled this plan for 95–185 ms first.)
 */
async function* streamedPages(stream: StreamRows, db: Kysely<DB>, draftId: string, after: number, opts: PagesOptions): AsyncGenerator<OpsPage> {
  const size = opts.pageSize ?? FIRST_PAGE;
  const bound = opts.upTo ?? Number.MAX_SAFE_INTEGER;
  const text = `SELECT p.start, h.head, x.first, x.last, x.n, x.text
    FROM (SELECT max(version) AS head FROM events WHERE draft_id = $1 AND version <= $3) h
    CROSS JOIN LATERAL generate_series($2::bigint, h.head - 1, $4::bigint) AS p(start)
    CROSS JOIN LATERAL (
      SELECT min(version) AS first, max(version) AS last, count(*) AS n, '[' || string_agg(ops::text, ',' ORDER BY version) || ']' AS text
      FROM events WHERE draft_id = $1 AND version > p.start AND version <= least(p.start + $4, h.head)) x`;
  const rows: Record<string, unknown>[] = [];
  let ended = false;
  let failed: unknown = null;
  let wake: (() => void) | null = null;
  const poke = (): void => { const w = wake; wake = null; w?.(); };
  const q = stream(text, [draftId, after, bound, size], (row) => { rows.push(row); poke(); });
  q.done.then(() => { ended = true; poke(); }, (e: unknown) => { failed = e ?? new Error('replay query failed'); ended = true; poke(); });
  let expected = after;
  try {
    for (;;) {
      const row = rows.shift();
      if (!row) {
        if (failed) throw failed;
        if (ended) break;
        await new Promise<void>((r) => { wake = r; });
        continue;
      }
      const start = int(row['start'] as string);
      const head = int(row['head'] as string);
      if (start !== expected) throw new Error(`draft ${draftId}: replay pages arrived out of order (v${start + 1} where v${expected + 1} was due)`);
      const end = Math.min(start + size, head);
      if (row['first'] === null || row['text'] === null) throw new Error(await gapIn(db, draftId, start, head));
      const page: OpsPage = { first: int(row['first'] as string), last: int(row['last'] as string), count: int(row['n'] as string), text: row['text'] as string, more: end < head };
      if (page.first !== start + 1 || page.last !== end || page.count !== end - start) throw new Error(await gapIn(db, draftId, start, head));
      expected = end;
      yield page;
    }
  } finally {
    if (!ended) q.cancel(); // the consumer stopped early (a fold failed): it needs no more rows
    q.done.catch(() => {});
  }
}

/** Page queries, `ahead` of them in flight: Postgres renders the next pages on other backends. */
async function* pagedReads(db: Kysely<DB>, draftId: string, after: number, opts: PagesOptions): AsyncGenerator<OpsPage> {
  let pageSize = opts.pageSize ?? FIRST_PAGE;
  const aheadMax = opts.ahead ?? AHEAD;
  const upTo = opts.upTo;
  const first = await readOpsPage(db, draftId, after, pageSize, upTo);
  if (!first) return;
  const ahead: Promise<OpsPage | null>[] = [];
  let asked = first.last;
  const ask = (): void => {
    const p = readOpsPage(db, draftId, asked, pageSize, upTo);
    p.catch(() => {}); // awaited below; a consumer that stops early must not leave it unhandled
    ahead.push(p);
    asked += pageSize;
  };
  let page: OpsPage | null = first;
  while (page) {
    if (opts.pageSize === undefined) pageSize = pageFor(page);
    while (page.more && ahead.length < aheadMax && (upTo === undefined || asked < upTo)) ask();
    yield page;
    if (!page.more) return;
    const prev: number = page.last;
    page = await ahead.shift()!;
    // Steps past `prev` were there a moment ago: a log that now ends there has lost rows.
    if (!page) throw new Error(`draft ${draftId}: the log has a gap after v${prev}`);
  }
}
