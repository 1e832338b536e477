// Observable activity per draft (docs/api.md "Activity"): what agents report (validation,
// operation, agent) and what the system records (request, persistence). A bounded history, not a
// log: the store keeps the newest 120 entries per draft, trimmed in the insert's own statement.
// `seq` orders entries and is their id; `at` is epoch milliseconds as the wire carries it.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('activity')
    .addColumn('draft_id', 'text', (c) => c.notNull().references('drafts.id'))
    .addColumn('seq', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('request', 'validation', 'operation', 'persistence', 'agent')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('queued', 'active', 'done', 'error')`))
    .addColumn('label', 'text', (c) => c.notNull().check(sql`char_length(label) BETWEEN 1 AND 120`))
    .addColumn('detail', 'text', (c) => c.check(sql`char_length(detail) <= 500`))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('activity_draft_seq_idx').on('activity').columns(['draft_id', 'seq']).execute();
}

export async function down(): Promise<void> {
  throw new Error('forward-only');
}
