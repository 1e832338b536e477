import { describe, expect, it } from 'vitest';
import { DueQueue } from './due-queue.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('DueQueue', () => {
  it('runs what came due in the same turn as one batch, at most maxBatch keys, each key once per batch and in order', async () => {
    const seen: string[][] = [];
    const q = new DueQueue<string, string>(3, async (items) => { seen.push(items); await tick(); return items.map((i) => `done ${i}`); });
    const answers = Promise.all(['a1', 'b1', 'a2', 'c1', 'd1', 'a3'].map((item) => q.add(item[0]!, item)));
    expect(await answers).toEqual(['done a1', 'done b1', 'done a2', 'done c1', 'done d1', 'done a3']);
    // a waits with three items: one per batch; d, added after a2, comes in the second batch beside it.
    expect(seen).toEqual([['a1', 'b1', 'c1'], ['a2', 'd1'], ['a3']]);
    expect(q.size).toBe(0);
  });

  it('one batch at a time: items added while a batch runs wait for the next one', async () => {
    let running = 0;
    let most = 0;
    const seen: number[][] = [];
    const q = new DueQueue<number, number>(100, async (items) => {
      running++; most = Math.max(most, running);
      seen.push(items);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return items.map((i) => i * 2);
    });
    const first = q.add('k1', 1);
    await tick(); await tick(); // the first batch is running
    const later = [q.add('k2', 2), q.add('k1', 3)];
    expect(await Promise.all([first, ...later])).toEqual([2, 4, 6]);
    expect(most).toBe(1);
    expect(seen).toEqual([[1], [2, 3]]);
  });

  it('an Error answer fails its item alone; a throw fails the whole batch; the queue goes on after either', async () => {
    let calls = 0;
    const q = new DueQueue<string, string>(10, async (items) => {
      calls++;
      if (calls === 2) throw new Error('database down');
      return items.map((i) => (i === 'bad' ? new Error(`no ${i}`) : i));
    });
    const r1 = await Promise.allSettled([q.add('a', 'ok'), q.add('b', 'bad')]);
    expect(r1.map((r) => r.status === 'fulfilled' ? r.value : (r.reason as Error).message)).toEqual(['ok', 'no bad']);
    const r2 = await Promise.allSettled([q.add('a', 'x'), q.add('b', 'y')]);
    expect(r2.map((r) => r.status === 'rejected' ? (r.reason as Error).message : r.value)).toEqual(['database down', 'database down']);
    expect(await q.add('c', 'z')).toBe('z');
    await q.idle();
    expect(q.size).toBe(0);
  });

  it('refuses a batch size that is not a positive integer', () => {
    for (const n of [0, -1, 1.5, Number.NaN]) expect(() => new DueQueue(n, async () => [])).toThrow(RangeError);
  });
});
