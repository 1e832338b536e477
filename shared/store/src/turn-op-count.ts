import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

/** Ops committed in a turn, computed from the log so op budgets survive restarts. */
export async function turnOpCount(db: Kysely<DB>, draftId: string, turnId: string): Promise<number> {
  const r = await db.selectFrom('events')
    .select(sql<string | number>`coalesce(sum(json_array_length(ops)), 0)`.as('n'))
    .where('draft_id', '=', draftId).where('turn_id', '=', turnId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Ops `actor` committed on the draft after the last version of its last finished turn (turns.summary.lastVersion). */
export async function actorOpsSinceTurn(db: Kysely<DB>, draftId: string, actor: string): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`
    SELECT coalesce(sum(json_array_length(e.ops)), 0) AS n FROM events e
    WHERE e.draft_id = ${draftId} AND e.actor = ${actor} AND e.version > coalesce((
      SELECT max((t.summary->>'lastVersion')::bigint) FROM turns t
      WHERE t.draft_id = ${draftId} AND t.actor_id = ${actor} AND t.finished_at IS NOT NULL), 0)`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
