// The session second by second, from its /metrics scraped once a second: the event loop's longest
// delay (prom-client resets it at each scrape), GC time, and the cross-draft commit statements
// with their mean time. In a slow second it tells a blocked session (long delay, GC) from slow
// commits (fewer, longer statements: Postgres or the machine's CPU). `--per-second` in many-drafts.ts.

export interface SessionSecond { at: number; loopMaxMs: number; gcMs: number; statements: number; statementMs: number }

interface Sample { at: number; loopMax: number; gc: number; commitSecs: number; statements: number }

const sumOf = (text: string, re: RegExp): number => [...text.matchAll(re)].reduce((a, m) => a + Number(m[1]), 0);

export class SessionSeconds {
  private readonly samples: Sample[] = [];
  private timer: NodeJS.Timeout | null = null;

  private readonly metricsUrl: string;
  private readonly token: string;

  constructor(metricsUrl: string, token: string) {
    this.metricsUrl = metricsUrl;
    this.token = token;
  }

  /** Scrapes now and then every second, for `secs` seconds from `goAt` (ms since the epoch). */
  start(goAt: number, secs: number): void {
    const scrape = (): void => {
      const at = (Date.now() - goAt) / 1000;
      if (at > secs + 0.5 && this.timer) { clearInterval(this.timer); this.timer = null; }
      void fetch(this.metricsUrl, { headers: { authorization: `Bearer ${this.token}` } }).then((r) => r.text()).then((t) => {
        this.samples.push({
          at,
          loopMax: sumOf(t, /^nodejs_eventloop_lag_max_seconds (\S+)$/gm),
          gc: sumOf(t, /^nodejs_gc_duration_seconds_sum\{[^}]*\} (\S+)$/gm),
          commitSecs: sumOf(t, /^weft_group_commit_seconds_total (\S+)$/gm),
          statements: sumOf(t, /^weft_group_commit_statements_total (\S+)$/gm),
        });
      }).catch(() => {}); // a missed scrape leaves a longer interval, nothing more
    };
    scrape();
    this.timer = setInterval(scrape, 1000);
  }

  /** One entry per interval between scrapes, labelled by the second it ends in. */
  seconds(): SessionSecond[] {
    const s = [...this.samples].sort((a, b) => a.at - b.at);
    return s.slice(1).map((b, i) => {
      const a = s[i]!;
      const n = b.statements - a.statements;
      return { at: b.at, loopMaxMs: b.loopMax * 1000, gcMs: (b.gc - a.gc) * 1000, statements: n, statementMs: n > 0 ? ((b.commitSecs - a.commitSecs) / n) * 1000 : 0 };
    });
  }

  /** "+5s loop ≤ 38 ms, GC 49 ms, 411 statements of 3.0 ms", for the seconds asked (by their start). */
  describe(startSeconds: number[]): string {
    const all = this.seconds();
    return startSeconds.map((sec) => {
      const x = all.find((e) => e.at > sec + 0.5 && e.at <= sec + 1.5);
      return x ? `+${sec}s loop max ${x.loopMaxMs.toFixed(0)} ms, GC ${x.gcMs.toFixed(0)} ms, ${x.statements} statements of ${x.statementMs.toFixed(1)} ms` : `+${sec}s (no scrape)`;
    }).join('; ');
  }
}
