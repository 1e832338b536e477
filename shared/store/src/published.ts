// The per-draft outbox cursor (outbox_cursors): what the relay has delivered to the bus. Its own
// table, written by the relay alone — the drafts row is the commit path's (migration 0009).
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { int } from './rows.ts';

/**
 * Moves each draft's cursor forward (never back), all in one statement. Rows are inserted in id
 * order (the SELECT's ORDER BY), so two relays marking overlapping drafts (a lease moving between
 * nodes) cannot deadlock.
 */
export async function markPublished(db: Kysely<DB>, marks: readonly { draftId: string; version: number }[]): Promise<void> {
  if (marks.length === 0) return;
  const rows = marks.map((m) => ({ draft_id: m.draftId, version: m.version }));
  await sql`
    INSERT INTO outbox_cursors AS o (draft_id, published_version)
    SELECT m.draft_id, max(m.version) FROM jsonb_to_recordset(${rows as never}::jsonb) AS m(draft_id text, version bigint)
    WHERE EXISTS (SELECT 1 FROM drafts d WHERE d.id = m.draft_id) -- a plain read: no lock on the row
    GROUP BY m.draft_id ORDER BY m.draft_id
    ON CONFLICT (draft_id) DO UPDATE SET published_version = excluded.published_version
    WHERE o.published_version < excluded.published_version`.execute(db);
}

/** Drafts whose head is above their cursor: notifications the bus may never have received. */
export async function unpublished(db: Kysely<DB>, limit: number): Promise<{ draftId: string; publishedVersion: number; headVersion: number }[]> {
  const { rows } = await sql<{ id: string; published_version: string | number; head_version: string | number }>`
    SELECT d.id, coalesce(o.published_version, 0) AS published_version, d.head_version
    FROM drafts d LEFT JOIN outbox_cursors o ON o.draft_id = d.id
    WHERE d.head_version > coalesce(o.published_version, 0)
    ORDER BY d.id LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({ draftId: r.id, publishedVersion: int(r.published_version), headVersion: int(r.head_version) }));
}
