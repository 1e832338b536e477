import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

/** Ops committed in a turn, computed from the log so op budgets survive restarts. */
export async function turnOpCount(db: Kysely<DB>, draftId: string, turnId: string): Promise<number> {
  const r = await db.selectFrom('events')
    .select(sql<string | number>`coalesce(sum(jsonb_array_length(ops)), 0)`.as('n'))
    .where('draft_id', '=', draftId).where('turn_id', '=', turnId).executeTakeFirstOrThrow();
  return Number(r.n);
}
