// Replay fast path (PERFORMANCE.md B6): each step's public view rendered as JSON text by Postgres
// (json_build_object), so the caller writes the lines as they are — no row decode, no jsonb parse,
// no re-stringify — and never reads the inverse or the Yjs bytes it would drop.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { int } from './rows.ts';

/** StepView (`@weft/protocol`) as one JSON text per step, in version order, after `after` up to `upTo`. */
export async function readStepViewsText(db: Kysely<DB>, draftId: string, after: number, limit: number, upTo: number): Promise<{ version: number; json: string }[]> {
  const { rows } = await sql<{ version: string | number; json: string }>`
    SELECT version, json_build_object(
      'version', version, 'opId', op_id, 'actor', actor, 'actorKind', actor_kind, 'sessionId', session_id, 'turnId', turn_id,
      'ops', ops, 'notes', notes, 'refused', refused,
      'createdAt', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text AS json
    FROM events WHERE draft_id = ${draftId} AND version > ${after} AND version <= ${upTo}
    ORDER BY version LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({ version: int(r.version), json: r.json }));
}
