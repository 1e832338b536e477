import { applyOpsUnchecked } from '@weft/core';
import type { Draft, Refusal } from '@weft/core';
import type { Fence, RoomLog, StoredStep } from '@weft/store';
import { CommitLoop } from './commit-loop.ts';
import type { Pending } from './commit-loop.ts';
import { Decider } from './decider.ts';
import type { Decision } from './decider.ts';
import type { CommittedStep, RoomError, StepResult, SubmitOutcome, SubmitRequest } from './types.ts';

/**
 * The Yjs mirror of a room (the collaboration door): kept in lockstep with the JSON mirror inside
 * the synchronous pipeline, so both always hold the same draft. `applied` returns the step's Yjs
 * update (stored on its log row); `committed` publishes to live peers after COMMIT. A room whose
 * steps fail is dropped with its lineage doc, never patched back.
 */
export interface RoomMirror {
  applied(step: { ops: CommittedStep['ops']; notes: CommittedStep['notes'] }, fromPeer: Uint8Array | null): Uint8Array | null;
  /** Takes an uncommitted server-made step back out (its bytes never reached the log or a peer). */
  retracted(step: CommittedStep): void;
  committed(steps: CommittedStep[]): void;
}

export interface RoomOptions {
  log: RoomLog;
  now: () => number;
  opsPerTurn: number;
  opsPerSecond: number;
  maxBatch: number;
  /** Called once per committed batch, in version order, after COMMIT returned. */
  onCommitted: (steps: CommittedStep[]) => void;
  /** The room's mirror may differ from the log (unknown commit outcome): drop it. */
  onBroken?: (room: Room) => void;
  /** Runs a request again on the draft's current room (after this one was dropped). */
  resubmit?: (draftId: string, req: SubmitRequest) => Promise<SubmitOutcome>;
  /** The lease the room commits under (several nodes); absent = a single node, nothing to fence. */
  fence?: (draftId: string) => Fence | null;
  /** A step whose every op was refused (nothing to commit). */
  onRefused?: (draftId: string, r: { version: number; opId: string; actor: string; actorKind: string; turnId: string | null; refused: CommittedStep['refused'] }) => void;
}

/** A synchronous decision, and the commit it waits for when it applied something. */
export interface Stepped {
  decision: Decision;
  /** Non-null only for `applied`: resolves once the step is committed (or the room broke). */
  committed: Promise<SubmitOutcome> | null;
}

/**
 * One draft's room: a synchronous decider (the mirror, budgets, turn counts) and a commit loop
 * (group commit to the log). Steps are ordered by the order `step` is called, without a mutex;
 * an op is acknowledged only after its batch commits. If the log's answer is lost or contradicts
 * the mirror, the room breaks: every uncommitted step is answered, and the manager replaces the
 * room with one loaded from the log — a mirror is never patched back.
 */
export class Room {
  readonly draftId: string;
  epoch: number;
  lastActivity: number;
  /** Set by the collaboration door when the draft's Yjs lineage doc is loaded. */
  mirror: RoomMirror | null = null;
  private readonly decider: Decider;
  private readonly loop: CommitLoop;
  private readonly o: RoomOptions;
  /** Steps not yet committed, by opId (a retry joins the original). */
  private readonly byOpId = new Map<string, Pending>();
  /**
   * The last RECENT_OPIDS committed opIds → a 30-bit fingerprint of the body hash: a retry of one
   * is answered from the log without a reload. A fingerprint that differs is a conflict at once;
   * one that matches is only a hint — the stored step's full hash decides (`replayStored`). Kept
   * small (an inline integer, not the 43-char hash: ~9 KB less per busy draft), so an open draft's
   * memory does not grow with its history; older retries are caught by the append (onDuplicates).
   */
  private readonly recent = new Map<string, number>();

  constructor(draftId: string, draft: Draft, version: number, epoch: number, o: RoomOptions) {
    this.draftId = draftId;
    this.epoch = epoch;
    this.o = o;
    this.lastActivity = o.now();
    this.decider = new Decider(draft, version, o);
    this.loop = new CommitLoop(version, {
      draftId,
      log: o.log,
      maxBatch: o.maxBatch,
      // A room whose lease is gone appends under a fence that matches nothing: it can never write.
      ...(o.fence ? { fence: () => o.fence!(draftId) ?? { node: '', epoch: -1 } } : {}),
      onCommitted: (batch) => this.committedBatch(batch),
      onBroken: () => {
        this.byOpId.clear(); // every uncommitted step has been (or is being) answered
        o.onBroken?.(this);
      },
      onDuplicates: (all, opIds) => void this.answerDuplicates(all, opIds),
    });
  }

  /** The mirror, including steps still in flight. Mutated in place by the pipeline only. */
  get draft(): Draft { return this.decider.draft; }
  /** Version of the mirror, including steps still in flight. */
  get version(): number { return this.decider.version; }
  /** Highest version known committed. */
  get committedVersion(): number { return this.loop.committedVersion; }
  get idle(): boolean { return this.loop.idle; }
  get broken(): boolean { return this.loop.state.kind === 'broken'; }
  get state(): CommitLoop['state'] { return this.loop.state; }

  /**
   * Runs one step and resolves once it is committed (or refused). Idempotency first: a retry of
   * a step in flight (or recently committed) is answered from memory; an older opId is caught by
   * UNIQUE(draft_id, op_id) at append, which writes nothing and names it.
   */
  async submit(req: SubmitRequest): Promise<SubmitOutcome> {
    this.lastActivity = this.o.now();
    const known = this.known(req);
    if (known) return known;
    const turnUnknown = req.turnId ? !this.decider.knowsTurn(req.turnId) : false;
    const agentUnknown = req.actor.kind === 'agent' && !this.decider.knowsAgent(req.actor.id);
    if (turnUnknown || agentUnknown) {
      // Budgets survive a reload: counted from the log the first time this room sees them.
      const [turnUsed, agentUsed] = await Promise.all([
        turnUnknown ? this.o.log.turnOpCount(this.draftId, req.turnId!) : null,
        agentUnknown ? this.o.log.actorOpsSinceTurn(this.draftId, req.actor.id) : null,
      ]);
      if (turnUsed !== null) this.decider.loadTurn(req.turnId!, turnUsed);
      if (agentUsed !== null) this.decider.loadAgent(req.actor.id, agentUsed);
      const again = this.known(req);
      if (again) return again;
    }
    const { decision, committed } = this.step(req);
    return committed ?? answer(decision);
  }

  /**
   * The synchronous pipeline: decide, mirror into Yjs, queue for commit — all in the caller's
   * tick. The Yjs door uses it directly: a refusal is known before any other socket's update can
   * touch the guard, so its revert always undoes the right update.
   */
  step(req: SubmitRequest): Stepped {
    this.lastActivity = this.o.now();
    if (this.loop.state.kind === 'broken') {
      return { decision: { kind: 'refused', error: { code: 'UNAVAILABLE', message: 'The draft is reloading from the log; retry with the same opId.' } }, committed: null };
    }
    const decision = this.decider.decide(this.draftId, req);
    if (decision.kind === 'unchanged' && decision.result.refused.length > 0) {
      this.o.onRefused?.(this.draftId, { version: this.version, opId: req.opId, actor: req.actor.id, actorKind: req.actor.kind, turnId: req.turnId ?? null, refused: decision.result.refused });
    }
    if (decision.kind !== 'applied') return { decision, committed: null };
    const { step, result } = decision;
    if (this.mirror) {
      try {
        step.yUpdate = this.mirror.applied(step, req.yUpdate ?? null);
      } catch (e) {
        // The two mirrors must never disagree: take the step back out of the JSON one.
        this.decider.retract(step);
        const error: RoomError = { code: 'INTERNAL', message: `The Yjs mirror could not apply this step (${(e as Error).message}); nothing was stored.` };
        return { decision: { kind: 'refused', error }, committed: null };
      }
    }
    let resolve!: (o: SubmitOutcome) => void;
    const done = new Promise<SubmitOutcome>((r) => { resolve = r; });
    const p: Pending = { req, step, result, done, resolve };
    this.byOpId.set(req.opId, p);
    this.loop.enqueue(p);
    return { decision, committed: done };
  }

  /** The room is done (its draft was deleted): every uncommitted step is answered with `error`. */
  retire(error: RoomError): void {
    if (this.loop.state.kind !== 'broken') this.loop.break([], error);
  }

  /** An agent finished a turn: its turn budget starts again. */
  turnFinished(actor: string): void {
    this.decider.turnFinished(actor);
  }

  /** Ops the turn left waiting for a section that never came, by submission (refused now). */
  expireHeld(turnId: string): { opId: string; actor: string; refused: Refusal[] }[] {
    return this.decider.expireHeld(turnId);
  }

  /** Later commits wait for `durable` (a new Yjs epoch being written). */
  commitAfter(durable: Promise<void>): void {
    this.loop.awaitEpoch(durable.then(() => undefined));
  }

  whenCommitted(version: number): Promise<boolean> {
    return this.loop.whenCommitted(version);
  }

  drain(): Promise<void> {
    return this.loop.drain();
  }

  /** The draft as committed: in-flight steps taken back out of a copy, newest first. */
  committedView(): { draft: Draft; version: number } {
    const uncommitted = this.loop.uncommitted();
    if (uncommitted.length === 0) return { draft: structuredClone(this.decider.draft), version: this.committedVersion };
    const draft = structuredClone(this.decider.draft);
    for (let i = uncommitted.length - 1; i >= 0; i--) applyOpsUnchecked(draft, uncommitted[i]!.step.inverse);
    return { draft, version: this.committedVersion };
  }

  /**
   * The committed draft as JSON text. With nothing in flight (the usual case) the mirror is
   * serialized as it is — no clone per GET; with steps in flight, from the committed view.
   * Not cached: a kept copy would cost every open draft its size in memory.
   */
  committedJson(): string {
    return this.loop.uncommitted().length === 0 ? JSON.stringify(this.decider.draft) : JSON.stringify(this.committedView().draft);
  }

  private known(req: SubmitRequest): Promise<SubmitOutcome> | null {
    const p = this.byOpId.get(req.opId);
    if (p) return p.req.bodyHash === req.bodyHash ? p.done.then(asReplayed) : Promise.resolve(fail(idempotencyConflict(req.opId)));
    const hash = this.recent.get(req.opId);
    if (hash === undefined) return null;
    if (hash !== fingerprint(req.bodyHash)) return Promise.resolve(fail(idempotencyConflict(req.opId)));
    return this.replayCommitted(req);
  }

  private async replayCommitted(req: SubmitRequest): Promise<SubmitOutcome> {
    try {
      const known = (await this.o.log.findByOpIds(this.draftId, [req.opId])).get(req.opId);
      if (known) return replayStored(known, req);
    } catch (e) {
      return fail({ code: 'UNAVAILABLE', message: `The event log is unavailable (${(e as Error).message}); retry with the same opId.` });
    }
    return fail({ code: 'INTERNAL', message: `opId "${req.opId}" was committed but is not in the log.` });
  }

  private committedBatch(batch: Pending[]): void {
    for (const p of batch) {
      p.resolve({ ok: true, value: p.result });
      this.byOpId.delete(p.step.opId);
      this.recent.set(p.step.opId, fingerprint(p.req.bodyHash));
    }
    for (const id of this.recent.keys()) {
      if (this.recent.size <= RECENT_OPIDS) break;
      this.recent.delete(id);
    }
    const steps = batch.map((p) => p.step);
    this.mirror?.committed(steps);
    this.o.onCommitted(steps);
  }

  /**
   * Some opIds of the batch were committed before (retries, or reuses with another body): nothing
   * was written. When every uncommitted step is the server's own (HTTP, MCP, stateless submits),
   * they are taken back out of both mirrors, newest first — no peer or log ever saw them — the old
   * opIds are answered from the log and the others decided again, in order, on this same room. A
   * step from a Yjs peer cannot be taken back from its sender that way: then the room is dropped
   * (its lineage too) and the others run again on a room freshly loaded from the log.
   */
  private async answerDuplicates(all: Pending[], opIds: string[]): Promise<void> {
    const old = new Set(opIds);
    for (const p of all) this.byOpId.delete(p.step.opId);
    if (all.every((p) => !p.req.yUpdate)) {
      for (let i = all.length - 1; i >= 0; i--) {
        this.mirror?.retracted(all[i]!.step);
        this.decider.retract(all[i]!.step);
      }
      const rerun = all.filter((p) => !old.has(p.req.opId)).map((p) => ({ p, out: this.submit(p.req) }));
      await this.answerFromLog(all.filter((p) => old.has(p.req.opId)), opIds);
      for (const r of rerun) r.p.resolve(await r.out);
      return;
    }
    this.loop.markBroken({ code: 'UNAVAILABLE', message: 'The draft is reloading from the log; retry with the same opId.' });
    await this.answerFromLog(all, opIds);
  }

  /** Old opIds get their stored result (or IDEMPOTENCY_CONFLICT); others run on the draft's current room. */
  private async answerFromLog(all: Pending[], opIds: string[]): Promise<void> {
    if (all.length === 0) return;
    let stored: Map<string, StoredStep>;
    try {
      stored = await this.o.log.findByOpIds(this.draftId, opIds);
    } catch (e) {
      for (const p of all) p.resolve(fail({ code: 'UNAVAILABLE', message: `The event log is unavailable (${(e as Error).message}); retry with the same opId.` }));
      return;
    }
    for (const p of all) {
      const known = stored.get(p.req.opId);
      if (known) p.resolve(replayStored(known, p.req));
      else if (this.o.resubmit) p.resolve(await this.o.resubmit(this.draftId, p.req));
      else p.resolve(fail({ code: 'UNAVAILABLE', message: 'The draft is reloading from the log; retry with the same opId.' }));
    }
  }
}

/** The outcome a non-committing decision answers with. */
export function answer(d: Decision): SubmitOutcome {
  switch (d.kind) {
    case 'refused': return fail(d.error);
    case 'unchanged':
    case 'applied': return { ok: true, value: d.result };
    default: {
      const never: never = d;
      throw new Error(`unexpected decision ${JSON.stringify(never)}`);
    }
  }
}

function replayStored(known: StoredStep, req: SubmitRequest): SubmitOutcome {
  if (known.bodyHash !== req.bodyHash) return fail(idempotencyConflict(req.opId));
  return { ok: true, value: { version: known.version, applied: known.ops, repairs: known.notes, refused: known.refused, replayed: true } };
}

function asReplayed(o: SubmitOutcome): SubmitOutcome {
  return o.ok ? { ok: true, value: { ...o.value, replayed: true } satisfies StepResult } : o;
}

const RECENT_OPIDS = 256;

/** FNV-1a of a body hash, 30 bits: a small integer V8 keeps inline in the map. */
export function fingerprint(bodyHash: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bodyHash.length; i++) h = Math.imul(h ^ bodyHash.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

function fail(error: RoomError): { ok: false; error: RoomError } {
  return { ok: false, error };
}

function idempotencyConflict(opId: string): RoomError {
  return { code: 'IDEMPOTENCY_CONFLICT', message: `opId "${opId}" was already used with a different body; use a new opId for a new change.`, opId };
}
