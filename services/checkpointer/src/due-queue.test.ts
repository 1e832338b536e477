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

  it('refuses a batch size that is not a positive integer, and a rate that is not positive', () => {
    for (const n of [0, -1, 1.5, Number.NaN]) expect(() => new DueQueue(n, async () => [])).toThrow(RangeError);
    for (const r of [0, -5, Number.NaN]) expect(() => new DueQueue(10, async () => [], r)).toThrow(RangeError);
  });

  it('paced: a burst runs in batches of a tenth of a second\'s share, spread at the rate', async () => {
    const starts: { at: number; n: number }[] = [];
    const q = new DueQueue<number, number>(100, async (items) => { starts.push({ at: performance.now(), n: items.length }); return items; }, 200);
    const t0 = performance.now();
    const keys = Array.from({ length: 60 }, (_, i) => i);
    expect(await Promise.all(keys.map((i) => q.add(`k${i}`, i)))).toEqual(keys);
    // 200 per second: batches of 20, the next one 100 ms after the last began.
    expect(starts.map((s) => s.n)).toEqual([20, 20, 20]);
    const gaps = starts.slice(1).map((s, i) => s.at - starts[i]!.at);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(95);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
  });

  it('paced: hurry() runs what waits at once, at full batch size, and pacing resumes after', async () => {
    const sizes: number[] = [];
    const q = new DueQueue<number, number>(100, async (items) => { sizes.push(items.length); return items; }, 10); // batches of 1, 100 ms apart
    const burst = Array.from({ length: 50 }, (_, i) => q.add(`k${i}`, i));
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 30)); // the first batch ran; the queue pauses
    await q.hurry(() => q.idle());
    await Promise.all(burst);
    expect(performance.now() - t0).toBeLessThan(1000); // paced, 50 items at 10 per second take 5 s
    expect(sizes[0]).toBe(1);
    expect(sizes.slice(1)).toEqual([49]);
    // Paced again: two items come 100 ms apart.
    sizes.length = 0;
    const t1 = performance.now();
    await Promise.all([q.add('a', 1), q.add('b', 2)]);
    expect(sizes).toEqual([1, 1]);
    expect(performance.now() - t1).toBeGreaterThanOrEqual(95);
  });

  it('paced: a batch that throws still counts against the rate', async () => {
    const starts: number[] = [];
    const q = new DueQueue<number, number>(100, async () => { starts.push(performance.now()); throw new Error('down'); }, 10);
    const r = await Promise.allSettled([q.add('a', 1), q.add('b', 2)]);
    expect(r.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(95);
  });
});
