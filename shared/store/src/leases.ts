// Draft leases for several session nodes: one owner per draft, a fencing token (lease_epoch) that
// the append and the epoch start check, expiry so a dead owner's drafts move on.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { int } from './rows.ts';

/** What an append or an epoch start must still hold: this node owns the draft at this lease epoch. */
export interface Fence { node: string; epoch: number }

export interface LeaseView {
  /** The owner now (null: nobody holds an unexpired lease and this node could not take it). */
  node: string | null;
  url: string | null;
  epoch: number;
  expiresAt: Date | null;
}

/**
 * Takes the draft's lease for `node` if it is free, expired or already ours (renewed), in one
 * statement; answers the lease as it stands after (ours or another node's). A lease taken anew
 * (not a renewal of our own unexpired one) gets the next epoch. Null: no such draft.
 */
export async function acquireLease(db: Kysely<DB>, draftId: string, node: string, url: string, ttlMs: number): Promise<LeaseView | null> {
  // Two nodes taking a fresh draft at once: the loser's UPDATE waits, finds the row taken, and its
  // fallback SELECT still reads the statement's snapshot — a row with no owner yet. Ask again (a
  // new statement sees the winner); the first node to a draft's lease answers within a round trip.
  for (let attempt = 0; ; attempt++) {
    const lease = await acquireOnce(db, draftId, node, url, ttlMs);
    if (lease === null || (lease.node !== null && lease.url !== null) || attempt >= 4) return lease;
  }
}

async function acquireOnce(db: Kysely<DB>, draftId: string, node: string, url: string, ttlMs: number): Promise<LeaseView | null> {
  const { rows } = await sql<{ owner_node: string | null; owner_url: string | null; lease_epoch: string | number; lease_expires_at: Date | null }>`
    WITH cur AS (SELECT id FROM drafts WHERE id = ${draftId}),
    taken AS (
      UPDATE drafts SET
        lease_epoch = CASE WHEN owner_node = ${node} AND lease_expires_at > now() THEN lease_epoch ELSE lease_epoch + 1 END,
        owner_node = ${node}, owner_url = ${url},
        lease_expires_at = now() + make_interval(secs => ${ttlMs / 1000})
      WHERE id = ${draftId} AND (owner_node IS NULL OR owner_node = ${node} OR lease_expires_at IS NULL OR lease_expires_at <= now())
      RETURNING owner_node, owner_url, lease_epoch, lease_expires_at
    )
    SELECT owner_node, owner_url, lease_epoch, lease_expires_at FROM taken
    UNION ALL
    SELECT d.owner_node, d.owner_url, d.lease_epoch, d.lease_expires_at FROM drafts d, cur
    WHERE d.id = cur.id AND NOT EXISTS (SELECT 1 FROM taken)`.execute(db);
  const r = rows[0];
  if (r === undefined) return null;
  return { node: r.owner_node, url: r.owner_url, epoch: int(r.lease_epoch), expiresAt: r.lease_expires_at };
}

/**
 * The draft's lease as it stands, taking nothing (a node that is shutting down still names the
 * owner but never becomes it). `node` is null when no unexpired lease is held. Null: no such draft.
 */
export async function readLease(db: Kysely<DB>, draftId: string): Promise<LeaseView | null> {
  const r = await db.selectFrom('drafts')
    .select(['owner_node', 'owner_url', 'lease_epoch', 'lease_expires_at', sql<boolean>`lease_expires_at > now()`.as('live')])
    .where('id', '=', draftId).executeTakeFirst();
  if (r === undefined) return null;
  return r.live ? { node: r.owner_node, url: r.owner_url, epoch: int(r.lease_epoch), expiresAt: r.lease_expires_at } : { node: null, url: null, epoch: int(r.lease_epoch), expiresAt: r.lease_expires_at };
}

/** Renews every lease `node` still holds among `draftIds`, in one statement; answers the ones it kept. */
export async function renewLeases(db: Kysely<DB>, node: string, draftIds: readonly string[], ttlMs: number): Promise<Map<string, number>> {
  if (draftIds.length === 0) return new Map();
  // Rows are locked in id order, as the group commit locks them (append-many.ts): a multi-row
  // UPDATE takes its rows in scan order, and against a commit holding some of them that deadlocks.
  const { rows } = await sql<{ id: string; lease_epoch: string | number }>`
    WITH l AS (
      SELECT id FROM drafts WHERE owner_node = ${node} AND id = ANY(${[...draftIds]}::text[]) AND lease_expires_at > now()
      ORDER BY id FOR NO KEY UPDATE
    )
    UPDATE drafts d SET lease_expires_at = now() + make_interval(secs => ${ttlMs / 1000})
    FROM l WHERE d.id = l.id
    RETURNING d.id, d.lease_epoch`.execute(db);
  return new Map(rows.map((r) => [r.id, int(r.lease_epoch)]));
}

/** Lets every lease of `node` go at once (a clean shutdown: others take over without waiting). */
export async function releaseLeases(db: Kysely<DB>, node: string): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    WITH l AS (SELECT id FROM drafts WHERE owner_node = ${node} ORDER BY id FOR NO KEY UPDATE)
    UPDATE drafts d SET lease_expires_at = now() FROM l WHERE d.id = l.id RETURNING d.id`.execute(db);
  return rows.length;
}

/** How many drafts `node` owns now (health, metrics). */
export async function ownedCount(db: Kysely<DB>, node: string): Promise<number> {
  const r = await db.selectFrom('drafts').select(sql<string | number>`count(*)`.as('n')).where('owner_node', '=', node).where('lease_expires_at', '>', sql<Date>`now()`).executeTakeFirstOrThrow();
  return int(r.n);
}
