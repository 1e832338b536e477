// The outbox cursor moves out of the drafts row into a table of its own. Every commit locks and
// bumps a draft's row (head_version); the relay moved ~all open drafts' cursors there once a
// second in one UPDATE, so the two contended for the same row locks, and, taking them in
// different orders, deadlocked (each stall one deadlock_timeout, 1 s, of no commits on the node).
// Here only the relay writes. A draft without a row has published nothing (version 0). No foreign
// key: its check would take a KEY SHARE lock on the draft's row, which waits for a commit's FOR
// UPDATE — the very contention this removes; deleteDraft deletes the row with the rest.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('outbox_cursors')
    .addColumn('draft_id', 'text', (c) => c.primaryKey())
    .addColumn('published_version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO outbox_cursors (draft_id, published_version) SELECT id, published_version FROM drafts WHERE published_version > 0`.execute(db);
  await db.schema.alterTable('drafts').dropColumn('published_version').execute();
}

export async function down(): Promise<void> {
  throw new Error('forward-only');
}
