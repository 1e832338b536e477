import { describe, expect, it } from 'vitest';
import { lintMetrics } from './prometheus-lint.ts';

describe('lintMetrics', () => {
  it('passes well-formed output, labelled histograms included', () => {
    const text = [
      '# HELP a_seconds A.', '# TYPE a_seconds histogram',
      'a_seconds_bucket{le="1",outcome="ok"} 1', 'a_seconds_bucket{le="+Inf",outcome="ok"} 2', 'a_seconds_sum{outcome="ok"} 3', 'a_seconds_count{outcome="ok"} 2',
      'a_seconds_bucket{le="1",outcome="no"} 0', 'a_seconds_bucket{le="+Inf",outcome="no"} 0', 'a_seconds_sum{outcome="no"} 0', 'a_seconds_count{outcome="no"} 0',
      '# HELP b_total B.', '# TYPE b_total counter', 'b_total{code="X"} 4',
      // An empty event-loop histogram's mean: prom-client writes "Nan", which Prometheus reads.
      '# HELP lag_mean_seconds L.', '# TYPE lag_mean_seconds gauge', 'lag_mean_seconds Nan', '',
    ].join('\n');
    expect(lintMetrics(text).problems).toEqual([]);
  });

  it('names what promtool would: suffixes, units, help, duplicates, broken histograms', () => {
    const text = [
      '# HELP weft_ack_ms A.', '# TYPE weft_ack_ms gauge', 'weft_ack_ms 1',
      '# HELP c C.', '# TYPE c counter', 'c 1',
      '# TYPE g_total gauge', 'g_total 1', 'g_total 2',
      '# HELP v V.', '# TYPE v gauge', 'v{a="1"} many',
      '# HELP h_seconds H.', '# TYPE h_seconds histogram', 'h_seconds_bucket{le="1",x="a"} 2', 'h_seconds_bucket{le="+Inf",x="a"} 1', 'h_seconds_count{x="a"} 3', '',
    ].join('\n');
    expect(lintMetrics(text).problems.sort()).toEqual([
      'c: counter names end in _total',
      'duplicate series g_total{}',
      'g_total: no HELP text',
      'g_total: only counters end in _total',
      'h_seconds{x="a"}: +Inf bucket differs from _count',
      'h_seconds{x="a"}: bucket counts decrease',
      'h_seconds{x="a"}: no _sum',
      'v: non-numeric value many',
      'weft_ack_ms: use base units spelled out (seconds, bytes), not abbreviations',
    ]);
  });
});
