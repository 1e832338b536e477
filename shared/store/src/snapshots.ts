import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import type { NewSnapshot, Snapshot, SnapshotEntry } from './types.ts';
import type { Fence } from './leases.ts';
import { int, toSnapshot } from './rows.ts';
import { writeSnapshots } from './checkpoint-batch.ts';

/** Idempotent: true when written, false when a snapshot at that version already existed. */
export async function writeSnapshot(db: Kysely<DB>, s: NewSnapshot): Promise<boolean> {
  return (await writeSnapshots(db, [s])).has(`${s.draftId}@${s.version}`);
}

export async function latestSnapshot(db: Kysely<DB>, draftId: string, atOrBelow?: number): Promise<Snapshot | null> {
  let q = db.selectFrom('snapshots').selectAll().where('draft_id', '=', draftId);
  if (atOrBelow !== undefined) q = q.where('version', '<=', atOrBelow);
  const row = await q.orderBy('version', 'desc').limit(1).executeTakeFirst();
  return row === undefined ? null : toSnapshot(row);
}

/** The newest snapshot's version of each of these drafts (none = absent): one index-only query, no doc read. */
export async function snapshotVersions(db: Kysely<DB>, draftIds: readonly string[]): Promise<Map<string, number>> {
  if (draftIds.length === 0) return new Map();
  const rows = await db.selectFrom('snapshots').select(['draft_id', sql<string | number>`max(version)`.as('version')])
    .where('draft_id', '=', sql<string>`ANY(${[...draftIds]}::text[])`).groupBy('draft_id').execute();
  return new Map(rows.map((r) => [r.draft_id, int(r.version)]));
}

/** The newest snapshot at or below a version that carries a Yjs state of `epoch` (the Yjs lineage's base). */
export async function latestYSnapshot(db: Kysely<DB>, draftId: string, epoch: number, atOrBelow: number): Promise<Snapshot | null> {
  const row = await db.selectFrom('snapshots').selectAll().where('draft_id', '=', draftId).where('epoch', '=', epoch)
    .where('version', '<=', atOrBelow).where('y_state', 'is not', null).orderBy('version', 'desc').limit(1).executeTakeFirst();
  return row === undefined ? null : toSnapshot(row);
}

/**
 * A draft's snapshots, oldest first, without their content: a long-lived draft has hundreds, each
 * the whole draft and its Yjs state, and the versions list read them all to show four fields.
 */
export async function listSnapshots(db: Kysely<DB>, draftId: string): Promise<SnapshotEntry[]> {
  const rows = await db.selectFrom('snapshots').select(['draft_id', 'version', 'epoch', 'reason', 'created_at'])
    .where('draft_id', '=', draftId).orderBy('version').execute();
  return rows.map((r) => ({ draftId: r.draft_id, version: int(r.version), epoch: r.epoch, reason: r.reason, createdAt: r.created_at }));
}

/**
 * Starts Yjs epoch `fromEpoch + 1` at `s.version`: the draft's epoch moves and the snapshot at that
 * version carries the new epoch's base state, in one transaction (a snapshot already written at the
 * version is the same JSON; it takes the new base). False when the epoch already moved.
 */
export async function startEpoch(db: Kysely<DB>, fromEpoch: number, s: Omit<NewSnapshot, 'epoch' | 'reason'>, fence?: Fence): Promise<boolean> {
  const epoch = fromEpoch + 1;
  return db.transaction().execute(async (trx) => {
    // Guarded by the head too: the new base is the draft at s.version, so no append may have moved
    // it meanwhile (another node's epoch-0 bytes would then be missing from epoch 1), and by the
    // lease when several nodes run: only the owner compacts.
    let q = trx.updateTable('drafts').set({ epoch }).where('id', '=', s.draftId).where('epoch', '=', fromEpoch).where('head_version', '=', s.version);
    if (fence) q = q.where('owner_node', '=', fence.node).where('lease_epoch', '=', fence.epoch);
    const moved = await q.executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    await trx.insertInto('snapshots').values({ draft_id: s.draftId, version: s.version, epoch, doc: s.doc, y_state: s.yState, reason: 'epoch' })
      .onConflict((oc) => oc.columns(['draft_id', 'version']).doUpdateSet({ epoch, y_state: s.yState, reason: 'epoch' })).execute();
    return true;
  });
}
