// The preview's Prometheus metrics (prom-client), on the registry its shell serves at /metrics.
import { Counter, Gauge, Histogram, LATENCY_BUCKETS } from '@weft/ops';
import type { Registry } from '@weft/ops';

export interface PreviewMetrics {
  versionsApplied: Counter;
  applySeconds: Histogram;
  renderErrors: Counter;
}

/** `read`: the live numbers, sampled at scrape time. */
export function previewMetrics(registry: Registry, read: { drafts(): number; streams(): number }): PreviewMetrics {
  const registers = [registry];
  new Gauge({ name: 'weft_preview_drafts_loaded', help: 'Drafts materialized in memory', registers, collect() { this.set(read.drafts()); } });
  new Gauge({ name: 'weft_preview_streams_open', help: 'Open live-page SSE streams', registers, collect() { this.set(read.streams()); } });
  return {
    versionsApplied: new Counter({ name: 'weft_preview_versions_applied_total', help: 'Committed versions applied to a loaded draft (bus or catch-up from the log)', registers }),
    applySeconds: new Histogram({ name: 'weft_preview_apply_seconds', help: 'Applying one version to a loaded draft (changed sections re-rendered)', buckets: LATENCY_BUCKETS, registers }),
    renderErrors: new Counter({ name: 'weft_preview_errors_total', help: 'Preview requests or follows that failed unexpectedly', labelNames: ['where'] as const, registers }),
  };
}
