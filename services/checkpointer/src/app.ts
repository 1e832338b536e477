// The checkpoint worker (ARCHITECTURE.md "Turns compact into snapshots"): follows every draft on
// the bus and writes a snapshot after `quietMs` of quiet (at most one per `quietGapMs` in a row),
// every `everyOps` ops, and at each RUN_FINISHED. Snapshots are derived data: writes are idempotent
// (ON CONFLICT DO NOTHING in the store), never below the latest, and a restart catches up from the log.
import type { EventStore } from '@weft/store';
import type { Bus, BusMessage, Subscription } from '@weft/bus';
import { DraftFollower } from '@weft/bus';
import { DueQueue } from './due-queue.ts';
import { FoldCache, snapshotBatch } from './snapshot-batch.ts';
import type { SnapshotRequest } from './snapshot-batch.ts';
import { deltaOps } from '@weft/protocol';

import { createLogger } from '@weft/ops';
import type { Logger } from '@weft/ops';

export type { Logger };
export { silentLogger } from '@weft/ops';

export interface CheckpointerDeps {
  store: EventStore;
  bus: Pick<Bus, 'subscribe' | 'onReconnect'>;
  now?: () => number;
  /** Default: JSON lines on stdout (service "checkpointer"). */
  log?: Logger;
  /** Told of every snapshot written (metrics). */
  onCheckpoint?: (record: CheckpointRecord) => void;
}

export interface CheckpointerConfig {
  /** Snapshot after this long without a new version on a draft. */
  quietMs?: number;
  /**
   * After a quiet snapshot, the next quiet one waits at least this long. A person editing with
   * pauses longer than `quietMs` (one op every few seconds) otherwise got a snapshot — the whole
   * draft and its Yjs state — for every op. The snapshot still comes, at the head, once it is due.
   */
  quietGapMs?: number;
  /** Snapshot once this many ops accumulated since the last snapshot. */
  everyOps?: number;
  /** How often followed drafts compare against the log head (catch-up after bus outages). */
  headCheckMs?: number;
  /** How often every draft is compared against its latest snapshot (drafts never seen on the bus). */
  sweepMs?: number;
  /** Open folds (JSON + Y.Doc) kept between snapshots, least recently used evicted (B8: warm snapshots). */
  cacheDrafts?: number;
  /**
   * Drafts snapshotted together, at most: snapshots that come due are taken in batches (one at a
   * time), each read and write one statement for the whole batch (snapshot-batch.ts).
   */
  batchDrafts?: number;
  /**
   * Snapshots started per second at most (0: unpaced). Snapshots are derived data and can wait: a
   * burst (drafts edited in step reaching `everyOps` together, a catch-up after downtime) is
   * spread over seconds instead of taking the CPU and Postgres time the session's acks need.
   * drain() and stop() run unpaced.
   */
  perSecond?: number;
}

export type SnapshotReason = 'quiet' | 'ops' | 'turn' | 'catchup' | 'drain';

/**
 * `ms`: the batch it was written in, start to end (I/O included); `warm`: continued an open fold
 * (no decode of the stored state); `foldMs`: this draft's fold alone, without I/O.
 */
export interface CheckpointRecord { draftId: string; version: number; reason: SnapshotReason; ms: number; foldMs: number; warm: boolean; yState: boolean }

export interface Checkpointer {
  /** Subscribes, starts the catch-up of every draft behind its log (paced, in the background) and the timers; resolves once started. */
  run(): Promise<void>;
  /** Unsubscribes and stops timers; pending quiet snapshots are dropped (a restart catches up). */
  stop(): Promise<void>;
  /** Waits for queued work, then snapshots every draft with ops since its last snapshot. */
  drain(): Promise<void>;
  /** Snapshot a draft up to its head now (idempotent); the version written, or null if none was needed. */
  checkpoint(draftId: string, reason: SnapshotReason): Promise<number | null>;
  readonly written: readonly CheckpointRecord[];
}

interface DraftState {
  pendingOps: number;
  quiet: ReturnType<typeof setTimeout> | null;
  lastActivity: number;
  /** When this worker last wrote a quiet snapshot of the draft (the gap counts from it). */
  lastQuietAt: number | null;
}

const MAX_RECORDS = 1000;

export function build(deps: CheckpointerDeps, config: CheckpointerConfig = {}): Checkpointer {
  const quietMs = config.quietMs ?? 2000;
  const quietGapMs = config.quietGapMs ?? 30_000;
  const everyOps = config.everyOps ?? 50;
  const headCheckMs = config.headCheckMs ?? 5000;
  const sweepMs = config.sweepMs ?? 60_000;
  const cacheDrafts = config.cacheDrafts ?? 256;
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const log = deps.log ?? createLogger({ service: 'checkpointer' });
  const states = new Map<string, DraftState>();
  const written: CheckpointRecord[] = [];
  const cache = new FoldCache(cacheDrafts);
  const record = (r: CheckpointRecord): void => {
    written.push(r);
    deps.onCheckpoint?.(r);
    if (written.length > MAX_RECORDS) written.splice(0, written.length - MAX_RECORDS);
  };
  // One batch at a time, a draft at most once in it: snapshots of a draft never race each other.
  const perSecond = config.perSecond ?? 100;
  const due = new DueQueue<SnapshotRequest, number | null>(config.batchDrafts ?? 100, snapshotBatch(store, cache, log, record), perSecond > 0 ? perSecond : Infinity);
  let subscription: Subscription | null = null;
  let offReconnect: (() => void) | null = null;
  let stopHeadChecks: (() => void) | null = null;
  let sweeper: ReturnType<typeof setInterval> | null = null;
  let stopped = false;

  const checkpointTo = (draftId: string, upTo: number | null, reason: SnapshotReason): Promise<number | null> => due.add(draftId, { draftId, upTo, reason });

  const state = (draftId: string): DraftState => {
    let st = states.get(draftId);
    if (!st) { st = { pendingOps: 0, quiet: null, lastActivity: now(), lastQuietAt: null }; states.set(draftId, st); }
    return st;
  };

  const snapshotNow = async (draftId: string, version: number, reason: SnapshotReason): Promise<void> => {
    const st = state(draftId);
    if (st.quiet) { clearTimeout(st.quiet); st.quiet = null; }
    st.pendingOps = 0;
    try {
      // Any snapshot written ends a run of quiet ones (the next quiet one is due at once).
      if (await checkpointTo(draftId, version, reason) !== null) st.lastQuietAt = reason === 'quiet' ? now() : null;
    } catch (e) {
      log.error('snapshot failed', { draftId, reason, error: String(e) });
    }
  };

  /** The quiet snapshot after `ms`, or later if the last quiet snapshot was under `quietGapMs` ago. */
  const armQuiet = (draftId: string, st: DraftState, ms: number, version: number): void => {
    st.quiet = setTimeout(() => {
      st.quiet = null;
      if (stopped) return;
      const wait = st.lastQuietAt === null ? 0 : st.lastQuietAt + quietGapMs - now();
      if (wait > 0) armQuiet(draftId, st, wait, version);
      else void snapshotNow(draftId, follower.lastVersion(draftId) ?? version, 'quiet');
    }, ms);
  };

  const follower = new DraftFollower({
    refill: async (draftId, after) => {
      const steps = await store.readSteps(draftId, { after, limit: 1000 });
      return steps.map((s) => ({ version: s.version, events: [{ type: 'STATE_DELTA', delta: s.ops }] }));
    },
    headVersions: (ids) => store.headVersions(ids),
    startVersion: async (draftId) => (await store.snapshotVersions([draftId])).get(draftId) ?? 0,
    // Handled in version order, exactly once per version (bus or refill).
    handle: async (draftId, v) => {
      const st = state(draftId);
      st.lastActivity = now();
      st.pendingOps += Math.max(1, countOps(v.events));
      if (st.pendingOps >= everyOps) { await snapshotNow(draftId, v.version, 'ops'); return; }
      if (st.quiet) clearTimeout(st.quiet);
      if (stopped) return;
      armQuiet(draftId, st, quietMs, v.version);
    },
    onError: (e, draftId) => log.error('follower failed', { draftId, error: String(e) }),
  });

  const onMessage = (msg: BusMessage): void => {
    if (stopped) return;
    void follower.receive(msg).then(async () => {
      // RUN_FINISHED rides on a version the follower already handled (it sees a duplicate), so
      // the turn end is read here, after the follower has caught up to that version.
      if (msg.events.some((e) => typeof e === 'object' && e !== null && (e as { type?: unknown }).type === 'RUN_FINISHED')) {
        await snapshotNow(msg.draftId, msg.version, 'turn');
      }
    });
  };

  /** Every draft whose log head is ahead of its latest snapshot gets a snapshot (after downtime). */
  const sweep = async (reason: SnapshotReason): Promise<void> => {
    const metas = await store.listDrafts({ limit: 10_000 });
    // Versions only, in one query: this read each draft's whole latest snapshot (doc and Yjs
    // state) to compare one number, every draft every minute.
    const snaps = await store.snapshotVersions(metas.filter((m) => m.headVersion > 0).map((m) => m.id));
    const behind = metas.filter((m) => {
      if (m.headVersion === 0 || (snaps.get(m.id) ?? 0) >= m.headVersion) return false;
      const st = states.get(m.id);
      return !(st && (st.quiet !== null || now() - st.lastActivity < quietMs)); // else its quiet timer will do it
    });
    // Queued together, so they are written in batches.
    await Promise.all(behind.map((m) => stopped ? null : checkpointTo(m.id, m.headVersion, reason).catch((e: unknown) => log.error('catch-up failed', { draftId: m.id, error: String(e) }))));
  };

  return {
    written,
    checkpoint: (draftId, reason) => checkpointTo(draftId, null, reason),
    async run() {
      stopped = false;
      subscription = deps.bus.subscribe('all', onMessage);
      // Back from an outage: every followed draft compares with the log at once.
      offReconnect = deps.bus.onReconnect(() => { void follower.checkHeads(); });
      // The catch-up is paced work like any other: a worker back after a long outage (thousands of
      // drafts behind) is ready at once, and writes their snapshots over the next seconds.
      void sweep('catchup').catch((e: unknown) => log.warn('catch-up sweep failed', { error: String(e) }));
      stopHeadChecks = follower.startHeadChecks(headCheckMs);
      sweeper = setInterval(() => { void sweep('catchup').catch((e: unknown) => log.warn('sweep failed', { error: String(e) })); }, sweepMs);
      sweeper.unref();
    },
    async stop() {
      stopped = true;
      stopHeadChecks?.();
      if (sweeper) clearInterval(sweeper);
      subscription?.unsubscribe();
      offReconnect?.();
      subscription = null; offReconnect = null; stopHeadChecks = null; sweeper = null;
      for (const st of states.values()) if (st.quiet) { clearTimeout(st.quiet); st.quiet = null; }
      await follower.idle();
      await due.hurry(() => due.idle());
      cache.clear();
    },
    drain: () => due.hurry(async () => {
      // Up to the log's head, not only what the bus has delivered so far (messages can be in flight).
      await follower.checkHeads();
      await follower.idle();
      for (const [id, st] of states) {
        if (st.pendingOps > 0 || st.quiet) await snapshotNow(id, follower.lastVersion(id) ?? Number.MAX_SAFE_INTEGER, 'drain');
      }
      await due.idle();
    }),
  };
}

const countOps = (events: unknown[]): number => deltaOps(events).length;
