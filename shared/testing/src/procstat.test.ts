import { describe, expect, it } from 'vitest';
import { cpuCores, parseStatTicks, parseStatusRss, sampleProc } from './procstat.ts';

describe('procstat', () => {
  it('reads utime+stime even when the command has spaces and parens', () => {
    const stat = '4242 (node (weft) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 11 0 100 1000 200';
    expect(parseStatTicks(stat)).toBe(325);
  });
  it('reads VmRSS in bytes', () => {
    expect(parseStatusRss('Name:\tnode\nVmRSS:\t  123456 kB\nThreads: 7\n')).toBe(123456 * 1024);
  });
  it('samples this process and computes cores used', () => {
    const a = sampleProc(process.pid);
    const t = Date.now();
    while (Date.now() - t < 60) { /* spin so some CPU is used */ }
    const b = sampleProc(process.pid);
    expect(a.rssBytes).toBeGreaterThan(1024 * 1024);
    expect(b.cpuTicks).toBeGreaterThanOrEqual(a.cpuTicks);
    expect(cpuCores(a, { ...a, cpuTicks: a.cpuTicks + 50, at: a.at + 1000 })).toBeCloseTo(0.5);
  });
});
