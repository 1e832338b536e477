// Undo and redo are steps too: `kind` says which, `undo_of` lists the versions they reverse.
// Per-actor undo/redo stacks are rebuilt from these columns (services/session rooms/undo.ts).
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('do').check(sql`kind in ('do', 'undo', 'redo')`))
    .execute();
  await db.schema.alterTable('events')
    .addColumn('undo_of', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await db.schema.createIndex('events_draft_actor').on('events').columns(['draft_id', 'actor', 'version']).execute();
}

export async function down(): Promise<void> {
  throw new Error('forward-only');
}
