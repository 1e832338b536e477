// At-least-once fan-out: a crash between COMMIT and publish loses no notification (the relay
// republishes from the log past each draft's outbox cursor), and live commits move the cursor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBus } from '@weft/bus';
import type { BusMessage } from '@weft/bus';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { EventStore } from '@weft/store';
import { silentLogger } from '@weft/ops';
import { Relay } from '../src/live/relay.ts';
import { addSectionOps, startTestSession } from './helpers.ts';

const until = async (f: () => boolean | Promise<boolean>, what: string): Promise<void> => {
  for (let i = 0; i < 400; i++) {
    if (await f()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('the outbox relay', () => {
  let t: TestDatabase;
  let store: EventStore;
  beforeAll(async () => { t = await createTestDatabase(); store = new EventStore(t.db); });
  afterAll(async () => { await t.drop(); });

  it('[RY1] steps committed by a process that died before publishing are published at the next start, then the cursor moves', async () => {
    await store.createDraft({ id: 'crashed', title: '', createdBy: 'u' });
    const title = (v: string) => [{ op: 'replace' as const, path: '/title', value: v }];
    const r = await store.append('crashed', 0, ['a', 'b', 'c'].map((id) => ({ opId: id, bodyHash: id, actor: 'u', actorKind: 'human', ops: title(id), inverse: title(''), notes: [], refused: [] })));
    expect(r.ok).toBe(true);
    expect(await store.unpublished()).toContainEqual({ draftId: 'crashed', publishedVersion: 0, headVersion: 3 });
    const bus = createMemoryBus();
    const got: BusMessage[] = [];
    bus.subscribe({ draftId: 'crashed' }, (m) => { got.push(m); });
    const relay = new Relay({ store, bus, log: silentLogger, tickMs: 50 });
    relay.start();
    await until(() => got.length === 3, 'the three notifications');
    expect(got.map((m) => m.version)).toEqual([1, 2, 3]);
    expect(got[0]!.events).toContainEqual(expect.objectContaining({ type: 'STATE_DELTA', delta: title('a') }));
    await until(async () => !(await store.unpublished()).some((d) => d.draftId === 'crashed'), 'the cursor to reach the head');
    await relay.stop();
    await bus.close();
  });

  it('[RY3] a draft whose room closed is forgotten once confirmed, and published on from its cursor when it opens again', async () => {
    await store.createDraft({ id: 'closes', title: '', createdBy: 'u' });
    const title = (v: string) => [{ op: 'replace' as const, path: '/title', value: v }];
    const step = (id: string) => ({ opId: id, bodyHash: id, actor: 'u', actorKind: 'human', ops: title(id), inverse: title(''), notes: [], refused: [] });
    const bus = createMemoryBus();
    const got: number[] = [];
    bus.subscribe({ draftId: 'closes' }, (m) => { got.push(m.version); });
    const relay = new Relay({ store, bus, log: silentLogger, tickMs: 60_000 });
    relay.opened('closes', 0);
    for (const [v, id] of [[1, 'a'], [2, 'b']] as const) {
      expect((await store.append('closes', v - 1, [step(id)])).ok).toBe(true);
      await new Promise<void>((r) => relay.publish('closes', v, [], () => r()));
    }
    relay.closed('closes');
    await relay.tick();
    expect(relay.tracked).toBe(0);
    expect(await store.unpublished()).not.toContainEqual(expect.objectContaining({ draftId: 'closes' }));
    relay.opened('closes', 2);
    expect((await store.append('closes', 2, [step('c')])).ok).toBe(true);
    await new Promise<void>((r) => relay.publish('closes', 3, [], () => r()));
    await relay.tick();
    expect(got).toEqual([1, 2, 3]);
    expect(relay.tracked).toBe(1);
    await relay.stop();
    await bus.close();
  });

  it('[RY2] commits through a running session move the cursor to the head', async () => {
    const s = await startTestSession();
    try {
      await s.admin.createDraft('live', 'Live');
      await s.admin.submit('live', { opId: 'l1', ops: addSectionOps('hero') });
      await s.admin.submit('live', { opId: 'l2', ops: [{ op: 'replace', path: '/title', value: 'L' }] });
      await until(async () => !(await s.store.unpublished()).some((d) => d.draftId === 'live'), 'the live cursor');
      expect((await s.store.getDraft('live'))?.headVersion).toBe(3);
    } finally {
      await s.close();
    }
  });
});
