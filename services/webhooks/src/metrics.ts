// The dispatcher's Prometheus metrics (prom-client), on the registry its shell serves at /metrics.
import { Counter, Gauge, Histogram } from '@weft/ops';
import type { Registry } from '@weft/ops';

export interface WebhookMetrics {
  attempt(outcome: 'delivered' | 'retry' | 'failed', seconds: number): void;
  fannedOut(steps: number, deliveries: number): void;
}

/** `pending`: the backlog, read at each scrape. */
export function webhookMetrics(registry: Registry, pending?: () => Promise<number>): WebhookMetrics {
  const registers = [registry];
  const attempts = new Counter({ name: 'weft_webhook_attempts_total', help: 'Delivery attempts by outcome: delivered (2xx), retry (failed, tried again later), failed (failed for good)', labelNames: ['outcome'] as const, registers });
  const seconds = new Histogram({ name: 'weft_webhook_attempt_seconds', help: 'One delivery attempt, from connect to the answer, by outcome', labelNames: ['outcome'] as const, buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers });
  const steps = new Counter({ name: 'weft_webhook_log_steps_total', help: 'Log steps turned into deliveries (fan-out)', registers });
  const queued = new Counter({ name: 'weft_webhook_deliveries_queued_total', help: 'Deliveries created (one per matching endpoint and event)', registers });
  if (pending) {
    new Gauge({ name: 'weft_webhook_deliveries_pending', help: 'Deliveries waiting to be sent (due now or retrying later)', registers, async collect() { this.set(await pending().catch(() => Number.NaN)); } });
  }
  for (const o of ['delivered', 'retry', 'failed'] as const) { attempts.inc({ outcome: o }, 0); seconds.zero({ outcome: o }); }
  return {
    attempt(outcome, s) { attempts.inc({ outcome }); seconds.observe({ outcome }, s); },
    fannedOut(n, d) { steps.inc(n); queued.inc(d); },
  };
}
