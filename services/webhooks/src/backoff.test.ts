import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryDelayS } from './backoff.ts';

const p = { baseMs: 2000, maxMs: 60_000 };

describe('retryDelayS', () => {
  it('doubles per attempt between half and all of its step, capped', () => {
    expect(retryDelayS(1, p, () => 0)).toBe(1);
    expect(retryDelayS(1, p, () => 0.999999)).toBeCloseTo(2, 3);
    expect(retryDelayS(2, p, () => 0)).toBe(2);
    expect(retryDelayS(3, p, () => 0.5)).toBe(6);
    expect(retryDelayS(30, p, () => 0)).toBe(30);
    expect(retryDelayS(1000, p, () => 0.999999)).toBeCloseTo(60, 3);
  });

  it('is always within [step/2, step) and never grows past maxMs, for any attempt and random draw', () => {
    fc.assert(fc.property(fc.integer({ min: -5, max: 10_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
      const step = Math.min(p.maxMs, p.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30)) / 1000;
      const d = retryDelayS(attempt, p, () => r);
      return Number.isFinite(d) && d >= step / 2 && d <= step;
    }));
  });
});
