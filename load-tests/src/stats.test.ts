import { describe, expect, it } from 'vitest';
import { medianSpread, percentile, summarize } from './stats.ts';

describe('stats', () => {
  it('nearest-rank percentiles over the whole sample', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    const s = summarize(xs);
    expect(s).toMatchObject({ n: 100, p50: 50, p99: 99, max: 100 });
    expect(percentile([7], 99.9)).toBe(7);
    expect(Number.isNaN(summarize([]).p50)).toBe(true);
  });
  it('median and spread of repeated runs', () => {
    expect(medianSpread([3, 1, 2, 10, 4])).toEqual({ median: 3, min: 1, max: 10 });
  });
});
