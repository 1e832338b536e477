// Draft ownership across session nodes (ARCHITECTURE.md "Several nodes"): a lease per draft with a
// fencing token. `lease_epoch` goes up each time a different node (or the same one after expiry)
// takes the draft; an append or an epoch start names the owner and lease epoch it holds, so a
// node that lost its lease (paused, partitioned) can never write.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('drafts')
    .addColumn('owner_node', 'text')
    .addColumn('owner_url', 'text')
    .addColumn('lease_epoch', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_expires_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('drafts_owner_node').on('drafts').column('owner_node').execute();
}

export async function down(): Promise<void> {
  throw new Error('forward-only');
}
