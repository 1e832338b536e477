// Expected-version append (RELIABILITY.md promises 2 and 3), emmett appendToStream style.
// One statement: bump drafts.head_version guarded by the expected value (the row lock orders
// concurrent appenders; a loser sees 0 rows) and insert all steps from one jsonb array. UNIQUE(draft_id, op_id) makes opIds durable idempotency keys.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { err, ok } from './result.ts';
import type { Result } from '@weft/core';
import type { DB } from './schema.ts';
import type { AppendError, NewStep, StoredStep } from './types.ts';
import type { Fence } from './leases.ts';
import { int, pgCode } from './rows.ts';

class Conflict extends Error {
  readonly error: AppendError;
  constructor(error: AppendError) { super(error.code); this.error = error; }
}

export async function append(db: Kysely<DB>, draftId: string, expectedVersion: number, steps: readonly NewStep[], fence?: Fence): Promise<Result<StoredStep[], AppendError>> {
  if (steps.length === 0) {
    // Nothing to write: still answer the version question, never touch the row.
    const d = await db.selectFrom('drafts').select(['head_version', 'owner_node', 'lease_epoch']).where('id', '=', draftId).executeTakeFirst();
    if (d === undefined) return err({ code: 'NOT_FOUND', draftId });
    if (fence && (d.owner_node !== fence.node || int(d.lease_epoch) !== fence.epoch)) return err({ code: 'FENCED', owner: d.owner_node, epoch: int(d.lease_epoch) });
    const current = int(d.head_version);
    return current === expectedVersion ? ok([]) : err({ code: 'VERSION_CONFLICT', currentVersion: current });
  }
  const seen = new Set<string>();
  for (const s of steps) {
    if (seen.has(s.opId)) return err({ code: 'IDEMPOTENCY_CONFLICT', opId: s.opId });
    seen.add(s.opId);
  }
  const newVersion = expectedVersion + steps.length;
  // One statement, one round trip: the guarded bump and the insert in a single autocommit
  // transaction. The rows travel as one jsonb array (bytea as base64), unpacked server-side.
  const payload = steps.map((s, i) => eventRow(draftId, expectedVersion + 1 + i, s));
  const title = titleAfter(steps);
  try {
    const { rows } = await sql<{ version: string | number; position: string | number; created_at: Date }>`
      WITH bump AS (
        UPDATE drafts SET head_version = ${newVersion}${title === undefined ? sql`` : sql`, title = ${title}`} WHERE id = ${draftId} AND head_version = ${expectedVersion}
          ${fence ? sql`AND owner_node = ${fence.node} AND lease_epoch = ${fence.epoch}` : sql``} RETURNING id
      )
      INSERT INTO events (draft_id, version, op_id, body_hash, actor, actor_kind, session_id, turn_id, ops, inverse, notes, refused, y_update, kind, undo_of)
      SELECT ${draftId}, r.version, r.op_id, r.body_hash, r.actor, r.actor_kind, r.session_id, r.turn_id, r.ops, r.inverse, r.notes, r.refused,
             decode(r.y_update, 'base64'), r.kind, r.undo_of
      FROM json_to_recordset(${payload as never}::json) AS r(version bigint, op_id text, body_hash text, actor text, actor_kind text, session_id text,
           turn_id text, ops json, inverse jsonb, notes jsonb, refused jsonb, y_update text, kind text, undo_of jsonb)
      WHERE EXISTS (SELECT 1 FROM bump)
      RETURNING version, position, created_at`.execute(db);
    if (rows.length === 0) throw new Conflict(await whyNot(db, draftId, fence));
    // Only the generated columns come back; the rest is what we sent (no jsonb/bytea round trip).
    // The returned steps share their ops/notes arrays with `steps`.
    const gen = new Map(rows.map((r) => [int(r.version), r]));
    return ok(storedSteps(draftId, expectedVersion, steps, gen));
  } catch (e) {
    if (e instanceof Conflict) return err(e.error);
    if (pgCode(e) === '23505') {
      // Which opId? Look it up after the rollback (the detail text is driver-specific).
      const hits = await db.selectFrom('events').select('op_id').where('draft_id', '=', draftId)
        .where('op_id', 'in', steps.map((s) => s.opId)).orderBy('version').execute();
      if (hits.length > 0) return err({ code: 'IDEMPOTENCY_CONFLICT', opId: hits[0]!.op_id, ...(hits.length > 1 ? { opIds: hits.map((h) => h.op_id) } : {}) });
      // A (draft_id, version) clash cannot happen behind the guard; report it as a conflict anyway.
      const d = await db.selectFrom('drafts').select('head_version').where('id', '=', draftId).executeTakeFirstOrThrow();
      return err({ code: 'VERSION_CONFLICT', currentVersion: int(d.head_version) });
    }
    throw e;
  }
}

/** The title the last of `steps` that changed it left (undefined: the batch left the title alone). */
export function titleAfter(steps: readonly NewStep[]): string | undefined {
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i]!.title !== undefined) return steps[i]!.title;
  return undefined;
}

/** One events row as it travels in the jsonb payload (bytea as base64). */
export function eventRow(draftId: string, version: number, s: NewStep): Record<string, unknown> {
  return {
    draft_id: draftId,
    version,
    op_id: s.opId,
    body_hash: s.bodyHash,
    actor: s.actor,
    actor_kind: s.actorKind,
    session_id: s.sessionId ?? null,
    turn_id: s.turnId ?? null,
    ops: s.ops,
    inverse: s.inverse,
    notes: s.notes,
    refused: s.refused,
    y_update: s.yUpdate ? Buffer.from(s.yUpdate).toString('base64') : null,
    kind: s.kind ?? 'do',
    undo_of: s.undoOf ?? [],
  };
}

/** The stored steps: what was sent plus the generated columns the insert returned. */
export function storedSteps(draftId: string, expectedVersion: number, steps: readonly NewStep[], gen: Map<number, { position: string | number; created_at: Date }>): StoredStep[] {
  return steps.map((s, i): StoredStep => {
    const version = expectedVersion + 1 + i;
    const r = gen.get(version);
    if (r === undefined) throw new Error(`append: no row returned for ${draftId} v${version}`);
    return {
      draftId, version, position: int(r.position), createdAt: r.created_at,
      opId: s.opId, bodyHash: s.bodyHash, actor: s.actor, actorKind: s.actorKind,
      sessionId: s.sessionId ?? null, turnId: s.turnId ?? null,
      ops: s.ops, inverse: s.inverse, notes: s.notes, refused: s.refused,
      yUpdate: s.yUpdate ?? null, kind: s.kind ?? 'do', undoOf: s.undoOf ?? [],
    };
  });
}

/** Why a guarded append wrote nothing: no draft, a lease this node no longer holds, or another head. */
export async function whyNot(db: Kysely<DB>, draftId: string, fence: Fence | undefined): Promise<AppendError> {
  const d = await db.selectFrom('drafts').select(['head_version', 'owner_node', 'lease_epoch']).where('id', '=', draftId).executeTakeFirst();
  if (d === undefined) return { code: 'NOT_FOUND', draftId };
  if (fence && (d.owner_node !== fence.node || int(d.lease_epoch) !== fence.epoch)) return { code: 'FENCED', owner: d.owner_node, epoch: int(d.lease_epoch) };
  return { code: 'VERSION_CONFLICT', currentVersion: int(d.head_version) };
}
