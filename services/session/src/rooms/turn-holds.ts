// Held across the submissions of one turn (RFC "Held steps"): an op that writes into a section not
// on the page yet (`missing_section`) waits for a later submission of the same turn to add it, is
// tried again in front of each one and lands in the step that brings its section. What is still
// waiting when the turn finishes is refused then, with its last reason. Pure bookkeeping for the
// decider: no I/O, bounded per turn.
import type { Op, Refusal, StepResult } from '@weft/core';

/** One op waiting: where it came from (its submission's opId and index) and why it waits. */
export interface HeldOp {
  opId: string;
  actor: string;
  index: number;
  op: Op;
  reason: Refusal;
}

/** Ops one turn may keep waiting at once; past that a missing section is refused at once. */
export const MAX_HELD_PER_TURN = 64;

export class TurnHolds {
  private readonly turns = new Map<string, HeldOp[]>();

  pending(turnId: string): readonly HeldOp[] {
    return this.turns.get(turnId) ?? [];
  }

  /** Puts a turn's waiting list back as it was (a decision that did not commit). */
  restore(turnId: string, list: readonly HeldOp[]): void {
    if (list.length === 0) this.turns.delete(turnId);
    else this.turns.set(turnId, [...list]);
  }

  /** Everything the turn left waiting, taken out (to report as refused). */
  expire(turnId: string): HeldOp[] {
    const list = this.turns.get(turnId) ?? [];
    this.turns.delete(turnId);
    return list;
  }

  /**
   * Splits a step judged with the turn's waiting ops in front (`carried`, the first
   * `carried.length` ops) into what the submitter is told — its own refusals and notes, indexed
   * into its own ops, and what of it now waits (`held`) — and stores the turn's new waiting list.
   */
  settle(turnId: string, opId: string, actor: string, carried: readonly HeldOp[], submitted: readonly unknown[], res: StepResult): { refused: Refusal[]; notes: StepResult['notes']; held: Refusal[] } {
    const k = carried.length;
    // The common case (nothing waiting, nothing to hold): the step's own lists, untouched.
    if (k === 0 && !res.refused.some((r) => r.rule === 'missing_section')) return { refused: res.refused, notes: res.notes, held: [] };
    const still = new Map<number, Refusal>();
    const refused: Refusal[] = [];
    const held: Refusal[] = [];
    const waiting: HeldOp[] = [];
    const known = new Set(carried.map((c) => `${c.opId}#${c.index}`));
    for (const r of res.refused) {
      if (r.index < k) { still.set(r.index, r); continue; }
      const own = { ...r, index: r.index - k };
      const key = `${opId}#${own.index}`;
      if (r.rule === 'missing_section' && (known.has(key) || k + waiting.length < MAX_HELD_PER_TURN)) {
        held.push(own);
        if (!known.has(key)) waiting.push({ opId, actor, index: own.index, op: submitted[own.index] as Op, reason: own });
      } else refused.push(own);
    }
    // A carried op refused again keeps waiting (with its newest reason); one not refused landed.
    const kept = carried.flatMap((c, i) => (still.has(i) ? [{ ...c, reason: { ...still.get(i)!, index: c.index } }] : []));
    this.restore(turnId, [...kept, ...waiting]);
    const notes = res.notes.filter((n) => n.index >= k).map((n) => ({ ...n, index: n.index - k }));
    return { refused, notes, held };
  }
}
