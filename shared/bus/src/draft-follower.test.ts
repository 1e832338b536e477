import { describe, expect, it } from 'vitest';
import { DraftFollower, type VersionEvents } from './draft-follower.ts';
import { createMemoryBus } from './memory-bus.ts';
import type { BusMessage } from './bus.ts';

/** A fake store: versions 1..head per draft, each with one event naming it. */
function store() {
  const heads = new Map<string, number>();
  const refills: [string, number][] = [];
  const rows = (id: string, after: number): VersionEvents[] =>
    Array.from({ length: Math.max(0, (heads.get(id) ?? 0) - after) }, (_, i) => ({ version: after + i + 1, events: [`${id}@${after + i + 1}`] }));
  return {
    heads,
    refills,
    commit(id: string): BusMessage {
      const v = (heads.get(id) ?? 0) + 1;
      heads.set(id, v);
      return { draftId: id, version: v, events: [`${id}@${v}`] };
    },
    async refill(id: string, after: number) { refills.push([id, after]); await tick(); return rows(id, after); },
    async headVersions(ids: readonly string[]) { return new Map(ids.map((id) => [id, heads.get(id) ?? 0])); },
  };
}
const tick = () => new Promise((r) => setTimeout(r, Math.random() * 3));

function follower(s: ReturnType<typeof store>, slow = false) {
  const seen: string[] = [];
  const f = new DraftFollower({
    refill: (id, after) => s.refill(id, after),
    headVersions: (ids) => s.headVersions(ids),
    async handle(id, v) {
      if (slow) await tick();
      seen.push(String(v.events[0]));
    },
  });
  return { f, seen };
}
const expected = (id: string, n: number) => Array.from({ length: n }, (_, i) => `${id}@${i + 1}`);

describe('DraftFollower', () => {
  it('processes each draft strictly in order, even with a slow async handler', async () => {
    const s = store();
    const { f, seen } = follower(s, true);
    for (let i = 0; i < 50; i++) { void f.receive(s.commit('a')); void f.receive(s.commit('b')); }
    await f.idle();
    expect(seen.filter((x) => x.startsWith('a@'))).toEqual(expected('a', 50));
    expect(seen.filter((x) => x.startsWith('b@'))).toEqual(expected('b', 50));
    expect(s.refills).toEqual([]);
  });

  it('drops duplicates (version ≤ last)', async () => {
    const s = store();
    const { f, seen } = follower(s);
    const m1 = s.commit('a');
    const m2 = s.commit('a');
    for (const m of [m1, m1, m2, m1, m2]) void f.receive(m);
    await f.idle();
    expect(seen).toEqual(expected('a', 2));
    expect(f.stats).toMatchObject({ duplicates: 3, handled: 2 });
  });

  it('refills a gap from the store, in order, before the message', async () => {
    const s = store();
    const { f, seen } = follower(s);
    const msgs = Array.from({ length: 10 }, () => s.commit('a'));
    for (const i of [0, 1, 5, 6, 9]) void f.receive(msgs[i]!); // 3-5 and 8-9 lost
    void f.receive(msgs[3]!); // late: now a duplicate
    await f.idle();
    expect(seen).toEqual(expected('a', 10));
    expect(s.refills).toEqual([['a', 2], ['a', 7]]);
    expect(f.stats).toMatchObject({ gaps: 2, handled: 10, refilled: 5, duplicates: 1 });
  });

  it('a handler failure stops the draft at the last good version; the next message refills', async () => {
    const s = store();
    let fail = true;
    const seen: number[] = [];
    const errors: unknown[] = [];
    const f = new DraftFollower({
      refill: (id, after) => s.refill(id, after),
      handle(_id, v) {
        if (v.version === 2 && fail) { fail = false; throw new Error('render failed'); }
        seen.push(v.version);
      },
      onError: (e) => errors.push(e),
    });
    for (let i = 0; i < 3; i++) void f.receive(s.commit('a'));
    await f.idle();
    expect(seen).toEqual([1, 2, 3]); // 2 failed, 3 saw a gap and refilled 2 first
    expect(errors).toHaveLength(1);
    expect(f.lastVersion('a')).toBe(3);
  });

  it('catchUp and head checks bring a draft to the store head without any message', async () => {
    const s = store();
    const { f, seen } = follower(s);
    await f.receive(s.commit('a'));
    for (let i = 0; i < 4; i++) s.commit('a'); // published while the bus was down: never arrive
    await f.checkHeads();
    expect(seen).toEqual(expected('a', 5));
    s.commit('a');
    await f.catchUp('a');
    expect(seen).toEqual(expected('a', 6));
    const stop = f.startHeadChecks(5);
    s.commit('a');
    for (let i = 0; i < 100 && seen.length < 7; i++) await tick();
    stop();
    expect(seen).toEqual(expected('a', 7));
  });

  it('follow() sets the starting point (e.g. a snapshot version)', async () => {
    const s = store();
    const { f, seen } = follower(s);
    for (let i = 0; i < 5; i++) s.commit('a');
    await f.follow('a', 4);
    await f.receive(s.commit('a'));
    expect(seen).toEqual(['a@5', 'a@6']);
  });

  it('over a bus with drops and duplicates, every version is handled once, in order', async () => {
    const s = store();
    const bus = createMemoryBus();
    const { f, seen } = follower(s, true);
    bus.subscribe('all', (m) => f.receive(m));
    let r = 7;
    const rand = () => ((r = (r * 1103515245 + 12345) % 2147483648) / 2147483648);
    const sent: BusMessage[] = [];
    for (let i = 0; i < 300; i++) {
      const m = s.commit(rand() < 0.5 ? 'a' : 'b');
      sent.push(m);
      if (rand() < 0.8) await bus.publish(m.draftId, m); // 20 % lost
      if (rand() < 0.1) { const old = sent[Math.floor(rand() * sent.length)]!; await bus.publish(old.draftId, old); }
    }
    await bus.flush();
    await f.idle();
    await f.checkHeads(); // whatever was lost at the tail
    for (const id of ['a', 'b']) expect(seen.filter((x) => x.startsWith(`${id}@`))).toEqual(expected(id, s.heads.get(id)!));
    await bus.close();
  });
});
