// A start-up check that the log is whole: every draft's head_version must equal the number of its
// events and their highest version (versions are gapless, RELIABILITY.md promise 2). A damaged
// embedded database (a relation file truncated under PGlite) otherwise starts "healthy", answers
// 500 on log reads and accepts new writes on top of the hole.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

export interface IntegrityFault {
  draftId: string;
  /** drafts.head_version, or null when events exist for a draft row that is missing. */
  headVersion: number | null;
  events: number;
  maxVersion: number;
}

/**
 * Up to `limit` drafts whose log disagrees with their head. A seq scan reads the heap itself (an
 * index would still list rows whose pages are gone); a read error (pages beyond the end of a
 * truncated file) propagates to the caller, which treats it as damage too.
 */
export async function checkIntegrity(db: Kysely<DB>, limit = 5): Promise<IntegrityFault[]> {
  return db.transaction().execute(async (tx) => {
    await sql`SET LOCAL enable_indexscan = off`.execute(tx);
    await sql`SET LOCAL enable_indexonlyscan = off`.execute(tx);
    await sql`SET LOCAL enable_bitmapscan = off`.execute(tx);
    const { rows } = await sql<{ id: string; head: string | number | null; n: string | number | null; m: string | number | null }>`
      WITH e AS (SELECT draft_id, count(*) AS n, max(version) AS m FROM events GROUP BY draft_id)
      SELECT coalesce(d.id, e.draft_id) AS id, d.head_version AS head, e.n, e.m
      FROM drafts d FULL JOIN e ON e.draft_id = d.id
      WHERE d.id IS NULL OR coalesce(e.n, 0) <> d.head_version OR coalesce(e.m, 0) <> d.head_version
      ORDER BY 1 LIMIT ${limit}`.execute(tx);
    return rows.map((r) => ({ draftId: r.id, headVersion: r.head === null ? null : Number(r.head), events: Number(r.n ?? 0), maxVersion: Number(r.m ?? 0) }));
  });
}
