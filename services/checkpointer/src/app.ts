// The checkpoint worker (ARCHITECTURE.md "Turns compact into snapshots"): follows every draft on
// the bus and writes a snapshot after `quietMs` of quiet (at most one per `quietGapMs` in a row),
// every `everyOps` ops, and at each RUN_FINISHED. Snapshots are derived data: writes are idempotent
// (ON CONFLICT DO NOTHING in the store), never below the latest, and a restart catches up from the log.
import type { EventStore } from '@weft/store';
import type { Bus, BusMessage, Subscription } from '@weft/bus';
import type { Json } from '@weft/core';
import { DraftFollower } from '@weft/bus';
import { DraftFold, yBaseOf } from './fold.ts';
import type { YBase } from './fold.ts';
import { genesis } from '@weft/ydoc';
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
}

export type SnapshotReason = 'quiet' | 'ops' | 'turn' | 'catchup' | 'drain';

/** `warm`: continued an open fold (no decode of the stored state); `foldMs`: the fold alone, without I/O. */
export interface CheckpointRecord { draftId: string; version: number; reason: SnapshotReason; ms: number; foldMs: number; warm: boolean; yState: boolean }

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
  const writes = new Map<string, Promise<unknown>>();
  const written: CheckpointRecord[] = [];
  /** draftId → its fold at the last snapshot written; Map order = least recently used first. */
  const folds = new Map<string, DraftFold>();
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

  const forget = (draftId: string): void => {
    folds.get(draftId)?.dispose();
    folds.delete(draftId);
  };

  /** The session's Yjs base for `prev` (DraftDoc.load): that snapshot, an older one of the epoch, or genesis. */
  const yBaseFor = async (draftId: string, epoch: number, prev: Awaited<ReturnType<EventStore['latestSnapshot']>>): Promise<YBase> => {
    const direct = yBaseOf(draftId, epoch, prev);
    if (direct) return direct;
    const best = await store.latestYSnapshot(draftId, epoch, prev?.version ?? 0);
    return best?.yState ? { version: best.version, yState: best.yState } : { version: 0, yState: genesis(draftId, epoch) };
  };

  const checkpointTo = (draftId: string, upTo: number | null, reason: SnapshotReason): Promise<number | null> => serial(draftId, async () => {
    const t0 = performance.now();
    const [prev, meta] = await Promise.all([store.latestSnapshot(draftId), store.getDraft(draftId)]);
    if (!meta) { forget(draftId); return null; }
    const target = Math.min(upTo ?? meta.headVersion, meta.headVersion);
    if (target <= (prev?.version ?? 0)) return null; // never below (or at) the latest
    let fold = folds.get(draftId);
    // A cached fold is reused only while it can still reach `target` along the same lineage; one
    // that lost its Yjs lineage is reopened, so bytes the session back-filled are picked up.
    if (fold && (fold.epoch !== meta.epoch || fold.version > target || !fold.hasLineage)) { forget(draftId); fold = undefined; }
    const warm = fold !== undefined;
    let foldMs = 0;
    try {
      if (!fold) {
        const yBase = await yBaseFor(draftId, meta.epoch, prev);
        const f0 = performance.now();
        fold = new DraftFold(draftId, meta.epoch, prev ? { ...prev } : null, yBase);
        foldMs += performance.now() - f0;
      }
      folds.delete(draftId);
      folds.set(draftId, fold);
      while (folds.size > cacheDrafts) forget(folds.keys().next().value as string);
      while (fold.version < target) {
        const tail = await store.readSteps(draftId, { after: fold.from, upTo: target, limit: 2000 });
        if (tail.length === 0) throw new Error(`log of ${draftId} ends before ${target}`);
        const f0 = performance.now();
        fold.advance(tail);
        foldMs += performance.now() - f0;
      }
    } catch (e) {
      forget(draftId);
      throw e;
    }
    const f1 = performance.now();
    const f = fold.result();
    foldMs += performance.now() - f1;
    const ok = await store.writeSnapshot({ draftId, version: f.version, epoch: meta.epoch, doc: f.doc as unknown as Json, yState: f.yState, reason });
    if (!ok) return null; // another checkpointer got there first: the same content
    if (f.yState === null) log.warn('snapshot without Yjs state', { draftId, version: f.version, note: f.yNote });
    const record: CheckpointRecord = { draftId, version: f.version, reason, ms: performance.now() - t0, foldMs, warm, yState: f.yState !== null };
    written.push(record);
    deps.onCheckpoint?.(record);
    if (written.length > MAX_RECORDS) written.splice(0, written.length - MAX_RECORDS);
    return f.version;
  });

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
    for (const m of metas) {
      if (stopped) return;
      if (m.headVersion === 0) continue;
      const st = states.get(m.id);
      if (st && (st.quiet !== null || now() - st.lastActivity < quietMs)) continue; // its quiet timer will do it
      if ((snaps.get(m.id) ?? 0) < m.headVersion) await checkpointTo(m.id, m.headVersion, reason).catch((e: unknown) => log.error('catch-up failed', { draftId: m.id, error: String(e) }));
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
      for (const id of [...folds.keys()]) forget(id);
    },
    async drain() {
      // Up to the log's head, not only what the bus has delivered so far (messages can be in flight).
      await follower.checkHeads();
      await follower.idle();
      for (const [id, st] of states) {
        if (st.pendingOps > 0 || st.quiet) await snapshotNow(id, follower.lastVersion(id) ?? Number.MAX_SAFE_INTEGER, 'drain');
      }
      await Promise.all([...writes.values()]);
    },
  };
}

const countOps = (events: unknown[]): number => deltaOps(events).length;
