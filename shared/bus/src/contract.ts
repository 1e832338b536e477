// The one contract every Bus implementation passes (CONVENTIONS.md §13): run by
// memory-bus.test.ts and nats-bus.int.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import type { Bus, BusMessage, DeliveryMeta } from './bus.ts';

const msg = (draftId: string, version: number): BusMessage => ({ draftId, version, events: [{ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/title', value: `v${version}` }] }] });

/** Polls until `cond` holds (hang guard 5 s). */
export async function until(cond: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let counter = 0;
/** A draft id unique to this run, so suites on a shared server do not see each other. */
export const freshDraftId = (): string => `d-${process.pid}-${Date.now().toString(36)}-${counter++}`;

export function busContract(name: string, make: () => Promise<Bus>): void {
  describe(`Bus contract: ${name}`, () => {
    const open: Bus[] = [];
    const bus = async () => { const b = await make(); open.push(b); return b; };
    afterEach(async () => { await Promise.all(open.splice(0).map((b) => b.close())); });

    it('round-trips a message to a draft subscriber and to an all-drafts subscriber', async () => {
      const b = await bus();
      const id = freshDraftId();
      const one: BusMessage[] = [];
      const all: BusMessage[] = [];
      b.subscribe({ draftId: id }, (m) => { one.push(m); });
      b.subscribe('all', (m) => { if (m.draftId === id) all.push(m); });
      await settle(b);
      expect(await b.publish(id, msg(id, 1))).toBe(true);
      await until(() => one.length === 1 && all.length === 1, 'delivery');
      expect(one[0]).toEqual(msg(id, 1));
      expect(all[0]).toEqual(msg(id, 1));
      expect(b.connected).toBe(true);
    });

    it('keeps per-draft order, and a draft subscriber sees only its draft', async () => {
      const b = await bus();
      const [x, y] = [freshDraftId(), freshDraftId()];
      const got: BusMessage[] = [];
      b.subscribe({ draftId: x }, (m) => { got.push(m); });
      await settle(b);
      for (let v = 1; v <= 200; v++) {
        await b.publish(x, msg(x, v));
        await b.publish(y, msg(y, v));
      }
      await until(() => got.length === 200, '200 messages');
      expect(got.map((m) => m.version)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      expect(got.every((m) => m.draftId === x)).toBe(true);
    });

    it('flags a version the subscription already saw as duplicate', async () => {
      const b = await bus();
      const id = freshDraftId();
      const metas: [number, DeliveryMeta][] = [];
      b.subscribe({ draftId: id }, (m, meta) => { metas.push([m.version, meta]); });
      await settle(b);
      for (const v of [1, 2, 2, 1, 3]) await b.publish(id, msg(id, v));
      await until(() => metas.length === 5, '5 messages');
      expect(metas.map(([v, m]) => [v, m.duplicate])).toEqual([[1, false], [2, false], [2, true], [1, true], [3, false]]);
    });

    it('stops delivering after unsubscribe', async () => {
      const b = await bus();
      const id = freshDraftId();
      const a: number[] = [];
      const c: number[] = [];
      const sub = b.subscribe({ draftId: id }, (m) => { a.push(m.version); });
      b.subscribe({ draftId: id }, (m) => { c.push(m.version); });
      await settle(b);
      await b.publish(id, msg(id, 1));
      await until(() => a.length === 1 && c.length === 1, 'first');
      sub.unsubscribe();
      await settle(b);
      await b.publish(id, msg(id, 2));
      await until(() => c.length === 2, 'second');
      expect(a).toEqual([1]);
    });

    it('refuses draft ids that are not safe subject tokens, and mismatched messages', async () => {
      const b = await bus();
      for (const bad of ['a.b', 'a*', '>', 'A', '', 'a b']) {
        await expect(b.publish(bad, msg(bad, 1))).rejects.toThrow(TypeError);
        expect(() => b.subscribe({ draftId: bad }, () => {})).toThrow(TypeError);
      }
      await expect(b.publish('x', msg('y', 1))).rejects.toThrow(TypeError);
      await expect(b.publish('x', msg('x', 0))).rejects.toThrow(TypeError);
    });

    it('a handler that throws does not stop delivery to others', async () => {
      const b = await bus();
      const id = freshDraftId();
      const got: number[] = [];
      b.subscribe({ draftId: id }, () => { throw new Error('boom'); });
      b.subscribe({ draftId: id }, async () => { throw new Error('async boom'); });
      b.subscribe({ draftId: id }, (m) => { got.push(m.version); });
      await settle(b);
      await b.publish(id, msg(id, 1));
      await b.publish(id, msg(id, 2));
      await until(() => got.length === 2, 'delivery');
    });

    it('after close, publish drops (and counts) instead of throwing', async () => {
      const b = await bus();
      const id = freshDraftId();
      await b.close();
      expect(b.connected).toBe(false);
      expect(await b.publish(id, msg(id, 1))).toBe(false);
      expect(b.stats.dropped).toBe(1);
    });
  });
}

/** Subscriptions over a network are live after a round trip to the server. */
async function settle(b: Bus): Promise<void> {
  await b.flush();
}
