import { allViewersLatency } from '../src/gen/pool.ts';
import type { GenResult } from '../src/gen/messages.ts';
import { fmt, fmtSummary, summarize } from '../src/stats.ts';
import type { Summary } from '../src/stats.ts';

export interface RoomFigures { opsPerSec: number; ack: Summary; allViewers: Summary; delivery: Summary; errors: Record<string, number> }

/** A room scenario's figures over every generator process, printed as one line through `out`. */
export function roomFigures(out: (s: string) => void, label: string, results: GenResult[], secs: number): RoomFigures {
  const acked = results.reduce((s, r) => s + r.acked, 0);
  const first = Math.min(...results.filter((r) => r.firstAck).map((r) => r.firstAck));
  const last = Math.max(...results.map((r) => r.lastAck));
  const opsPerSec = acked / Math.max(secs, (last - first) / 1000 || secs);
  const errors: Record<string, number> = {};
  for (const r of results) for (const [k, v] of Object.entries(r.errors)) errors[k] = (errors[k] ?? 0) + v;
  const f = { opsPerSec, ack: summarize(results.flatMap((r) => r.ackMs)), allViewers: summarize(allViewersLatency(results)), delivery: summarize(results.flatMap((r) => r.deliveries)), errors };
  const lags = results.flatMap((r) => (r.loopLag ? [r.loopLag] : []));
  const lag = lags.length ? `; generators' own event-loop delay (worst of ${lags.length} processes) p99 ${fmt(Math.max(...lags.map((l) => l.p99)))} ms, max ${fmt(Math.max(...lags.map((l) => l.max)))} ms` : '';
  out(`${label}: ${fmt(opsPerSec)} ops/s; ack ${fmtSummary(f.ack)}; submit→all viewers ${fmtSummary(f.allViewers)}; errors ${JSON.stringify(errors)}${lag}`);
  // A relay run has no acks to rank (each counted as 0 ms).
  const worst = slowestSeconds(results, 3);
  if (worst.length > 1 && worst[0]!.p99 > 0) out(`${label}, by the second its ops were sent (ack p99): slowest ${worst.slice(0, -1).map((w) => `+${w.second}s ${fmt(w.p99)} ms`).join(', ')}; every other second ≤ ${fmt(worst[worst.length - 1]!.p99)} ms`);
  return f;
}

/**
 * The `n` seconds of the run whose acks had the highest p99 (by when the op was sent, from the
 * first op), then the next one: whether a p99 is a steady level or a stall of a second or two.
 */
export function slowestSeconds(results: GenResult[], n: number): { second: number; p99: number }[] {
  const bySecond = new Map<number, number[]>();
  let start = Infinity;
  for (const r of results) for (const at of r.ackSentAt) if (at < start) start = at;
  for (const r of results) {
    r.ackSentAt.forEach((at, i) => {
      const s = Math.floor((at - start) / 1000);
      const list = bySecond.get(s);
      if (list) list.push(r.ackMs[i]!); else bySecond.set(s, [r.ackMs[i]!]);
    });
  }
  return [...bySecond].map(([second, ms]) => ({ second, p99: summarize(ms).p99 })).sort((a, b) => b.p99 - a.p99).slice(0, n + 1);
}
