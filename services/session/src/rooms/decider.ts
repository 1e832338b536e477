import { Limits, applyOp, applyOpsUnchecked, applyStep, refusalOf, validateDraft } from '@weft/core';
import type { Draft, Op, Refusal, StepResult as CoreStepResult } from '@weft/core';
import { TokenBucket } from './rate-limit.ts';
import type { CommittedStep, RoomError, StepResult, SubmitRequest } from './types.ts';
import { TurnHolds } from './turn-holds.ts';
import type { HeldOp } from './turn-holds.ts';

/** Ops of one atomic step that may wait at once for a later op of it (the pipeline's work grows with it). */
const ATOMIC_MAX_HELD = 32;

/**
 * What the decider made of a request, before anything is committed:
 * - `refused`: nothing applied (stale base version, budget, an atomic step with a refusal);
 * - `unchanged`: judged, but no op applied (every op refused or a no-op) — no version is written;
 * - `applied`: the step is applied to the mirror as version `step.version` and must be committed.
 */
export type Decision =
  | { kind: 'refused'; error: RoomError }
  | { kind: 'unchanged'; result: StepResult }
  | { kind: 'applied'; step: CommittedStep; result: StepResult };

export interface DeciderOptions {
  now: () => number;
  opsPerTurn: number;
  opsPerSecond: number;
}

/**
 * The room's synchronous core: the JSON mirror (mutated in place), the mirror's version, turn op
 * counts and rate buckets. `decide` does no I/O and never awaits, so steps are totally ordered by
 * the order of calls; the commit loop makes them durable. A decision that turns out not to commit
 * is undone with `retract` (newest first).
 */
export class Decider {
  readonly draft: Draft;
  /** Version of the mirror, including steps not yet committed. */
  version: number;
  private readonly turnOps = new Map<string, number>();
  /**
   * An agent's ops on this draft since it last finished a turn, whatever turnIds it sends (or
   * none): the turn budget is the actor's, so leaving out or changing the turnId buys nothing.
   */
  private readonly agentOps = new Map<string, number>();
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly o: DeciderOptions;
  /** Ops of a turn waiting for their section to come in a later submission of the turn. */
  private readonly holds = new TurnHolds();
  /** A step's turn waiting list as it was before it (put back if the step does not commit). */
  private readonly holdsBefore = new WeakMap<CommittedStep, readonly HeldOp[]>();

  constructor(draft: Draft, version: number, o: DeciderOptions) {
    this.draft = draft;
    this.version = version;
    this.o = o;
  }

  /** Turn op counts not yet known to this room come from the log first (`loadTurn`). */
  knowsTurn(turnId: string): boolean {
    return this.turnOps.has(turnId);
  }

  loadTurn(turnId: string, used: number): void {
    if (!this.turnOps.has(turnId)) this.turnOps.set(turnId, used);
  }

  decide(draftId: string, req: SubmitRequest): Decision {
    if (req.baseVersion !== undefined && req.baseVersion !== this.version) {
      return refuse({ code: 'VERSION_CONFLICT', message: `baseVersion ${req.baseVersion} is not the current version ${this.version}; re-read the draft and rebase.`, currentVersion: this.version });
    }
    const budget = this.checkBudgets(req);
    if (budget) return refuse(budget);

    const reversal = req.kind === 'undo' || req.kind === 'redo';
    // An atomic step (a Yjs transaction) is judged as a whole: its ops may all wait for its last one
    // (a subtree added or deleted in one transaction), within a bound on the pipeline's work.
    const held = req.atomic ? { maxHeld: Math.min(Math.max(req.ops.length, Limits.maxHeld), ATOMIC_MAX_HELD) } : {};
    // A turn's ops still waiting for their section go in front: applyStep holds them until an op
    // of this submission adds it, and applies them right after.
    const turn = !req.atomic && !reversal && req.turnId ? req.turnId : null;
    const carried = turn ? this.holds.pending(turn) : [];
    const ops = carried.length > 0 ? [...carried.map((c) => c.op), ...req.ops] : req.ops;
    const res = reversal ? applyReversal(this.draft, req.ops as Op[])
      : applyStep(this.draft, ops, carried.length > 0 ? { maxHeld: Math.min(Limits.maxHeld + carried.length, ATOMIC_MAX_HELD) } : held);
    if ((req.atomic || reversal) && res.refused.length > 0) {
      applyOpsUnchecked(this.draft, res.inverse);
      const first = res.refused[0]!;
      return refuse({ code: 'VALIDATION_FAILED', message: first.message, path: first.path, rule: first.rule, kind: first.kind, refused: res.refused });
    }
    const before = turn ? [...carried] : [];
    const own = turn ? this.holds.settle(turn, req.opId, req.actor.id, carried, req.ops, res) : { refused: res.refused, notes: res.notes, held: [] };
    const told = (version: number, applied: Op[]): StepResult => ({ version, applied, repairs: own.notes, refused: own.refused, ...(own.held.length > 0 ? { held: own.held } : {}) });
    if (res.applied.length === 0) return { kind: 'unchanged', result: told(this.version, []) };
    if (req.turnId) this.turnOps.set(req.turnId, (this.turnOps.get(req.turnId) ?? 0) + res.applied.length);
    if (req.actor.kind === 'agent') this.agentOps.set(req.actor.id, (this.agentOps.get(req.actor.id) ?? 0) + res.applied.length);
    this.version += 1;
    const step: CommittedStep = {
      draftId,
      version: this.version,
      opId: req.opId,
      actor: req.actor.id,
      actorKind: req.actor.kind,
      sessionId: req.sessionId ?? null,
      turnId: req.turnId ?? null,
      ops: res.applied,
      inverse: res.inverse,
      notes: own.notes,
      refused: own.refused,
      kind: req.kind ?? 'do',
      undoOf: req.undoOf ?? [],
      yUpdate: req.yUpdate ?? null,
      createdAt: this.o.now(),
      ...(res.applied.some((op) => op.path === '/title') ? { title: this.draft.title } : {}),
    };
    if (turn && (before.length > 0 || own.held.length > 0)) this.holdsBefore.set(step, before);
    return { kind: 'applied', step, result: told(step.version, res.applied) };
  }

  /** What a finished turn left waiting for a section that never came: refused now, by submission. */
  expireHeld(turnId: string): { opId: string; actor: string; refused: Refusal[] }[] {
    const bySubmission = new Map<string, { opId: string; actor: string; refused: Refusal[] }>();
    for (const h of this.holds.expire(turnId)) {
      const s = bySubmission.get(h.opId) ?? { opId: h.opId, actor: h.actor, refused: [] };
      s.refused.push({ ...h.reason, message: `${h.reason.message} (held until turn ${turnId} finished; its section never came)` });
      bySubmission.set(h.opId, s);
    }
    return [...bySubmission.values()];
  }

  /** Takes the newest applied step back out of the mirror (its Yjs mirror failed). */
  retract(step: CommittedStep): void {
    applyOpsUnchecked(this.draft, step.inverse);
    const before = this.holdsBefore.get(step);
    if (before && step.turnId) this.holds.restore(step.turnId, before);
    this.version -= 1;
    if (step.turnId) this.turnOps.set(step.turnId, (this.turnOps.get(step.turnId) ?? 0) - step.ops.length);
    if (step.actorKind === 'agent') this.agentOps.set(step.actor, (this.agentOps.get(step.actor) ?? 0) - step.ops.length);
  }

  knowsAgent(actor: string): boolean {
    return this.agentOps.has(actor);
  }

  loadAgent(actor: string, used: number): void {
    if (!this.agentOps.has(actor)) this.agentOps.set(actor, used);
  }

  /** The agent finished a turn: its next ops start a new budget. */
  turnFinished(actor: string): void {
    this.agentOps.set(actor, 0);
  }

  private checkBudgets(req: SubmitRequest): RoomError | null {
    const count = req.ops.length;
    if (req.turnId) {
      const used = this.turnOps.get(req.turnId) ?? 0;
      if (used + count > this.o.opsPerTurn) {
        return { code: 'BUDGET_EXCEEDED', message: `Turn ${req.turnId} has used ${used} of its ${this.o.opsPerTurn} ops; this step needs ${count}. Finish the turn and start a new one.`, used, limit: this.o.opsPerTurn };
      }
    }
    if (req.actor.kind === 'agent' && req.kind !== 'undo' && req.kind !== 'redo') {
      const used = this.agentOps.get(req.actor.id) ?? 0;
      if (used + count > this.o.opsPerTurn) {
        return { code: 'BUDGET_EXCEEDED', message: `${req.actor.id} has written ${used} of its ${this.o.opsPerTurn} ops on this draft since it last finished a turn (every turnId, or none, counts); this step needs ${count}. Finish the turn (POST /v1/drafts/:id/turns/:turnId/finish) and start a new one.`, used, limit: this.o.opsPerTurn };
      }
    }
    if (req.actor.kind !== 'admin' && req.kind !== 'undo' && req.kind !== 'redo') {
      // Per actor (the room is per draft): opening more sessions does not buy more ops per second.
      const key = req.actor.id;
      let bucket = this.buckets.get(key);
      if (!bucket) {
        bucket = new TokenBucket(this.o.opsPerSecond, this.o.now());
        this.buckets.set(key, bucket);
      }
      const wait = bucket.take(count, this.o.now());
      if (wait > 0) {
        return { code: 'RATE_LIMITED', message: `More than ${this.o.opsPerSecond} ops per second from ${req.actor.id} on this draft; retry after ${wait} ms with the same opId.`, retryAfterMs: wait };
      }
    }
    return null;
  }
}

function refuse(error: RoomError): Decision {
  return { kind: 'refused', error };
}

/**
 * Undo and redo apply stored inverses as one unit: op by op they may pass through states the
 * pipeline would hold or refuse (a section leaves `order` before it leaves `sections`), so the
 * whole list is applied, then the draft is validated, and any failure takes it all back.
 */
function applyReversal(draft: Draft, ops: Op[]): CoreStepResult {
  const undo: Op[][] = [];
  const back = (): void => {
    for (let i = undo.length - 1; i >= 0; i--) applyOpsUnchecked(draft, undo[i]!);
  };
  for (let i = 0; i < ops.length; i++) {
    const r = applyOp(draft, ops[i]!);
    if (!r.ok) {
      back();
      return { applied: [], inverse: [], notes: [], refused: [refusalOf(r.error.rule, ops[i]!.path, r.error.message, i)] };
    }
    undo.push(r.value);
  }
  const check = validateDraft(draft);
  if (check.refusals.length > 0) {
    back();
    return { applied: [], inverse: [], notes: [], refused: check.refusals };
  }
  const inverse: Op[] = [];
  for (let i = undo.length - 1; i >= 0; i--) inverse.push(...undo[i]!);
  return { applied: ops, inverse, notes: [], refused: [] };
}
