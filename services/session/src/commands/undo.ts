import type { Ctx } from '../context.ts';
import { findConflict, undoTargets } from '../rooms/undo.ts';
import { mustRoom } from './drafts.ts';
import { WeftError } from './errors.ts';
import { requireScope } from './principal.ts';
import type { Principal } from './principal.ts';
import { outcomeOrThrow } from './submit.ts';

/** Plans from the log and submits atomically at the version it planned against (retried on a race). */
export async function undoRedo(ctx: Ctx, p: Principal, draftId: string, mode: 'undo' | 'redo', scope: 'step' | 'turn', opId: string): Promise<unknown> {
  requireScope(p, draftId, 'write');
  const room = await mustRoom(ctx, draftId);
  for (let attempt = 0; attempt < 5; attempt++) {
    const base = room.version;
    await room.drain();
    if (room.version !== base) continue;
    // Only what the plan needs: the actor's own steps (an index on draft, actor, version), then
    // the steps after the oldest target for the conflict check.
    const mine = await ctx.store.readSteps(draftId, { after: 0, upTo: base, actor: p.actor.id });
    const targets = undoTargets(mine, scope, mode);
    const plan = targets.ok ? findConflict(await ctx.store.readSteps(draftId, { after: targets.since, upTo: base }), p.actor.id, targets.since, targets.ops) ?? targets : targets;
    if (!plan.ok) {
      const { ok: _ok, code, message, ...extra } = plan;
      throw new WeftError(code, message, extra);
    }
    const out = await room.submit({
      opId, bodyHash: `${mode}:${plan.undoOf.join(',')}`, baseVersion: base, ops: plan.ops, actor: p.actor,
      kind: plan.kind, undoOf: plan.undoOf, atomic: true,
    });
    if (!out.ok && out.error.code === 'VERSION_CONFLICT') continue;
    if (!out.ok && out.error.code === 'VALIDATION_FAILED') {
      throw new WeftError('UNDO_CONFLICT', `The ${mode} no longer applies to the current draft: ${out.error.message}`, { path: out.error.path });
    }
    return { ...outcomeOrThrow(out), undid: plan.undoOf };
  }
  throw new WeftError('UNDO_CONFLICT', 'The draft kept changing; try the undo again.');
}

