import { Limits, applyOp, applyOpsUnchecked, applyStep, validateDraft } from '@weft/core';
import type { Draft, Op, StepResult as CoreStepResult } from '@weft/core';
import type { EventStore, NewStep, StoredStep } from '@weft/store';
import { TokenBucket } from './rate-limit.ts';
import type { CommittedStep, RoomError, StepResult, SubmitOutcome, SubmitRequest } from './types.ts';

/** Ops of one atomic step that may wait at once for a later op of it (the pipeline's work grows with it). */
const ATOMIC_MAX_HELD = 32;

/**
 * The Yjs mirror of a room (the collaboration door): kept in lockstep with the JSON mirror inside
 * the synchronous pipeline, so both always hold the same draft. `applied` returns the step's Yjs
 * update (stored on its log row); `committed` publishes to live peers after COMMIT. A room whose
 * steps fail is dropped with its lineage doc, never patched back.
 */
export interface RoomMirror {
  applied(step: { ops: CommittedStep['ops']; notes: CommittedStep['notes'] }, fromPeer: Uint8Array | null): Uint8Array | null;
  committed(steps: CommittedStep[]): void;
}

export interface RoomOptions {
  store: EventStore;
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
  /** A step whose every op was refused (nothing to commit). */
  onRefused?: (draftId: string, r: { version: number; opId: string; actor: string; turnId: string | null; refused: CommittedStep['refused'] }) => void;
}

interface Pending {
  req: SubmitRequest;
  step: CommittedStep;
  bodyHash: string;
  result: StepResult;
  done: Promise<SubmitOutcome>;
  resolve: (o: SubmitOutcome) => void;
}

/**
 * One draft's room: the materialized draft and the serialized pipeline.
 *
 * The pipeline section (checks → applyStep on the in-memory mirror) is synchronous, so steps
 * are ordered without a mutex. Validated steps queue for group commit: while one batch is in
 * COMMIT, the next steps validate against the mirror (which already includes the in-flight
 * ones) and wait for the following batch. An op is acknowledged only after its batch commits;
 * if a batch fails, every uncommitted step is rolled back from the mirror by its inverse, in
 * reverse order, and refused with the error: nothing unacknowledged is ever served as truth.
 */
export class Room {
  readonly draftId: string;
  readonly draft: Draft;
  /** Version of the mirror, including steps still in flight. */
  version: number;
  /** Highest version known committed. */
  committedVersion: number;
  epoch: number;
  lastActivity: number;
  private readonly opts: RoomOptions;
  private readonly pending: Pending[] = [];
  private inflight: Pending[] | null = null;
  /** Steps not yet committed, by opId (a retry joins the original). */
  private readonly byOpId = new Map<string, Pending>();
  /**
   * The last RECENT_OPIDS committed opIds → body hash: a retry of one is answered from the log
   * without a reload. Only the hash is kept, so an open draft's memory does not grow with its
   * history; older retries are caught by the append (resolveDuplicates).
   */
  private readonly recent = new Map<string, string>();
  private readonly turnOps = new Map<string, number>();
  private readonly buckets = new Map<string, TokenBucket>();
  private flushScheduled = false;
  private barrier: Promise<void> | null = null;
  /** Set by the collaboration door when the draft's Yjs lineage doc is loaded. */
  mirror: RoomMirror | null = null;
  /** Set when a commit's outcome is unknown; the room answers UNAVAILABLE until it is replaced. */
  broken = false;
  private readonly commitWaiters: { version: number; resolve: (ok: boolean) => void }[] = [];

  constructor(draftId: string, draft: Draft, version: number, epoch: number, opts: RoomOptions) {
    this.draftId = draftId;
    this.draft = draft;
    this.version = version;
    this.committedVersion = version;
    this.epoch = epoch;
    this.opts = opts;
    this.lastActivity = opts.now();
  }

  get idle(): boolean {
    return this.pending.length === 0 && this.inflight === null;
  }

  /** Runs one step through the pipeline and resolves once it is committed (or refused). */
  async submit(req: SubmitRequest): Promise<SubmitOutcome> {
    this.lastActivity = this.opts.now();
    // Idempotency: a retry still in flight (or recent) is answered from memory; an older one is
    // caught by UNIQUE(draft_id, op_id) at append, which writes nothing and names it (resolveDuplicates).
    const known = this.byOpId.get(req.opId);
    if (known) return this.replayPending(known, req);
    if (this.recent.has(req.opId)) return this.replayCommitted(req);
    if (req.turnId) await this.loadTurnCount(req.turnId);
    const again = this.byOpId.get(req.opId);
    if (again) return this.replayPending(again, req);
    if (this.recent.has(req.opId)) return this.replayCommitted(req);
    return this.step(req);
  }

  /**
   * The synchronous pipeline: checks, applyStep on the mirror, queue for commit — all in the
   * caller's tick, so nothing interleaves. For doors that mint fresh opIds (no durable lookup).
   * A step refused before the queue is answered synchronously, so the Yjs guard reverts its shadow
   * before any other message touches it (an awaited answer lets another socket's update in
   * between). Otherwise the answer comes once the step is committed.
   */
  step(req: SubmitRequest): SubmitOutcome | Promise<SubmitOutcome> {
    this.lastActivity = this.opts.now();
    if (this.broken) return fail({ code: 'UNAVAILABLE', message: 'The draft is reloading from the log; retry with the same opId.' });
    if (req.baseVersion !== undefined && req.baseVersion !== this.version) {
      return fail({ code: 'VERSION_CONFLICT', message: `baseVersion ${req.baseVersion} is not the current version ${this.version}; re-read the draft and rebase.`, currentVersion: this.version });
    }
    const budget = this.checkBudgets(req);
    if (budget) return fail(budget);

    // An atomic step (a Yjs transaction) is judged as a whole: its ops may all wait for its last one
    // (a subtree added or deleted in one transaction), within a bound on the pipeline's work.
    const held = req.atomic ? { maxHeld: Math.min(Math.max(req.ops.length, Limits.maxHeld), ATOMIC_MAX_HELD) } : {};
    const res = req.kind === 'undo' || req.kind === 'redo' ? applyReversal(this.draft, req.ops as Op[]) : applyStep(this.draft, req.ops, held);
    if (req.atomic && res.refused.length > 0) {
      applyOpsUnchecked(this.draft, res.inverse);
      const first = res.refused[0]!;
      return fail({ code: 'VALIDATION_FAILED', message: first.message, path: first.path, rule: first.rule, refused: res.refused });
    }
    if (res.applied.length === 0) {
      if (res.refused.length > 0) this.opts.onRefused?.(this.draftId, { version: this.version, opId: req.opId, actor: req.actor.id, turnId: req.turnId ?? null, refused: res.refused });
      return { ok: true, value: { version: this.version, applied: [], repairs: res.notes, refused: res.refused } };
    }
    if (req.turnId) this.turnOps.set(req.turnId, (this.turnOps.get(req.turnId) ?? 0) + res.applied.length);
    this.version += 1;
    const step: CommittedStep = {
      draftId: this.draftId,
      version: this.version,
      opId: req.opId,
      actor: req.actor,
      sessionId: req.sessionId ?? null,
      turnId: req.turnId ?? null,
      ops: res.applied,
      inverse: res.inverse,
      notes: res.notes,
      refused: res.refused,
      kind: req.kind ?? 'do',
      undoOf: req.undoOf ?? [],
      yUpdate: req.yUpdate ?? null,
      createdAt: this.opts.now(),
    };
    if (this.mirror) {
      try {
        step.yUpdate = this.mirror.applied(step, req.yUpdate ?? null);
      } catch (e) {
        // The two mirrors must never disagree: take the step back out of the JSON one.
        applyOpsUnchecked(this.draft, res.inverse);
        this.version -= 1;
        if (req.turnId) this.turnOps.set(req.turnId, (this.turnOps.get(req.turnId) ?? 0) - res.applied.length);
        return fail({ code: 'INTERNAL', message: `The Yjs mirror could not apply this step (${(e as Error).message}); nothing was stored.` });
      }
    }
    const result: StepResult = { version: step.version, applied: res.applied, repairs: res.notes, refused: res.refused };
    let resolve!: (o: SubmitOutcome) => void;
    const done = new Promise<SubmitOutcome>((r) => { resolve = r; });
    const p: Pending = { req, step, bodyHash: req.bodyHash, result, done, resolve };
    this.pending.push(p);
    this.byOpId.set(req.opId, p);
    this.scheduleFlush();
    return done;
  }

  private static replayStored(known: StoredStep, req: SubmitRequest): SubmitOutcome {
    if (known.bodyHash !== req.bodyHash) return fail(idempotencyConflict(req.opId));
    return { ok: true, value: { version: known.version, applied: known.ops, repairs: known.notes, refused: known.refused, replayed: true } };
  }

  private async replayCommitted(req: SubmitRequest): Promise<SubmitOutcome> {
    if (this.recent.get(req.opId) !== req.bodyHash) return fail(idempotencyConflict(req.opId));
    try {
      const known = (await this.opts.store.findByOpIds(this.draftId, [req.opId])).get(req.opId);
      if (known) return Room.replayStored(known, req);
    } catch (e) {
      return fail({ code: 'UNAVAILABLE', message: `The event log is unavailable (${(e as Error).message}); retry with the same opId.` });
    }
    return fail({ code: 'INTERNAL', message: `opId "${req.opId}" was committed but is not in the log.` });
  }

  private async replayPending(p: Pending, req: SubmitRequest): Promise<SubmitOutcome> {
    if (p.bodyHash !== req.bodyHash) return fail(idempotencyConflict(req.opId));
    const o = await p.done;
    return o.ok ? { ok: true, value: { ...o.value, replayed: true } } : o;
  }

  private checkBudgets(req: SubmitRequest): RoomError | null {
    const count = req.ops.length;
    if (req.turnId) {
      const used = this.turnOps.get(req.turnId) ?? 0;
      if (used + count > this.opts.opsPerTurn) {
        return { code: 'BUDGET_EXCEEDED', message: `Turn ${req.turnId} has used ${used} of its ${this.opts.opsPerTurn} ops; this step needs ${count}. Finish the turn and start a new one.`, used, limit: this.opts.opsPerTurn };
      }
    }
    if (req.actor.kind !== 'admin' && req.kind !== 'undo' && req.kind !== 'redo') {
      const key = req.sessionId ?? `actor:${req.actor.id}`;
      let bucket = this.buckets.get(key);
      if (!bucket) {
        bucket = new TokenBucket(this.opts.opsPerSecond, this.opts.now());
        this.buckets.set(key, bucket);
      }
      const wait = bucket.take(count, this.opts.now());
      if (wait > 0) {
        return { code: 'RATE_LIMITED', message: `More than ${this.opts.opsPerSecond} ops per second in this session; retry after ${wait} ms with the same opId.`, retryAfterMs: wait };
      }
    }
    return null;
  }

  private async loadTurnCount(turnId: string): Promise<void> {
    if (this.turnOps.has(turnId)) return;
    const n = await this.opts.store.turnOpCount(this.draftId, turnId);
    if (!this.turnOps.has(turnId)) this.turnOps.set(turnId, n);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.inflight) return;
    this.flushScheduled = true;
    // setImmediate lets every submit that arrived in this turn of the loop join the batch.
    setImmediate(() => {
      this.flushScheduled = false;
      void this.flush();
    });
  }

  /**
   * Later commits wait for `durable` (a new Yjs epoch being written): a step built on the new
   * lineage must not reach the log before the epoch that explains its bytes. If it fails, the room
   * breaks and reloads from the log (the old epoch).
   */
  commitAfter(durable: Promise<void>): void {
    const barrier: Promise<void> = durable.catch((e: unknown) => {
      this.breakRoom([], { code: 'UNAVAILABLE', message: `A new Yjs epoch could not be stored (${(e as Error).message}); retry with the same opId.` });
    }).finally(() => {
      if (this.barrier === barrier) this.barrier = null;
      if (this.pending.length > 0) this.scheduleFlush();
    });
    this.barrier = barrier;
  }

  private async flush(): Promise<void> {
    if (this.inflight || this.pending.length === 0 || this.barrier) return;
    const batch = this.pending.splice(0, this.opts.maxBatch);
    this.inflight = batch;
    const expected = batch[0]!.step.version - 1;
    let stored: StoredStep[] = [];
    try {
      // A commit that never answers (a connection the database dropped silently) must not wedge
      // the draft: past the bound it is an unknown outcome, like any other lost answer.
      const r = await bounded(this.opts.store.append(this.draftId, expected, batch.map((p) => toNewStep(p))), COMMIT_BOUND_MS, 'the commit');
      if (r.ok) stored = r.value;
      else if (r.error.code === 'IDEMPOTENCY_CONFLICT') {
        this.inflight = null;
        await this.resolveDuplicates(batch, r.error.opIds ?? [r.error.opId]);
        return;
      }
      else {
        // Someone else moved the log (or the draft is gone): this mirror is stale. Reload.
        this.inflight = null;
        this.breakRoom(batch, { code: 'VERSION_CONFLICT', message: 'The draft changed underneath this room; retry with the same opId.', currentVersion: r.error.code === 'VERSION_CONFLICT' ? r.error.currentVersion : this.committedVersion });
        return;
      }
    } catch (e) {
      // The outcome is unknown (the COMMIT may have landed): never guess. Answer UNAVAILABLE —
      // a retry with the same opId is safe (durable idempotency) — and reload from the log.
      this.inflight = null;
      this.breakRoom(batch, { code: 'UNAVAILABLE', message: `The event log did not confirm this step (${(e as Error).message}); retry with the same opId: it is applied at most once.` });
      return;
    }
    this.inflight = null;
    this.committedVersion = batch[batch.length - 1]!.step.version;
    stored.forEach((s, i) => { batch[i]!.step.createdAt = s.createdAt.getTime(); });
    for (const p of batch) {
      p.resolve({ ok: true, value: p.result });
      this.byOpId.delete(p.step.opId);
      this.recent.set(p.step.opId, p.bodyHash);
    }
    for (const id of this.recent.keys()) {
      if (this.recent.size <= RECENT_OPIDS) break;
      this.recent.delete(id);
    }
    try {
      this.mirror?.committed(batch.map((p) => p.step));
      this.opts.onCommitted(batch.map((p) => p.step));
      this.settleWaiters();
    } finally {
      if (this.pending.length > 0) this.scheduleFlush();
    }
  }

  /**
   * Some opIds of the batch were committed before (retries of old submissions): nothing was
   * written. The mirrors already hold these uncommitted steps, so the room is dropped (its Yjs
   * lineage too: live peers never saw those steps); duplicates get their stored result and the
   * others run again, in order, on a room freshly loaded from the log.
   */
  private async resolveDuplicates(batch: Pending[], opIds: string[]): Promise<void> {
    const all = [...batch, ...this.pending.splice(0)];
    for (const p of all) this.byOpId.delete(p.step.opId);
    this.broken = true;
    this.settleWaiters();
    this.opts.onBroken?.(this);
    let stored: Map<string, StoredStep>;
    try {
      stored = await this.opts.store.findByOpIds(this.draftId, opIds);
    } catch (e) {
      for (const p of all) p.resolve(fail({ code: 'UNAVAILABLE', message: `The event log is unavailable (${(e as Error).message}); retry with the same opId.` }));
      return;
    }
    for (const p of all) {
      const known = stored.get(p.req.opId);
      if (known) p.resolve(Room.replayStored(known, p.req));
      else if (this.opts.resubmit) p.resolve(await this.opts.resubmit(this.draftId, p.req));
      else p.resolve(fail({ code: 'UNAVAILABLE', message: 'The draft is reloading from the log; retry with the same opId.' }));
    }
  }

  /**
   * The room can no longer vouch for its mirror: every uncommitted step is answered with the
   * error, and the manager drops the room so the next request loads the draft from the log.
   */
  private breakRoom(batch: Pending[], error: RoomError): void {
    this.broken = true;
    const all = [...batch, ...this.pending.splice(0)];
    for (const p of all) {
      this.byOpId.delete(p.step.opId);
      p.resolve(fail(error));
    }
    this.settleWaiters();
    this.opts.onBroken?.(this);
  }

  /** A copy of the draft as committed: in-flight steps are taken back out, newest first. */
  committedView(): { draft: Draft; version: number } {
    const draft = structuredClone(this.draft);
    const uncommitted = [...(this.inflight ?? []), ...this.pending];
    for (let i = uncommitted.length - 1; i >= 0; i--) applyOpsUnchecked(draft, uncommitted[i]!.step.inverse);
    return { draft, version: this.committedVersion };
  }

  /** Resolves true once `version` is committed (false if the room breaks first). */
  whenCommitted(version: number): Promise<boolean> {
    if (version <= this.committedVersion) return Promise.resolve(true);
    if (this.broken) return Promise.resolve(false);
    return new Promise((resolve) => this.commitWaiters.push({ version, resolve }));
  }

  private settleWaiters(): void {
    for (let i = this.commitWaiters.length - 1; i >= 0; i--) {
      const w = this.commitWaiters[i]!;
      if (this.broken || w.version <= this.committedVersion) {
        this.commitWaiters.splice(i, 1);
        w.resolve(!this.broken);
      }
    }
  }

  /** Waits for every queued step to commit (for shutdown and tests). */
  async drain(): Promise<void> {
    while (this.inflight || this.pending.length > 0) {
      const last = this.pending[this.pending.length - 1] ?? this.inflight?.[this.inflight.length - 1];
      if (last) await last.done;
    }
  }
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
      return { applied: [], inverse: [], notes: [], refused: [{ code: 'VALIDATION_FAILED', rule: r.error.rule, path: ops[i]!.path, message: r.error.message, index: i }] };
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

function toNewStep(p: Pending): NewStep {
  const s = p.step;
  return {
    opId: s.opId,
    bodyHash: p.bodyHash,
    actor: s.actor.id,
    actorKind: s.actor.kind,
    sessionId: s.sessionId,
    turnId: s.turnId,
    ops: s.ops,
    inverse: s.inverse,
    notes: s.notes,
    refused: s.refused,
    yUpdate: s.yUpdate,
    kind: s.kind,
    undoOf: s.undoOf,
  };
}

/** How long a commit may take before its outcome is treated as unknown. */
const COMMIT_BOUND_MS = 10_000;
const RECENT_OPIDS = 256;

/** Rejects when `p` has not settled within `ms` (its late result is ignored: the room reloads). */
export function bounded<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what} did not answer within ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

function fail(error: RoomError): { ok: false; error: RoomError } {
  return { ok: false, error };
}

function idempotencyConflict(opId: string): RoomError {
  return { code: 'IDEMPOTENCY_CONFLICT', message: `opId "${opId}" was already used with a different body; use a new opId for a new change.`, opId };
}

