import type { Op } from '@weft/core';
import type { StoredStep } from '@weft/store';

/** What an undo or redo would write, or why it cannot. */
export type UndoPlan =
  | { ok: true; ops: Op[]; undoOf: number[]; kind: 'undo' | 'redo'; since: number }
  | { ok: false; code: 'NOTHING_TO_UNDO' | 'UNDO_CONFLICT'; message: string; version?: number; actor?: string; path?: string };

/**
 * Per-actor undo/redo from the log: the targets from the actor's own steps, then a check against
 * everyone else's later steps. Redo is the inverse of the undo step, which the room computed when
 * it applied the undo.
 */
export function planUndo(history: StoredStep[], actor: string, scope: 'step' | 'turn', mode: 'undo' | 'redo'): UndoPlan {
  const plan = undoTargets(history.filter((s) => s.actor === actor), scope, mode);
  return plan.ok ? findConflict(history, actor, plan.since, plan.ops) ?? plan : plan;
}

/**
 * What to reverse, from the actor's own steps alone (oldest first). Walking them in version
 * order: a `do` step is pushed on the undo stack and clears redo; an `undo` step moves its targets
 * to the redo stack; a `redo` step moves the undo it redoes back. The conflict check needs only
 * the steps after `since` (`findConflict`), so undo never reads the whole log.
 */
export function undoTargets(mine: readonly StoredStep[], scope: 'step' | 'turn', mode: 'undo' | 'redo'): UndoPlan {
  const undo: StoredStep[] = [];
  const redo: StoredStep[] = [];
  for (const s of mine) {
    if (s.kind === 'do') {
      undo.push(s);
      redo.length = 0;
    } else if (s.kind === 'undo') {
      const targets = new Set(s.undoOf);
      for (let i = undo.length - 1; i >= 0; i--) if (targets.has(undo[i]!.version)) undo.splice(i, 1);
      redo.push(s);
    } else {
      const i = redo.findIndex((r) => s.undoOf.includes(r.version));
      if (i >= 0) redo.splice(i, 1);
      undo.push(s);
    }
  }
  const stack = mode === 'undo' ? undo : redo;
  const top = stack[stack.length - 1];
  if (!top) return { ok: false, code: 'NOTHING_TO_UNDO', message: mode === 'undo' ? 'You have no change to undo on this draft.' : 'There is nothing to redo: redo follows your own undo, and a new change of yours clears it.' };
  let targets = [top];
  if (scope === 'turn' && top.turnId) {
    targets = [];
    for (let i = stack.length - 1; i >= 0 && stack[i]!.turnId === top.turnId; i--) targets.push(stack[i]!);
  }
  // Newest first: inverses apply in reverse order of the originals.
  const ops: Op[] = [];
  for (const t of targets) ops.push(...t.inverse);
  const since = Math.min(...targets.map((t) => t.version));
  return { ok: true, ops, undoOf: targets.map((t) => t.version), kind: mode, since };
}

/** A later step by someone else touching what the undo would rewrite. */
export function findConflict(history: readonly StoredStep[], actor: string, since: number, ops: Op[]): UndoPlan | null {
  const mine = ops.flatMap(opPaths);
  for (const s of history) {
    if (s.version <= since || s.actor === actor) continue;
    for (const op of s.ops) {
      for (const p of opPaths(op)) {
        const hit = mine.find((m) => overlaps(m, p));
        if (hit !== undefined) {
          return { ok: false, code: 'UNDO_CONFLICT', message: `Undo would overwrite ${s.actor}'s later change at ${p} (version ${s.version}); edit it by hand or ask them.`, version: s.version, actor: s.actor, path: p };
        }
      }
    }
  }
  return null;
}

function opPaths(op: Op): string[] {
  return 'from' in op ? [op.path, op.from] : [op.path];
}

/**
 * Two pointers overlap when one is a prefix (by whole segments) of the other. An array element
 * (`/…/children/3`, `/…/-`) counts as its whole array: indices shift under concurrent inserts,
 * so any other change to the same array is a conflict rather than a silent wrong removal.
 */
function overlaps(a: string, b: string): boolean {
  const x = arrayOf(a);
  const y = arrayOf(b);
  return x === y || x.startsWith(y + '/') || y.startsWith(x + '/');
}

function arrayOf(p: string): string {
  const i = p.lastIndexOf('/');
  const last = p.slice(i + 1);
  return last === '-' || /^\d+$/.test(last) ? p.slice(0, i) : p;
}
