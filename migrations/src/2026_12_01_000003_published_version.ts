// The outbox cursor, per draft: the highest version whose bus notification is known delivered
// (services/session live/relay.ts). After a crash between COMMIT and publish, the relay
// republishes every draft whose head is above it. Existing drafts count as published.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('drafts').addColumn('published_version', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await sql`UPDATE drafts SET published_version = head_version`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only');
}
