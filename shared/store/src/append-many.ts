// Cross-draft group commit (PERFORMANCE.md "Measured on the built system"): the ready batches of
// many drafts in ONE statement. Each draft's head bump is guarded by its expected version as in
// append.ts; drafts are locked in id order, so concurrent statements (two in flight here, or other
// session processes) cannot deadlock — every other statement that locks many drafts rows (lease
// renewal, release) takes them in id order too. FOR NO KEY UPDATE, the lock the head bump takes
// anyway: it does not block a foreign-key check on the row. A draft whose guard fails gets its own answer; a duplicate
// opId fails the whole statement, and the caller falls back to one append per draft.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { err, ok } from './result.ts';
import type { Result } from '@weft/core';
import type { DB } from './schema.ts';
import type { AppendError, NewStep, StoredStep } from './types.ts';
import { eventRow, storedSteps, titleAfter, whyNot } from './append.ts';
import type { Fence } from './leases.ts';
import { int } from './rows.ts';

export interface DraftBatch { draftId: string; expectedVersion: number; steps: readonly NewStep[]; fence?: Fence | undefined }

/** Appends each batch (one per draft, non-empty, distinct opIds) in one statement. Throws on a duplicate opId (23505). */
export async function appendMany(db: Kysely<DB>, batches: readonly DraftBatch[]): Promise<Result<StoredStep[], AppendError>[]> {
  const heads = batches.map((b) => ({ draft_id: b.draftId, expected: b.expectedVersion, head: b.expectedVersion + b.steps.length, fence_node: b.fence?.node ?? null, fence_epoch: b.fence?.epoch ?? null, title: titleAfter(b.steps) ?? null }));
  const rows = batches.flatMap((b) => b.steps.map((s, i) => eventRow(b.draftId, b.expectedVersion + 1 + i, s)));
  const { rows: out } = await sql<{ draft_id: string; version: string | number; position: string | number; created_at: Date }>`
    WITH b AS (
      SELECT * FROM jsonb_to_recordset(${heads as never}::jsonb) AS b(draft_id text, expected bigint, head bigint, fence_node text, fence_epoch bigint, title text)
    ), locked AS (
      SELECT d.id FROM drafts d JOIN b ON b.draft_id = d.id ORDER BY d.id FOR NO KEY UPDATE OF d
    ), bump AS (
      UPDATE drafts d SET head_version = b.head, title = COALESCE(b.title, d.title) FROM b
      WHERE d.id = b.draft_id AND d.head_version = b.expected AND d.id IN (SELECT id FROM locked)
        AND (b.fence_node IS NULL OR (d.owner_node = b.fence_node AND d.lease_epoch = b.fence_epoch))
      RETURNING d.id
    )
    INSERT INTO events (draft_id, version, op_id, body_hash, actor, actor_kind, session_id, turn_id, ops, inverse, notes, refused, y_update, kind, undo_of)
    SELECT r.draft_id, r.version, r.op_id, r.body_hash, r.actor, r.actor_kind, r.session_id, r.turn_id, r.ops, r.inverse, r.notes, r.refused,
           decode(r.y_update, 'base64'), r.kind, r.undo_of
    FROM json_to_recordset(${rows as never}::json) AS r(draft_id text, version bigint, op_id text, body_hash text, actor text, actor_kind text,
         session_id text, turn_id text, ops json, inverse jsonb, notes jsonb, refused jsonb, y_update text, kind text, undo_of jsonb)
    WHERE r.draft_id IN (SELECT id FROM bump)
    RETURNING draft_id, version, position, created_at`.execute(db);
  const byDraft = new Map<string, Map<number, { position: string | number; created_at: Date }>>();
  for (const r of out) {
    let m = byDraft.get(r.draft_id);
    if (!m) byDraft.set(r.draft_id, (m = new Map()));
    m.set(int(r.version), r);
  }
  const why = new Map<string, AppendError>();
  for (const b of batches) if (!byDraft.has(b.draftId)) why.set(b.draftId, await whyNot(db, b.draftId, b.fence));
  return batches.map((b) => {
    const gen = byDraft.get(b.draftId);
    return gen ? ok(storedSteps(b.draftId, b.expectedVersion, b.steps, gen)) : err(why.get(b.draftId)!);
  });
}
