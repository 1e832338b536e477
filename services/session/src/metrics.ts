// Prometheus text exposition, hand-rolled: a handful of counters, gauges and one histogram.

const BUCKETS_MS = [0.5, 1, 2, 5, 10, 25, 50, 100, 250, 1000];

export class Metrics {
  private readonly counters = new Map<string, number>();
  private readonly gauges = new Map<string, () => number>();
  private readonly hist = new Map<string, { buckets: number[]; sum: number; count: number }>();
  private readonly help = new Map<string, string>();

  inc(name: string, by = 1, help = ''): void {
    this.counters.set(name, (this.counters.get(name) ?? 0) + by);
    if (help) this.help.set(name, help);
  }

  gauge(name: string, read: () => number, help = ''): void {
    this.gauges.set(name, read);
    if (help) this.help.set(name, help);
  }

  observe(name: string, ms: number, help = ''): void {
    let h = this.hist.get(name);
    if (!h) this.hist.set(name, (h = { buckets: BUCKETS_MS.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < BUCKETS_MS.length; i++) if (ms <= BUCKETS_MS[i]!) h.buckets[i]!++;
    h.sum += ms;
    h.count++;
    if (help) this.help.set(name, help);
  }

  render(): string {
    const lines: string[] = [];
    const head = (n: string, type: string): void => {
      const h = this.help.get(n);
      if (h) lines.push(`# HELP ${n} ${h}`);
      lines.push(`# TYPE ${n} ${type}`);
    };
    for (const [n, v] of this.counters) { head(n, 'counter'); lines.push(`${n} ${v}`); }
    for (const [n, f] of this.gauges) { head(n, 'gauge'); lines.push(`${n} ${f()}`); }
    for (const [n, h] of this.hist) {
      head(n, 'histogram');
      BUCKETS_MS.forEach((b, i) => lines.push(`${n}_bucket{le="${b}"} ${h.buckets[i]}`));
      lines.push(`${n}_bucket{le="+Inf"} ${h.count}`, `${n}_sum ${h.sum}`, `${n}_count ${h.count}`);
    }
    return lines.join('\n') + '\n';
  }
}
