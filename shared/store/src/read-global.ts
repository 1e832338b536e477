// The outbox read for relays (RELIABILITY.md promise 4). Positions are assigned at insert, not at
// commit, so `position > last` alone can skip a row whose transaction commits late. We only
// return rows of transactions below the xid8 horizon (all finished: no new row can appear there)
// and page by the pair (tx_id, position), so a late committer is read when the horizon passes it.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import type { GlobalBatch, GlobalCursor } from './types.ts';
import { toStep } from './rows.ts';

export async function readGlobal(db: Kysely<DB>, after: GlobalCursor, limit: number): Promise<GlobalBatch> {
  const rows = await db.selectFrom('events').selectAll()
    .where(sql<boolean>`tx_id < pg_snapshot_xmin(pg_current_snapshot())`)
    .where(sql<boolean>`(tx_id, position) > (${after.txId}::xid8, ${after.position}::bigint)`)
    .orderBy('tx_id').orderBy('position').limit(limit).execute();
  const last = rows.at(-1);
  const cursor = last === undefined ? after : { txId: String(last.tx_id), position: Number(last.position) };
  return { steps: rows.map(toStep), cursor };
}
