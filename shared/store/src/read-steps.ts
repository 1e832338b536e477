import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import type { StoredStep } from './types.ts';
import { toStep } from './rows.ts';

/** Steps in version order (gapless, so a reader following `after` never skips a committed step). */
export async function readSteps(db: Kysely<DB>, draftId: string, opts: { after?: number; limit?: number; upTo?: number; actor?: string } = {}): Promise<StoredStep[]> {
  let q = db.selectFrom('events').selectAll().where('draft_id', '=', draftId).where('version', '>', opts.after ?? 0);
  if (opts.actor !== undefined) q = q.where('actor', '=', opts.actor);
  if (opts.upTo !== undefined) q = q.where('version', '<=', opts.upTo);
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  const rows = await q.orderBy('version').execute();
  return rows.map(toStep);
}

export async function findByOpId(db: Kysely<DB>, draftId: string, opId: string): Promise<StoredStep | null> {
  const row = await db.selectFrom('events').selectAll().where('draft_id', '=', draftId).where('op_id', '=', opId).executeTakeFirst();
  return row === undefined ? null : toStep(row);
}

/** Many opIds in one query (the room batches the idempotency lookups of one tick). */
export async function findByOpIds(db: Kysely<DB>, draftId: string, opIds: readonly string[]): Promise<Map<string, StoredStep>> {
  const out = new Map<string, StoredStep>();
  if (opIds.length === 0) return out;
  const rows = await db.selectFrom('events').selectAll().where('draft_id', '=', draftId).where('op_id', 'in', [...opIds]).execute();
  for (const r of rows) out.set(r.op_id, toStep(r));
  return out;
}
