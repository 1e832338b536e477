// Latency and rate summaries: percentiles from the full sorted sample (PERFORMANCE.md: never a mean).

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(xs: readonly number[]): Summary {
  const s = Float64Array.from(xs).sort();
  const a = Array.from(s);
  return { n: a.length, p50: percentile(a, 50), p99: percentile(a, 99), p999: percentile(a, 99.9), max: a.length ? a[a.length - 1]! : NaN };
}

/** Median and spread (min..max) of repeated runs. */
export function medianSpread(xs: readonly number[]): { median: number; min: number; max: number } {
  const a = [...xs].sort((x, y) => x - y);
  return { median: percentile(a, 50), min: a[0] ?? NaN, max: a[a.length - 1] ?? NaN };
}

export const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? (Math.abs(n) >= 1000 ? Math.round(n).toLocaleString('en') : n.toFixed(digits)) : 'n/a');

export const fmtSummary = (s: Summary, unit = 'ms'): string => `p50 ${fmt(s.p50)} ${unit}, p99 ${fmt(s.p99)} ${unit}, max ${fmt(s.max)} ${unit} (n=${s.n})`;
