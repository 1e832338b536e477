// The dispatcher's Prometheus metrics (prom-client), on the registry its shell serves at /metrics.
import { Counter, Histogram } from '@weft/ops';
import type { Registry } from '@weft/ops';

export interface WebhookMetrics {
  attempt(outcome: 'delivered' | 'retry' | 'failed', seconds: number): void;
  fannedOut(steps: number, deliveries: number): void;
}

export function webhookMetrics(registry: Registry): WebhookMetrics {
  const registers = [registry];
  const attempts = new Counter({ name: 'weft_webhook_attempts_total', help: 'Delivery attempts by outcome: delivered (2xx), retry (failed, tried again later), failed (failed for good)', labelNames: ['outcome'] as const, registers });
  const seconds = new Histogram({ name: 'weft_webhook_attempt_seconds', help: 'One delivery attempt, from connect to the answer, by outcome', labelNames: ['outcome'] as const, buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers });
  const steps = new Counter({ name: 'weft_webhook_log_steps_total', help: 'Log steps turned into deliveries (fan-out)', registers });
  const queued = new Counter({ name: 'weft_webhook_deliveries_queued_total', help: 'Deliveries created (one per matching endpoint and event)', registers });
  for (const o of ['delivered', 'retry', 'failed'] as const) { attempts.inc({ outcome: o }, 0); seconds.zero({ outcome: o }); }
  return {
    attempt(outcome, s) { attempts.inc({ outcome }); seconds.observe({ outcome }, s); },
    fannedOut(n, d) { steps.inc(n); queued.inc(d); },
  };
}
