// The checkpointer's Prometheus metrics (prom-client), on the registry its shell serves at /metrics.
import { Counter, Histogram, LATENCY_BUCKETS } from '@weft/ops';
import type { Registry } from '@weft/ops';
import type { CheckpointRecord } from './app.ts';

/** Returns the `onCheckpoint` hook of CheckpointerDeps. */
export function checkpointerMetrics(registry: Registry): (r: CheckpointRecord) => void {
  const registers = [registry];
  const written = new Counter({ name: 'weft_snapshots_written_total', help: 'Snapshots written, by reason (quiet, ops, turn, catchup, drain) and whether the fold was warm', labelNames: ['reason', 'warm'] as const, registers });
  const seconds = new Histogram({ name: 'weft_snapshot_seconds', help: 'The batch a snapshot was written in (snapshots due together share one): load, fold and write', labelNames: ['reason'] as const, buckets: LATENCY_BUCKETS, registers });
  const foldSeconds = new Histogram({ name: 'weft_snapshot_fold_seconds', help: 'The fold alone (replaying steps onto the previous snapshot), without I/O', buckets: LATENCY_BUCKETS, registers });
  return (r) => {
    written.inc({ reason: r.reason, warm: String(r.warm) });
    seconds.observe({ reason: r.reason }, r.ms / 1000);
    foldSeconds.observe(r.foldMs / 1000);
  };
}
