// The per-draft outbox cursor (drafts.published_version): what the relay has delivered to the bus.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { int } from './rows.ts';

/** Moves each draft's cursor forward (never back), all in one statement. */
export async function markPublished(db: Kysely<DB>, marks: readonly { draftId: string; version: number }[]): Promise<void> {
  if (marks.length === 0) return;
  const rows = marks.map((m) => ({ draft_id: m.draftId, version: m.version }));
  await sql`
    UPDATE drafts d SET published_version = m.version
    FROM jsonb_to_recordset(${rows as never}::jsonb) AS m(draft_id text, version bigint)
    WHERE d.id = m.draft_id AND d.published_version < m.version`.execute(db);
}

/** Drafts whose head is above their cursor: notifications the bus may never have received. */
export async function unpublished(db: Kysely<DB>, limit: number): Promise<{ draftId: string; publishedVersion: number; headVersion: number }[]> {
  const rows = await db.selectFrom('drafts').select(['id', 'published_version', 'head_version'])
    .whereRef('head_version', '>', 'published_version').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ draftId: r.id, publishedVersion: int(r.published_version), headVersion: int(r.head_version) }));
}
