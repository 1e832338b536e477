// Prometheus metrics through prom-client: one registry per process with the process and runtime
// metrics (CPU, memory, handles, GC, event-loop delay) every service shares; each service adds its
// own, declared up front so every series exists from the first scrape.
import { collectDefaultMetrics, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

export function createRegistry(): Registry {
  const registry = new Registry();
  // eventLoopMonitoringPrecision: how often the event-loop delay histogram samples, ms.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  return registry;
}

/** Seconds buckets from 0.5 ms to 10 s: acknowledgement and fan-out latencies. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
