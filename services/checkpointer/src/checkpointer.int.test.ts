// The checkpoint worker on real Postgres + real nats-server (issue 5, "The checkpoint worker").
// Steps are appended with EventStore.append and published on NATS as the session does.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createNatsBus } from '@weft/bus';
import type { Bus } from '@weft/bus';
import { EventStore, loadDraft } from '@weft/store';
import { createTestDatabase, startNats } from '@weft/testing';
import type { NatsServer, TestDatabase } from '@weft/testing';
import { yDocToDraft } from '@weft/ydoc';
import { build, silentLogger } from './app.ts';
import type { Checkpointer, CheckpointerConfig } from './app.ts';
import { createWriter, fullReplay, until } from '../test/writer.ts';

let db: TestDatabase;
let store: EventStore;
let nats: NatsServer;
let pub: Bus;
const open: Checkpointer[] = [];
const buses: Bus[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.db);
  nats = await startNats();
  pub = await createNatsBus(nats.url, { name: 'writer', reconnectTimeWait: 50 });
});
// Each test's checkpointers stop with it: every one subscribes to all drafts.
afterEach(async () => {
  for (const c of open.splice(0)) await c.stop();
});
afterAll(async () => {
  for (const b of [...buses, pub]) await b.close();
  await nats.destroy();
  await db.drop();
});

async function start(config: CheckpointerConfig): Promise<{ ck: Checkpointer; bus: Bus }> {
  const bus = await createNatsBus(nats.url, { name: 'checkpointer', reconnectTimeWait: 50 });
  buses.push(bus);
  const ck = build({ store, bus, log: silentLogger }, { sweepMs: 3_600_000, ...config });
  open.push(ck);
  await ck.run();
  await bus.flush();
  return { ck, bus };
}

const snapshotVersions = async (draftId: string): Promise<number[]> => (await store.listSnapshots(draftId)).map((s) => s.version);
const of = (ck: Checkpointer, draftId: string) => ck.written.filter((w) => w.draftId === draftId);

/** The snapshot's Yjs state decodes to the same draft as its JSON and the full replay. */
async function expectConsistent(draftId: string, history: Uint8Array[]): Promise<void> {
  const snap = await store.latestSnapshot(draftId);
  const replay = await fullReplay(store, draftId);
  expect(snap?.version).toBe(replay.version);
  expect(snap?.doc).toEqual(replay.draft);
  expect(snap?.yState).not.toBeNull();
  const y = new Y.Doc();
  Y.applyUpdate(y, snap!.yState!);
  expect(yDocToDraft(y, draftId)).toEqual(replay.draft);
  // a client that followed every update since genesis gets nothing new and nothing duplicated
  const client = new Y.Doc();
  for (const u of history) Y.applyUpdate(client, u);
  const before = Y.encodeStateVector(client);
  Y.applyUpdate(client, snap!.yState!);
  expect(Y.encodeStateVector(client)).toEqual(before);
  expect(yDocToDraft(client, draftId)).toEqual(replay.draft);
}

describe('checkpointer on Postgres + NATS', () => {
  it('snapshots after quiet, at the head, with a Yjs state on the session lineage', async () => {
    const { ck } = await start({ quietMs: 500, quietGapMs: 0, everyOps: 1000, headCheckMs: 200 });
    const w = await createWriter(store, pub);
    await w.commit([{ op: 'add', path: '/sections/hero', value: { id: 'hero', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: [] } } } }, { op: 'add', path: '/order/-', value: 'hero' }]);
    await w.edits(4);
    // Wait on the checkpointer's own record: the row can be visible before its write returns.
    await until(() => of(ck, w.draftId).length === 1, 'quiet snapshot');
    expect(of(ck, w.draftId).map((r) => [r.version, r.reason, r.yState])).toEqual([[5, 'quiet', true]]);
    expect((await store.latestSnapshot(w.draftId))?.version).toBe(5);
    await expectConsistent(w.draftId, w.history);
    // quiet again after more writes: the next snapshot continues the open fold
    await w.edits(3);
    await until(() => of(ck, w.draftId).length === 2, 'second quiet snapshot');
    expect(of(ck, w.draftId).map((r) => [r.version, r.warm])).toEqual([[5, false], [8, true]]);
    expect((await store.latestSnapshot(w.draftId))?.version).toBe(8);
    await expectConsistent(w.draftId, w.history);
  });

  it('an editor pausing between single edits gets one quiet snapshot per gap, not one per edit; the last edit is still snapshotted', async () => {
    const { ck } = await start({ quietMs: 100, quietGapMs: 4000, everyOps: 1000, headCheckMs: 60_000 });
    const w = await createWriter(store, pub);
    await w.edits(1);
    await until(() => of(ck, w.draftId).length === 1, 'first quiet snapshot');
    const first = performance.now();
    // Five edits 250 ms apart: each followed by more than quietMs of quiet.
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 250));
      await w.edits(1);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(performance.now() - first).toBeLessThan(4000); // still inside the gap (a margin for a slow machine): nothing more written
    expect(of(ck, w.draftId).map((r) => [r.version, r.reason])).toEqual([[1, 'quiet']]);
    await until(() => of(ck, w.draftId).length === 2, 'the quiet snapshot once the gap has passed');
    expect(performance.now() - first).toBeGreaterThanOrEqual(3900);
    expect(of(ck, w.draftId).map((r) => [r.version, r.reason])).toEqual([[1, 'quiet'], [6, 'quiet']]);
    await expectConsistent(w.draftId, w.history);
  });

  it('snapshots every 50 ops while writes keep coming (no quiet)', async () => {
    const { ck } = await start({ quietMs: 60_000, everyOps: 50, headCheckMs: 200 });
    const w = await createWriter(store, pub);
    await w.edits(120);
    await until(() => of(ck, w.draftId).length === 2, 'two ops snapshots');
    expect(of(ck, w.draftId).map((r) => [r.version, r.reason])).toEqual([[50, 'ops'], [100, 'ops']]);
    expect(await snapshotVersions(w.draftId)).toEqual([50, 100]);
    await ck.drain(); // pending 20 ops
    expect(await snapshotVersions(w.draftId)).toEqual([50, 100, 120]);
    await expectConsistent(w.draftId, w.history);
  });

  it('drafts that reach everyOps together are snapshotted in batches: one statement of each kind per batch, none per draft', async () => {
    // Counts the store calls of each kind, and the drafts each batch wrote.
    const calls: Record<string, number> = {};
    const batches: number[] = [];
    const counted = new Proxy(store, {
      get(target, key, receiver) {
        const v = Reflect.get(target, key, receiver) as unknown;
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          calls[String(key)] = (calls[String(key)] ?? 0) + 1;
          if (key === 'writeSnapshots') batches.push((args[0] as unknown[]).length);
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const bus = await createNatsBus(nats.url, { name: 'checkpointer', reconnectTimeWait: 50 });
    buses.push(bus);
    const ck = build({ store: counted, bus, log: silentLogger }, { quietMs: 60_000, everyOps: 5, headCheckMs: 60_000, sweepMs: 3_600_000, batchDrafts: 10 });
    open.push(ck);
    await ck.run();
    await bus.flush();
    const writers = await Promise.all(Array.from({ length: 24 }, () => createWriter(store, pub)));
    for (const w of writers) await w.edits(4);
    for (const k of Object.keys(calls)) delete calls[k];
    await Promise.all(writers.map((w) => w.edits(1))); // the fifth op of every draft at once
    await until(() => writers.every((w) => of(ck, w.draftId).length === 1), 'an ops snapshot of every draft');
    expect(writers.map((w) => of(ck, w.draftId).map((r) => [r.version, r.reason, r.yState]))).toEqual(writers.map(() => [[5, 'ops', true]]));
    // 24 drafts in batches of at most 10: at least 3 batches, and each read or write is one statement per batch.
    expect(batches.reduce((a, b) => a + b, 0)).toBe(24);
    expect(Math.max(...batches)).toBeLessThanOrEqual(10);
    expect(batches.length).toBeGreaterThanOrEqual(3);
    expect(batches.length).toBeLessThan(24 / 2);
    for (const kind of ['snapshotTargets', 'latestSnapshots', 'readStepRanges']) expect(calls[kind], kind).toBe(batches.length);
    for (const perDraft of ['getDraft', 'latestSnapshot', 'readSteps', 'writeSnapshot']) expect(calls[perDraft], perDraft).toBeUndefined();
    for (const w of writers) await expectConsistent(w.draftId, w.history);
  });

  it('a burst is paced: 30 drafts due at once are snapshotted at perSecond, in small batches; drain() does not wait its turn', async () => {
    // 50 per second: batches of 5, 100 ms apart, so the 30 take about 0.5 s, not one moment.
    const { ck } = await start({ quietMs: 60_000, everyOps: 5, headCheckMs: 60_000, perSecond: 50 });
    const writers = await Promise.all(Array.from({ length: 30 }, () => createWriter(store, pub)));
    for (const w of writers) await w.edits(4);
    await Promise.all(writers.map((w) => w.edits(1))); // the fifth op of every draft at once
    await until(() => writers.every((w) => of(ck, w.draftId).length === 1), 'an ops snapshot of every draft');
    const at = (await Promise.all(writers.map(async (w) => (await store.listSnapshots(w.draftId)).map((s) => new Date(s.createdAt).getTime())))).flat();
    expect(at).toHaveLength(30);
    const t0 = Math.min(...at);
    expect(Math.max(...at) - t0).toBeGreaterThanOrEqual(400);
    // Never more than a batch of 5 in any 100 ms from the first.
    const perTenth = new Map<number, number>();
    for (const t of at) perTenth.set(Math.floor((t - t0) / 100), (perTenth.get(Math.floor((t - t0) / 100)) ?? 0) + 1);
    expect(Math.max(...perTenth.values())).toBeLessThanOrEqual(10); // a batch may straddle a boundary
    for (const w of writers) await expectConsistent(w.draftId, w.history);
    // drain() (shutdown) runs unpaced: 30 drafts with a pending op each are at their heads at once.
    await Promise.all(writers.map((w) => w.edits(1)));
    const t1 = performance.now();
    await ck.drain();
    expect(performance.now() - t1).toBeLessThan(400);
    for (const w of writers) expect(await snapshotVersions(w.draftId)).toEqual([5, 6]);
  });

  it('duplicates and gaps on the bus: counted once, refilled from Postgres, in order', async () => {
    const { ck } = await start({ quietMs: 60_000, everyOps: 5, headCheckMs: 60_000 });
    const w = await createWriter(store, pub);
    const msg = (v: number) => ({ draftId: w.draftId, version: v, events: [{ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/title', value: 'x' }] }] });
    await w.edits(2);                                        // 1, 2
    for (let i = 0; i < 5; i++) await pub.publish(w.draftId, msg(2)); // duplicates of 2 must not count as ops
    await pub.publish(w.draftId, msg(1));                    // a late, older one
    await w.edits(2, false);                                 // 3, 4 committed, notifications lost
    await w.edits(1);                                        // 5 arrives: gap 3..4 refilled → 5 ops
    await until(() => of(ck, w.draftId).length === 1, 'snapshot at 5');
    expect(of(ck, w.draftId)[0]).toMatchObject({ version: 5, reason: 'ops' });
    await w.edits(5);
    await pub.publish(w.draftId, msg(7));                    // duplicate mid-stream
    await until(() => of(ck, w.draftId).length === 2, 'snapshot at 10');
    expect(of(ck, w.draftId).map((r) => r.version)).toEqual([5, 10]);
    await expectConsistent(w.draftId, w.history);
  });

  it('nats-server stopped during writes: no op lost, the checkpointer catches up in order when it returns', async () => {
    // Periodic head checks off: the catch-up after the outage comes from the reconnect.
    // No quiet gap: the snapshot after the last edit below shows the worker is live again.
    const { ck, bus } = await start({ quietMs: 500, quietGapMs: 0, everyOps: 50, headCheckMs: 60_000 });
    const w = await createWriter(store, pub);
    await w.edits(30);
    await until(async () => (await store.latestSnapshot(w.draftId))?.version === 30, 'quiet snapshot before the outage');
    await nats.stop();
    try {
      await until(() => !bus.connected && !pub.connected, 'outage noticed');
      await w.edits(80); // writes go on; notifications are dropped
      expect(pub.stats.dropped).toBeGreaterThanOrEqual(80);
      await new Promise((r) => setTimeout(r, 1500)); // the outage lasts a while
      expect(await snapshotVersions(w.draftId)).toEqual([30]);
    } finally {
      await nats.restart();
    }
    await until(() => bus.connected && pub.connected, 'reconnect', 20_000);
    await until(async () => (await store.latestSnapshot(w.draftId))?.version === 110, 'catch-up to head', 20_000);
    const versions = of(ck, w.draftId).map((r) => r.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(versions[0]).toBe(30);
    expect(versions).toContain(80); // the refill replays 31..110 in order: 50 ops after 30
    await expectConsistent(w.draftId, w.history);
    // live again
    await w.edits(1);
    await until(async () => (await store.latestSnapshot(w.draftId))?.version === 111, 'live after reconnect');
  });

  it('a checkpointer restarted after downtime catches up every draft behind its log', async () => {
    const { ck } = await start({ quietMs: 100, everyOps: 50, headCheckMs: 200 });
    const a = await createWriter(store, pub);
    await a.edits(3);
    await until(async () => (await store.latestSnapshot(a.draftId))?.version === 3, 'first snapshot');
    await ck.stop();
    const b = await createWriter(store, pub);
    await a.edits(7);
    await b.edits(4);
    const { ck: again } = await start({ quietMs: 100, everyOps: 50, headCheckMs: 200 });
    // run() resolves at once; the catch-up follows in the background
    await until(() => of(again, a.draftId).length > 0 && of(again, b.draftId).length > 0, 'catch-up snapshots');
    expect(of(again, a.draftId).map((r) => [r.version, r.reason])).toEqual([[10, 'catchup']]);
    expect(of(again, b.draftId).map((r) => [r.version, r.reason])).toEqual([[4, 'catchup']]);
    await expectConsistent(a.draftId, a.history);
    await expectConsistent(b.draftId, b.history);
  });

  it('snapshots are idempotent and never below the latest, even with two checkpointers racing', async () => {
    const { ck: one } = await start({ quietMs: 60_000, everyOps: 1000, headCheckMs: 60_000 });
    const { ck: two } = await start({ quietMs: 60_000, everyOps: 1000, headCheckMs: 60_000 });
    const w = await createWriter(store, pub);
    await w.edits(12);
    const [x, y] = await Promise.all([one.checkpoint(w.draftId, 'drain'), two.checkpoint(w.draftId, 'drain')]);
    expect([x, y].filter((v) => v === 12)).toHaveLength(1); // one wrote, the other found it written
    expect(await one.checkpoint(w.draftId, 'drain')).toBeNull();
    expect(await snapshotVersions(w.draftId)).toEqual([12]);
    // someone wrote a later snapshot: the worker never goes back below it
    await w.edits(3);
    expect(await two.checkpoint(w.draftId, 'drain')).toBe(15);
    await one.drain();
    expect(await one.checkpoint(w.draftId, 'drain')).toBeNull();
    expect(await snapshotVersions(w.draftId)).toEqual([12, 15]);
    await w.edits(2);
    expect(await one.checkpoint(w.draftId, 'drain')).toBe(17); // its fold (at 12) continues past 15
    await expectConsistent(w.draftId, w.history);
  });

  it('cold load = latest snapshot + tail, equal to the full replay', async () => {
    const { ck } = await start({ quietMs: 60_000, everyOps: 25, headCheckMs: 60_000 });
    const w = await createWriter(store, pub);
    await w.commit([{ op: 'add', path: '/sections/faq', value: { id: 'faq', kind: 'surface', catalog: 'weft@1', data: { q: 1 }, components: { root: { id: 'root', component: 'Stack', children: [] } } } }, { op: 'add', path: '/order/-', value: 'faq' }]);
    await w.edits(60);
    await until(() => of(ck, w.draftId).length === 2, 'two ops snapshots');
    expect(of(ck, w.draftId).map((r) => r.version)).toEqual([24, 49]); // ops, not steps: v1 holds two
    const cold = await loadDraft(store, w.draftId);
    expect(cold.snapshotVersion).toBe(49);
    expect(cold.version).toBe(61);
    expect(cold.draft).toEqual((await fullReplay(store, w.draftId)).draft);
    for (const v of [10, 24, 25, 49, 50, 61]) expect((await loadDraft(store, w.draftId, v)).draft.title).toBe(`title ${v}`);
  });
});
