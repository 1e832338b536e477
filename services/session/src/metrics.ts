// The session's Prometheus metrics (prom-client), declared up front so every series exists from
// the first scrape; units in the names (_seconds, _total, counts for batch sizes), labels only
// where they tell something and stay few (outcome, error code, rule, close code).
import { Counter, createRegistry, Gauge, Histogram, LATENCY_BUCKETS } from '@weft/ops';
import type { Registry } from '@weft/ops';

export type Metrics = ReturnType<typeof sessionMetrics>;

/** `registry`: shared with the other services of the process (`npm start`); default its own. */
export function sessionMetrics(registry: Registry = createRegistry()) {
  const registers = [registry];
  return {
    registry,
    stepsCommitted: new Counter({ name: 'weft_steps_committed_total', help: 'Steps committed to the log', registers }),
    commitBatchSteps: new Histogram({ name: 'weft_commit_batch_steps', help: 'Steps per room commit (one draft\'s batch; the cross-draft statements are weft_group_commit_*_total)', buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256], registers }),
    opsApplied: new Counter({ name: 'weft_ops_applied_total', help: 'Ops applied', registers }),
    opsRefused: new Counter({ name: 'weft_ops_refused_total', help: 'Ops refused, by rule', labelNames: ['rule'] as const, registers }),
    /** outcome: ok, or the error code of the answer (VERSION_CONFLICT, RATE_LIMITED, …). */
    ackSeconds: new Histogram({ name: 'weft_ack_seconds', help: 'Op submit (HTTP and MCP) to acknowledgement, commit included, by outcome', labelNames: ['outcome'] as const, buckets: LATENCY_BUCKETS, registers }),
    fanoutSeconds: new Histogram({ name: 'weft_fanout_seconds', help: 'Commit to the notification acknowledged by the bus, by outcome (failed: consumers refill from the log)', labelNames: ['outcome'] as const, buckets: LATENCY_BUCKETS, registers }),
    httpErrors: new Counter({ name: 'weft_http_errors_total', help: 'HTTP requests answered with a typed error, by error code (UNAVAILABLE: the database was unreachable; INTERNAL: a bug)', labelNames: ['code'] as const, registers }),
    yjsEpochs: new Counter({ name: 'weft_yjs_epochs_total', help: 'Yjs epochs started (lineage compactions)', registers }),
    yjsClosed: new Counter({ name: 'weft_yjs_closed_total', help: 'Yjs connections closed for malformed, oversized or forged updates, by WebSocket close code (epoch changes are not counted)', labelNames: ['code'] as const, registers }),
    yjsRefused: new Counter({ name: 'weft_yjs_refused_total', help: 'Peer Yjs updates reverted', registers }),
    mcpRequests: new Counter({ name: 'weft_mcp_requests_total', help: 'MCP requests over HTTP', registers }),
    yjsAwarenessDropped: new Counter({ name: 'weft_yjs_awareness_dropped_total', help: 'Awareness states dropped (over the per-connection caps, or in another actor\'s client id)', registers }),
    revokedClosed: new Counter({ name: 'weft_revoked_closed_total', help: 'Live connections ended because their token was revoked or expired, by door', labelNames: ['door'] as const, registers }),
    readerActions: new Counter({ name: 'weft_reader_actions_total', help: 'Reader actions received (POST /v1/drafts/:id/actions)', registers }),
    busPublishFailed: new Counter({ name: 'weft_bus_publish_failed_total', help: 'Notifications the bus did not take (consumers refill from the log; the relay republishes steps)', registers }),
    /** A gauge read at scrape time (rooms, streams, sessions). */
    gauge(name: string, help: string, read: () => number): void {
      new Gauge({ name, help, registers, collect() { this.set(read()); } });
    },
    /** A count kept elsewhere (monotonic), read at scrape time and published as a counter. */
    counter(name: string, help: string, read: () => number): void {
      let seen = 0;
      new Counter({ name, help, registers, collect() { const v = read(); if (v > seen) this.inc(v - seen); seen = Math.max(seen, v); } });
    },
    /** A constant 1 whose labels say what this process is (`weft_node_info{node="…"} 1`). */
    info(name: string, help: string, labels: Record<string, string>): void {
      new Gauge({ name, help, labelNames: Object.keys(labels), registers }).set(labels, 1);
    },
    render: (): Promise<string> => registry.metrics(),
  };
}
