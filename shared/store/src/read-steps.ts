import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import type { StoredStep } from './types.ts';
import { int, toStep } from './rows.ts';

/** Steps in version order (gapless, so a reader following `after` never skips a committed step). */
export async function readSteps(db: Kysely<DB>, draftId: string, opts: { after?: number; limit?: number; upTo?: number } = {}): Promise<StoredStep[]> {
  let q = db.selectFrom('events').selectAll().where('draft_id', '=', draftId).where('version', '>', opts.after ?? 0);
  if (opts.upTo !== undefined) q = q.where('version', '<=', opts.upTo);
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  const rows = await q.orderBy('version').execute();
  return rows.map(toStep);
}

export async function findByOpId(db: Kysely<DB>, draftId: string, opId: string): Promise<StoredStep | null> {
  const row = await db.selectFrom('events').selectAll().where('draft_id', '=', draftId).where('op_id', '=', opId).executeTakeFirst();
  return row === undefined ? null : toStep(row);
}

/** Replay fast path (PERFORMANCE.md B6): ops as JSON text, parsed by the caller (maybe in a worker). */
export async function readOpsText(db: Kysely<DB>, draftId: string, after: number, upTo?: number): Promise<{ version: number; opsText: string }[]> {
  let q = db.selectFrom('events')
    .select((eb) => ['version', eb.cast<string>('ops', 'text').as('ops_text')])
    .where('draft_id', '=', draftId).where('version', '>', after);
  if (upTo !== undefined) q = q.where('version', '<=', upTo);
  const rows = await q.orderBy('version').execute();
  return rows.map((r) => ({ version: int(r.version), opsText: r.ops_text }));
}
