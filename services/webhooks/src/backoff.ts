// When a failed delivery is tried again: exponential from `baseMs`, capped at `maxMs`, with "equal
// jitter" (half fixed, half random), so receivers coming back from an outage are not hit by every
// sender at the same instant, yet no retry comes sooner than half its step.
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/** Seconds until attempt `attempt + 1`, after attempt `attempt` (1-based) failed; `random` in [0, 1). */
export function retryDelayS(attempt: number, p: BackoffPolicy, random: () => number): number {
  const step = Math.min(p.maxMs, p.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
  return (step / 2 + (step / 2) * random()) / 1000;
}
