// Polling helpers for simulations over real sockets: wait for quiescence, then compare.
import { jsonEqual } from '@weft/core';
import type { Json } from '@weft/core';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Resolves once `f()` is true; throws `what` after `ms`. */
export async function until(f: () => boolean | Promise<boolean>, what: string, ms = 10_000, every = 10): Promise<void> {
  const t0 = Date.now();
  while (!(await f())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(every);
  }
}

/**
 * Waits until every value `read()` returns is equal to `target()` and stays so for `stableMs`
 * (a quiet period: nothing still in flight). Returns the labels that still differ on timeout
 * rather than throwing, so the caller can assert with a readable diff.
 */
export async function settle(read: () => Record<string, unknown>, target: () => Promise<unknown>, opts: { timeoutMs?: number; stableMs?: number } = {}): Promise<{ target: unknown; differing: string[] }> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const stableMs = opts.stableMs ?? 250;
  const t0 = Date.now();
  let since = 0;
  let last: unknown = undefined;
  for (;;) {
    const want = await target();
    const got = read();
    const differing = Object.entries(got).filter(([, v]) => !jsonEqual(v as Json, want as Json)).map(([k]) => k);
    const same = differing.length === 0 && last !== undefined && jsonEqual(last as Json, want as Json);
    if (same) {
      if (since === 0) since = Date.now();
      if (Date.now() - since >= stableMs) return { target: want, differing };
    } else since = 0;
    last = want;
    if (Date.now() - t0 > timeoutMs) return { target: want, differing };
    await sleep(25);
  }
}

/** p-th percentile (0..100) of a sorted array of numbers (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/** Where two JSON values differ, as JSON Pointers with both sides (at most `max`). */
export function jsonDiff(a: unknown, b: unknown, max = 10, at = ''): string[] {
  if (jsonEqual(a as Json, b as Json)) return [];
  const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (isObj(a) && isObj(b)) {
    const out: string[] = [];
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (out.length >= max) break;
      out.push(...jsonDiff(a[k], b[k], max - out.length, `${at}/${k}`));
    }
    return out;
  }
  return [`${at || '/'}: ${JSON.stringify(a) ?? 'absent'} ≠ ${JSON.stringify(b) ?? 'absent'}`];
}
