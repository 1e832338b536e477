import type { AppendError, Fence, NewStep, RoomLog, StoredStep } from '@weft/store';
import type { CommittedStep, RoomError, StepResult, SubmitOutcome, SubmitRequest } from './types.ts';

/** A decided step waiting for (or in) COMMIT. */
export interface Pending {
  req: SubmitRequest;
  step: CommittedStep;
  result: StepResult;
  done: Promise<SubmitOutcome>;
  resolve: (o: SubmitOutcome) => void;
}

/**
 * The commit loop's lifecycle, one state at a time:
 * - `open`: nothing in COMMIT; queued steps are flushed on the next tick;
 * - `committing`: one batch is in COMMIT; steps arriving meanwhile form the next batch;
 * - `awaiting-epoch`: a new Yjs epoch is being stored; commits wait for it (their bytes build on it);
 * - `broken`: the log's answer was lost or contradicted the mirror; the room must be replaced.
 */
export type LoopState =
  | { kind: 'open' }
  | { kind: 'committing'; batch: Pending[] }
  | { kind: 'awaiting-epoch'; durable: Promise<void> }
  | { kind: 'broken'; error: RoomError };

export interface CommitLoopOptions {
  draftId: string;
  log: RoomLog;
  maxBatch: number;
  /** The lease this room commits under (several nodes); none on a single node. */
  fence?: () => Fence | null;
  /** After COMMIT, in version order. */
  onCommitted: (batch: Pending[], stored: StoredStep[]) => void;
  /** The mirror can no longer be vouched for: every uncommitted step was answered; drop the room. */
  onBroken: () => void;
  /**
   * Old opIds in a batch (nothing was written). Every uncommitted step is handed over (the loop is
   * open again and empty): the owner takes them back out of its mirrors and answers or reruns each,
   * or breaks the room.
   */
  onDuplicates: (all: Pending[], opIds: string[]) => void;
}

/** How long a commit may take before its outcome is treated as unknown. */
export const COMMIT_BOUND_MS = 10_000;

/**
 * Group commit for one draft: validated steps queue; one batch at a time goes to the log with the
 * expected version of its first step. An op is acknowledged only after its batch commits.
 */
export class CommitLoop {
  state: LoopState = { kind: 'open' };
  private readonly queue: Pending[] = [];
  private flushScheduled = false;
  private readonly o: CommitLoopOptions;
  private committed: number;
  private readonly waiters: { version: number; resolve: (ok: boolean) => void }[] = [];

  constructor(committedVersion: number, o: CommitLoopOptions) {
    this.committed = committedVersion;
    this.o = o;
  }

  get committedVersion(): number {
    return this.committed;
  }

  get idle(): boolean {
    return this.queue.length === 0 && this.state.kind !== 'committing';
  }

  /** Uncommitted steps, oldest first (in COMMIT, then queued). */
  uncommitted(): Pending[] {
    return this.state.kind === 'committing' ? [...this.state.batch, ...this.queue] : [...this.queue];
  }

  enqueue(p: Pending): void {
    this.queue.push(p);
    this.schedule();
  }

  /** Later commits wait for `durable` (a new Yjs epoch being written); if it fails the room breaks. */
  awaitEpoch(durable: Promise<void>): void {
    const wait: Promise<void> = durable.then(
      () => {
        if (this.state.kind === 'awaiting-epoch' && this.state.durable === wait) this.state = { kind: 'open' };
        this.schedule();
      },
      (e: unknown) => {
        if (this.state.kind === 'awaiting-epoch' && this.state.durable === wait) this.state = { kind: 'open' };
        this.break([], { code: 'UNAVAILABLE', message: `A new Yjs epoch could not be stored (${(e as Error).message}); retry with the same opId.` });
      },
    );
    this.state = { kind: 'awaiting-epoch', durable: wait };
  }

  /** Resolves true once `version` is committed (false if the room breaks first). */
  whenCommitted(version: number): Promise<boolean> {
    if (version <= this.committed) return Promise.resolve(true);
    if (this.state.kind === 'broken') return Promise.resolve(false);
    return new Promise((resolve) => this.waiters.push({ version, resolve }));
  }

  /** Waits for every queued step to settle (shutdown, undo planning, tests). */
  async drain(): Promise<void> {
    for (;;) {
      const all = this.uncommitted();
      const last = all[all.length - 1];
      if (!last) return;
      await last.done;
    }
  }

  private schedule(): void {
    if (this.flushScheduled || this.queue.length === 0) return;
    this.flushScheduled = true;
    // setImmediate lets every submit that arrived in this turn of the loop join the batch.
    setImmediate(() => {
      this.flushScheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const s = this.state;
    switch (s.kind) {
      case 'committing':
      case 'awaiting-epoch':
      case 'broken':
        return; // the batch in COMMIT reschedules; an epoch resumes us; a broken room is replaced
      case 'open':
        break;
      default:
        return exhaustive(s);
    }
    if (this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.o.maxBatch);
    this.state = { kind: 'committing', batch };
    const expected = batch[0]!.step.version - 1;
    let r: Awaited<ReturnType<RoomLog['append']>>;
    try {
      // A commit that never answers (a connection the database dropped silently) must not wedge
      // the draft: past the bound it is an unknown outcome, like any other lost answer.
      r = await bounded(this.o.log.append(this.o.draftId, expected, batch.map(toNewStep), this.o.fence?.() ?? undefined), COMMIT_BOUND_MS, 'the commit');
    } catch (e) {
      // The outcome is unknown (the COMMIT may have landed): never guess. Answer UNAVAILABLE —
      // a retry with the same opId is safe (durable idempotency) — and reload from the log.
      this.state = { kind: 'open' };
      this.break(batch, { code: 'UNAVAILABLE', message: `The event log did not confirm this step (${(e as Error).message}); retry with the same opId: it is applied at most once.` });
      return;
    }
    this.state = { kind: 'open' };
    if (!r.ok) return this.refusedByLog(batch, r.error);
    this.committed = batch[batch.length - 1]!.step.version;
    r.value.forEach((st, i) => { batch[i]!.step.createdAt = st.createdAt.getTime(); });
    try {
      this.o.onCommitted(batch, r.value);
      this.settle();
    } finally {
      this.schedule();
    }
  }

  private refusedByLog(batch: Pending[], e: AppendError): void {
    switch (e.code) {
      case 'IDEMPOTENCY_CONFLICT':
        this.o.onDuplicates([...batch, ...this.queue.splice(0)], e.opIds ?? [e.opId]);
        this.schedule();
        return;
      case 'FENCED':
        // Another node holds the draft's lease now (this one was paused or partitioned past it):
        // step down. Nothing was written; a retry with the same opId reaches the new owner.
        this.break(batch, { code: 'UNAVAILABLE', message: 'This node no longer owns the draft (another node took its lease); retry with the same opId.', owner: e.owner });
        return;
      case 'VERSION_CONFLICT':
      case 'NOT_FOUND':
        // Someone else moved the log (or the draft is gone): this mirror is stale. Reload.
        this.break(batch, { code: 'VERSION_CONFLICT', message: 'The draft changed underneath this room; retry with the same opId.', currentVersion: e.code === 'VERSION_CONFLICT' ? e.currentVersion : this.committed });
        return;
      default:
        return exhaustive(e);
    }
  }

  /** The room cannot vouch for its mirror: it is replaced (steps handed over are the owner's to answer). */
  markBroken(error: RoomError): void {
    this.state = { kind: 'broken', error };
    this.settle();
    this.o.onBroken();
  }

  /** Every uncommitted step is answered with the error; the owner drops the room. */
  break(batch: Pending[], error: RoomError): void {
    const all = [...batch, ...this.queue.splice(0)];
    this.state = { kind: 'broken', error };
    for (const p of all) p.resolve({ ok: false, error });
    this.settle();
    this.o.onBroken();
  }

  private settle(): void {
    const broken = this.state.kind === 'broken';
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i]!;
      if (broken || w.version <= this.committed) {
        this.waiters.splice(i, 1);
        w.resolve(!broken);
      }
    }
  }
}

function toNewStep(p: Pending): NewStep {
  const s = p.step;
  return {
    opId: s.opId,
    bodyHash: p.req.bodyHash,
    actor: s.actor,
    actorKind: s.actorKind,
    sessionId: s.sessionId,
    turnId: s.turnId,
    ops: s.ops,
    inverse: s.inverse,
    notes: s.notes,
    refused: s.refused,
    yUpdate: s.yUpdate,
    kind: s.kind,
    undoOf: s.undoOf,
    ...(s.title !== undefined ? { title: s.title } : {}),
  };
}

/** Rejects when `p` has not settled within `ms` (its late result is ignored: the room reloads). */
export function bounded<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what} did not answer within ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

function exhaustive(x: never): never {
  throw new Error(`unexpected state ${JSON.stringify(x)}`);
}
