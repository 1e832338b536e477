// The checkpointer's reads and writes for many drafts at once: a snapshot of one draft took four
// round trips, and drafts edited in step come due together (a thousand in the same second), so
// the worker batches them. Each function is one statement for the whole batch.
import { sql } from 'kysely';
import type { Kysely, Selectable } from 'kysely';
import type { DB, EventsTable } from './schema.ts';
import type { NewSnapshot, Snapshot, StoredStep } from './types.ts';
import { int, toSnapshot, toStep } from './rows.ts';

/** Where a draft stands for its next snapshot: log head, Yjs epoch, latest snapshot's version (0 = none). */
export interface SnapshotTarget { headVersion: number; epoch: number; snapshotVersion: number }

/** Drafts that do not exist are absent. */
export async function snapshotTargets(db: Kysely<DB>, draftIds: readonly string[]): Promise<Map<string, SnapshotTarget>> {
  if (draftIds.length === 0) return new Map();
  const rows = await db.selectFrom('drafts as d')
    .select((eb) => ['d.id', 'd.head_version', 'd.epoch', eb.selectFrom('snapshots as s').select(sql<string | number | null>`max(s.version)`.as('v')).whereRef('s.draft_id', '=', 'd.id').as('snapshot_version')])
    .where('d.id', '=', sql<string>`ANY(${[...draftIds]}::text[])`).execute();
  return new Map(rows.map((r) => [r.id, { headVersion: int(r.head_version), epoch: r.epoch, snapshotVersion: r.snapshot_version === null ? 0 : int(r.snapshot_version) }]));
}

/** The newest snapshot of each draft, content included (drafts without one are absent). */
export async function latestSnapshots(db: Kysely<DB>, draftIds: readonly string[]): Promise<Map<string, Snapshot>> {
  if (draftIds.length === 0) return new Map();
  const rows = await db.selectFrom('snapshots').selectAll().distinctOn('draft_id')
    .where('draft_id', '=', sql<string>`ANY(${[...draftIds]}::text[])`).orderBy('draft_id').orderBy('version', 'desc').execute();
  return new Map(rows.map((r) => [r.draft_id, toSnapshot(r)]));
}

export interface StepRange { draftId: string; after: number; upTo: number }

/** Each range's steps (`after` < version ≤ `upTo`), in version order; a range with none is absent. */
export async function readStepRanges(db: Kysely<DB>, ranges: readonly StepRange[]): Promise<Map<string, StoredStep[]>> {
  const out = new Map<string, StoredStep[]>();
  if (ranges.length === 0) return out;
  const { rows } = await sql<Selectable<EventsTable>>`
    SELECT e.* FROM unnest(${ranges.map((r) => r.draftId)}::text[], ${ranges.map((r) => r.after)}::int8[], ${ranges.map((r) => r.upTo)}::int8[]) AS r(draft_id, after_v, up_to)
    JOIN events e ON e.draft_id = r.draft_id AND e.version > r.after_v AND e.version <= r.up_to
    ORDER BY e.draft_id, e.version`.execute(db);
  for (const row of rows) {
    const step = toStep(row);
    const list = out.get(step.draftId);
    if (list) list.push(step); else out.set(step.draftId, [step]);
  }
  return out;
}

/** Idempotent like writeSnapshot: the `draftId@version` keys written (one already there is not). */
export async function writeSnapshots(db: Kysely<DB>, list: readonly NewSnapshot[]): Promise<Set<string>> {
  if (list.length === 0) return new Set();
  const rows = await db.insertInto('snapshots')
    .values(list.map((s) => ({ draft_id: s.draftId, version: s.version, epoch: s.epoch, doc: s.doc, y_state: s.yState, reason: s.reason })))
    .onConflict((oc) => oc.columns(['draft_id', 'version']).doNothing()).returning(['draft_id', 'version']).execute();
  return new Set(rows.map((r) => `${r.draft_id}@${int(r.version)}`));
}
