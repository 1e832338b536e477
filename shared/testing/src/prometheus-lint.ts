// `promtool check metrics` in JavaScript, for tests of /metrics. parse-prometheus-text-format
// parses the exposition text (it throws on malformed lines) into families; promtool's lint rules
// and ours run on those — HELP and TYPE on every family, counters end in _total and nothing else
// does, no abbreviated units (ms, secs, kb…), valid label names — and on the raw sample lines,
// because the parser folds a labelled histogram's series into one: unique series, and per
// histogram series ascending cumulative buckets ending in +Inf = _count, with a _sum.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { PromFamily } from 'parse-prometheus-text-format';

export type { PromFamily };

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const ABBREVIATED_UNIT = /_(ms|msec|millis|milliseconds|us|usec|micros|ns|secs?|kb|mb|gb|kib|mib|gib)(_|$)/;
/** prom-client's default gauges named *_total (Node's active handles/requests/resources): not ours to rename. */
const THIRD_PARTY_TOTAL_GAUGES = /^nodejs_active_(handles|requests|resources)_total$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$/;
const LABEL_PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
/** Sample values as Prometheus parses them (Go's ParseFloat: NaN and ±Inf in any case; prom-client writes "Nan"). */
const isFloat = (v: string): boolean => /^(nan|[+-]?inf(inity)?)$/i.test(v) || (v.trim() !== '' && !Number.isNaN(Number(v)));

export function lintMetrics(text: string): { families: PromFamily[]; problems: string[] } {
  const families = parsePrometheusTextFormat(text);
  const problems: string[] = [];
  const types = new Map(families.map((f) => [f.name, f.type]));
  for (const f of families) {
    const p = (msg: string): void => { problems.push(`${f.name}: ${msg}`); };
    if (!NAME.test(f.name)) p('invalid metric name');
    if (!f.help.trim()) p('no HELP text');
    if (f.type === 'UNTYPED') p('no TYPE');
    if (f.type === 'COUNTER' && !f.name.endsWith('_total')) p('counter names end in _total');
    if (f.type !== 'COUNTER' && f.name.endsWith('_total') && !THIRD_PARTY_TOTAL_GAUGES.test(f.name)) p('only counters end in _total');
    if (ABBREVIATED_UNIT.test(f.name)) p('use base units spelled out (seconds, bytes), not abbreviations');
  }

  const seen = new Set<string>();
  /** histogram name → series (labels without le) → buckets, sum, count. */
  const hist = new Map<string, Map<string, { buckets: [number, number][]; sum?: number; count?: number }>>();
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) { problems.push(`unparsable sample line: ${line}`); continue; }
    const [, name, rawLabels = '', value] = m as unknown as [string, string, string | undefined, string];
    const labels = [...rawLabels.matchAll(LABEL_PAIR)].map((x) => [x[1]!, x[2]!] as const);
    for (const [l] of labels) if (!LABEL.test(l) || l.startsWith('__')) problems.push(`${name}: invalid or reserved label name "${l}"`);
    const key = `${name}{${labels.map(([k, v]) => `${k}="${v}"`).sort().join(',')}}`;
    if (seen.has(key)) problems.push(`duplicate series ${key}`);
    seen.add(key);
    const base = name.replace(/_(bucket|sum|count)$/, '');
    if (types.get(base) !== 'HISTOGRAM' || base === name) {
      if (!isFloat(value)) problems.push(`${name}: non-numeric value ${value}`);
      continue;
    }
    const series = labels.filter(([k]) => k !== 'le').map(([k, v]) => `${k}="${v}"`).sort().join(',');
    const byName = hist.get(base) ?? new Map();
    hist.set(base, byName);
    const s = byName.get(series) ?? { buckets: [] };
    byName.set(series, s);
    if (name.endsWith('_bucket')) {
      const le = labels.find(([k]) => k === 'le')?.[1];
      if (le === undefined) problems.push(`${name}{${series}}: bucket without le`);
      else s.buckets.push([le === '+Inf' ? Infinity : Number(le), Number(value)]);
    } else if (name.endsWith('_sum')) s.sum = Number(value);
    else s.count = Number(value);
  }
  for (const [name, byName] of hist) {
    for (const [series, s] of byName) {
      const p = (msg: string): void => { problems.push(`${name}{${series}}: ${msg}`); };
      const b = [...s.buckets].sort((x, y) => x[0] - y[0]);
      if (b.at(-1)?.[0] !== Infinity) p('no +Inf bucket');
      else if (b.at(-1)![1] !== s.count) p('+Inf bucket differs from _count');
      for (let i = 1; i < b.length; i++) if (b[i]![1] < b[i - 1]![1]) p('bucket counts decrease');
      if (s.sum === undefined || Number.isNaN(s.sum)) p('no _sum');
    }
  }
  return { families, problems };
}
