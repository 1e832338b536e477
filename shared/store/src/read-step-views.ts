// Replay fast path (PERFORMANCE.md B6): each step's public view rendered as JSON text by Postgres
// (json_build_object), so the caller writes the lines as they are — no row decode, no jsonb parse,
// no re-stringify — and never reads the inverse or the Yjs bytes it would drop.
import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { DB } from './schema.ts';
import { int } from './rows.ts';

/** StepView (`@weft/protocol`) of the row as JSON text. */
const stepView = (): RawBuilder<string> => sql<string>`json_build_object(
      'version', version, 'opId', op_id, 'actor', actor, 'actorKind', actor_kind, 'sessionId', session_id, 'turnId', turn_id,
      'ops', ops, 'notes', notes, 'refused', refused,
      'createdAt', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text`;

/** StepView (`@weft/protocol`) as one JSON text per step, in version order, after `after` up to `upTo`. */
export async function readStepViewsText(db: Kysely<DB>, draftId: string, after: number, limit: number, upTo: number): Promise<{ version: number; json: string }[]> {
  const { rows } = await sql<{ version: string | number; json: string }>`
    SELECT version, ${stepView()} AS json
    FROM events WHERE draft_id = ${draftId} AND version > ${after} AND version <= ${upTo}
    ORDER BY version LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({ version: int(r.version), json: r.json }));
}

/** Versions first..last as NDJSON: one StepView a line, each line ending in a newline. */
export interface StepViewsPage { first: number; last: number; count: number; ndjson: string }

/**
 * The steps after `after` up to min(after + limit, upTo) as one NDJSON text rendered by Postgres,
 * or null when that range is empty. `upTo` is at or below the head, so every version of the range
 * must be there: a page that is not exactly after+1..end throws — a hole is damage (versions are
 * gapless by construction), never skipped, also at the end of a page.
 */
export async function readStepViewsPage(db: Kysely<DB>, draftId: string, after: number, limit: number, upTo: number): Promise<StepViewsPage | null> {
  const end = Math.min(after + limit, upTo);
  if (end <= after) return null;
  const { rows } = await sql<{ first: string | number | null; last: string | number | null; n: string | number; ndjson: string | null }>`
    SELECT min(version) AS first, max(version) AS last, count(*) AS n, string_agg(${stepView()} || E'\\n', '' ORDER BY version) AS ndjson
    FROM events WHERE draft_id = ${draftId} AND version > ${after} AND version <= ${end}`.execute(db);
  const r = rows[0]!;
  const count = int(r.n);
  if (r.ndjson === null || count !== end - after || int(r.first!) !== after + 1 || int(r.last!) !== end) {
    throw new Error(`draft ${draftId}: the log has a gap between v${after} and v${end} (${count} steps where ${end - after} were due)`);
  }
  return { first: after + 1, last: end, count, ndjson: r.ndjson };
}
