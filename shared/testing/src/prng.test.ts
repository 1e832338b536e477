import { describe, expect, it } from 'vitest';
import { prng, seedFromEnv } from './prng.ts';

describe('prng', () => {
  it('replays the same sequence for the same seed', () => {
    const a = prng(42), b = prng(42);
    const xs = Array.from({ length: 50 }, () => a.int(1000));
    expect(Array.from({ length: 50 }, () => b.int(1000))).toEqual(xs);
    expect(prng(43).int(1_000_000)).not.toBe(prng(42).int(1_000_000));
  });

  it('int stays in range and covers it', () => {
    const r = prng(7);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const x = r.int(10);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(10);
      seen.add(x);
    }
    expect(seen.size).toBe(10);
    expect(() => r.int(0)).toThrow(RangeError);
  });

  it('bool follows p roughly and pick chooses from the array', () => {
    const r = prng(1);
    let n = 0;
    for (let i = 0; i < 10_000; i++) if (r.bool(0.2)) n++;
    expect(n).toBeGreaterThan(1700);
    expect(n).toBeLessThan(2300);
    expect(['a', 'b']).toContain(r.pick(['a', 'b']));
    expect(() => r.pick([])).toThrow(RangeError);
  });

  it('seedFromEnv reads WEFT_SEED to replay a failure', () => {
    expect(seedFromEnv({ WEFT_SEED: '1234' })).toBe(1234);
    expect(() => seedFromEnv({ WEFT_SEED: 'x' })).toThrow();
    expect(Number.isInteger(seedFromEnv({}))).toBe(true);
  });
});
