// The checkpoint worker (ARCHITECTURE.md "Turns compact into snapshots"): follows every draft on
// the bus and writes a snapshot after `quietMs` of quiet, every `everyOps` ops, and at each
// RUN_FINISHED. Snapshots are derived data: writes are idempotent (ON CONFLICT DO NOTHING in the
// store), never below the latest, and a restart catches up from the log.
import type { EventStore } from '@weft/store';
import type { Bus, BusMessage, Subscription } from '@weft/bus';
import type { Json } from '@weft/core';
import { DraftFollower } from '@weft/bus';
import { foldSnapshot } from './fold.ts';

export interface Logger {
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}
export const silentLogger: Logger = { warn() {}, error() {} };
const consoleLogger: Logger = {
  warn: (m, f) => console.warn(`[checkpointer] ${m}`, f ?? ''),
  error: (m, f) => console.error(`[checkpointer] ${m}`, f ?? ''),
};

export interface CheckpointerDeps {
  store: EventStore;
  bus: Pick<Bus, 'subscribe' | 'onReconnect'>;
  now?: () => number;
  log?: Logger;
}

export interface CheckpointerConfig {
  /** Snapshot after this long without a new version on a draft. */
  quietMs?: number;
  /** Snapshot once this many ops accumulated since the last snapshot. */
  everyOps?: number;
  /** How often followed drafts compare against the log head (catch-up after bus outages). */
  headCheckMs?: number;
  /** How often every draft is compared against its latest snapshot (drafts never seen on the bus). */
  sweepMs?: number;
}

export type SnapshotReason = 'quiet' | 'ops' | 'turn' | 'catchup' | 'drain';

export interface CheckpointRecord { draftId: string; version: number; reason: SnapshotReason; ms: number; yState: boolean }

export interface Checkpointer {
  /** Subscribes, catches up every draft behind its log, starts the timers; resolves once started. */
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
}

const MAX_RECORDS = 1000;

export function build(deps: CheckpointerDeps, config: CheckpointerConfig = {}): Checkpointer {
  const quietMs = config.quietMs ?? 2000;
  const everyOps = config.everyOps ?? 50;
  const headCheckMs = config.headCheckMs ?? 5000;
  const sweepMs = config.sweepMs ?? 60_000;
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const log = deps.log ?? consoleLogger;
  const states = new Map<string, DraftState>();
  const writes = new Map<string, Promise<unknown>>();
  const written: CheckpointRecord[] = [];
  let subscription: Subscription | null = null;
  let offReconnect: (() => void) | null = null;
  let stopHeadChecks: (() => void) | null = null;
  let sweeper: ReturnType<typeof setInterval> | null = null;
  let stopped = false;

  /** One write chain per draft, so snapshots of a draft never race each other. */
  const serial = <T>(draftId: string, fn: () => Promise<T>): Promise<T> => {
    const prev = writes.get(draftId) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => {});
    writes.set(draftId, tail);
    void tail.then(() => { if (writes.get(draftId) === tail) writes.delete(draftId); });
    return next;
  };

  const checkpointTo = (draftId: string, upTo: number | null, reason: SnapshotReason): Promise<number | null> => serial(draftId, async () => {
    const t0 = performance.now();
    const [prev, meta] = await Promise.all([store.latestSnapshot(draftId), store.getDraft(draftId)]);
    if (!meta) return null;
    const target = Math.min(upTo ?? meta.headVersion, meta.headVersion);
    if (target <= (prev?.version ?? 0)) return null; // never below (or at) the latest
    const tail = await store.readSteps(draftId, { after: prev?.version ?? 0, upTo: target });
    const f = foldSnapshot(draftId, meta.epoch, prev, tail);
    const ok = await store.writeSnapshot({ draftId, version: f.version, epoch: meta.epoch, doc: f.doc as unknown as Json, yState: f.yState, reason });
    if (!ok) return null; // another checkpointer got there first: the same content
    written.push({ draftId, version: f.version, reason, ms: performance.now() - t0, yState: f.yState !== null });
    if (written.length > MAX_RECORDS) written.splice(0, written.length - MAX_RECORDS);
    return f.version;
  });

  const state = (draftId: string): DraftState => {
    let st = states.get(draftId);
    if (!st) { st = { pendingOps: 0, quiet: null, lastActivity: now() }; states.set(draftId, st); }
    return st;
  };

  const snapshotNow = async (draftId: string, version: number, reason: SnapshotReason): Promise<void> => {
    const st = state(draftId);
    if (st.quiet) { clearTimeout(st.quiet); st.quiet = null; }
    st.pendingOps = 0;
    try {
      await checkpointTo(draftId, version, reason);
    } catch (e) {
      log.error('snapshot failed', { draftId, reason, error: String(e) });
    }
  };

  const follower = new DraftFollower({
    refill: async (draftId, after) => {
      const steps = await store.readSteps(draftId, { after, limit: 1000 });
      return steps.map((s) => ({ version: s.version, events: [{ type: 'STATE_DELTA', delta: s.ops }] }));
    },
    headVersion: async (draftId) => (await store.getDraft(draftId))?.headVersion ?? 0,
    startVersion: async (draftId) => (await store.latestSnapshot(draftId))?.version ?? 0,
    // Handled in version order, exactly once per version (bus or refill).
    handle: async (draftId, v) => {
      const st = state(draftId);
      st.lastActivity = now();
      st.pendingOps += Math.max(1, countOps(v.events));
      if (st.pendingOps >= everyOps) { await snapshotNow(draftId, v.version, 'ops'); return; }
      if (st.quiet) clearTimeout(st.quiet);
      if (stopped) return;
      st.quiet = setTimeout(() => {
        st.quiet = null;
        void snapshotNow(draftId, follower.lastVersion(draftId) ?? v.version, 'quiet');
      }, quietMs);
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
    for (const m of metas) {
      if (stopped) return;
      if (m.headVersion === 0) continue;
      const st = states.get(m.id);
      if (st && (st.quiet !== null || now() - st.lastActivity < quietMs)) continue; // its quiet timer will do it
      const snap = await store.latestSnapshot(m.id);
      if ((snap?.version ?? 0) < m.headVersion) await checkpointTo(m.id, m.headVersion, reason).catch((e: unknown) => log.error('catch-up failed', { draftId: m.id, error: String(e) }));
    }
  };

  return {
    written,
    checkpoint: (draftId, reason) => checkpointTo(draftId, null, reason),
    async run() {
      stopped = false;
      subscription = deps.bus.subscribe('all', onMessage);
      // Back from an outage: every followed draft compares with the log at once.
      offReconnect = deps.bus.onReconnect(() => { void follower.checkHeads(); });
      await sweep('catchup');
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
      await Promise.all([...writes.values()]);
    },
    async drain() {
      await follower.idle();
      for (const [id, st] of states) {
        if (st.pendingOps > 0 || st.quiet) await snapshotNow(id, follower.lastVersion(id) ?? Number.MAX_SAFE_INTEGER, 'drain');
      }
      await Promise.all([...writes.values()]);
    },
  };
}

function countOps(events: unknown[]): number {
  let n = 0;
  for (const e of events) {
    if (typeof e === 'object' && e !== null && (e as { type?: unknown }).type === 'STATE_DELTA') {
      const d = (e as { delta?: unknown }).delta;
      if (Array.isArray(d)) n += d.length;
    }
  }
  return n;
}
