// Expected-version append (RELIABILITY.md promises 2 and 3), emmett appendToStream style.
// One transaction: bump drafts.head_version guarded by the expected value (the row lock orders
// concurrent appenders; a loser re-checks and sees 0 rows), then insert all steps in one
// multi-row INSERT. UNIQUE(draft_id, op_id) makes opIds durable idempotency keys.
import type { Kysely } from 'kysely';
import { err, ok } from './result.ts';
import type { Result } from '@weft/core';
import type { DB } from './schema.ts';
import type { AppendError, NewStep, StoredStep } from './types.ts';
import { int, pgCode } from './rows.ts';

class Conflict extends Error {
  readonly error: AppendError;
  constructor(error: AppendError) { super(error.code); this.error = error; }
}

export async function append(db: Kysely<DB>, draftId: string, expectedVersion: number, steps: readonly NewStep[]): Promise<Result<StoredStep[], AppendError>> {
  if (steps.length === 0) {
    // Nothing to write: still answer the version question, never touch the row.
    const d = await db.selectFrom('drafts').select('head_version').where('id', '=', draftId).executeTakeFirst();
    if (d === undefined) return err({ code: 'NOT_FOUND', draftId });
    const current = int(d.head_version);
    return current === expectedVersion ? ok([]) : err({ code: 'VERSION_CONFLICT', currentVersion: current });
  }
  const seen = new Set<string>();
  for (const s of steps) {
    if (seen.has(s.opId)) return err({ code: 'IDEMPOTENCY_CONFLICT', opId: s.opId });
    seen.add(s.opId);
  }
  const newVersion = expectedVersion + steps.length;
  try {
    const rows = await db.transaction().execute(async (tx) => {
      const bumped = await tx.updateTable('drafts').set({ head_version: newVersion })
        .where('id', '=', draftId).where('head_version', '=', expectedVersion)
        .returning('id').executeTakeFirst();
      if (bumped === undefined) {
        const d = await tx.selectFrom('drafts').select('head_version').where('id', '=', draftId).executeTakeFirst();
        throw new Conflict(d === undefined ? { code: 'NOT_FOUND', draftId } : { code: 'VERSION_CONFLICT', currentVersion: int(d.head_version) });
      }
      return tx.insertInto('events').values(steps.map((s, i) => ({
        draft_id: draftId,
        version: expectedVersion + 1 + i,
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
        y_update: s.yUpdate ?? null,
        kind: s.kind ?? 'do',
        undo_of: s.undoOf ?? [],
      } as never))).returning(['version', 'position', 'created_at']).execute();
    });
    // Only the generated columns come back; the rest is what we sent (no jsonb/bytea round trip).
    // The returned steps share their ops/notes arrays with `steps`.
    const gen = new Map(rows.map((r) => [int(r.version), r]));
    return ok(steps.map((s, i): StoredStep => {
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
    }));
  } catch (e) {
    if (e instanceof Conflict) return err(e.error);
    if (pgCode(e) === '23505') {
      // Which opId? Look it up after the rollback (the detail text is driver-specific).
      const hit = await db.selectFrom('events').select('op_id').where('draft_id', '=', draftId)
        .where('op_id', 'in', steps.map((s) => s.opId)).executeTakeFirst();
      if (hit !== undefined) return err({ code: 'IDEMPOTENCY_CONFLICT', opId: hit.op_id });
      // A (draft_id, version) clash cannot happen behind the guard; report it as a conflict anyway.
      const d = await db.selectFrom('drafts').select('head_version').where('id', '=', draftId).executeTakeFirstOrThrow();
      return err({ code: 'VERSION_CONFLICT', currentVersion: int(d.head_version) });
    }
    throw e;
  }
}
