// Sends a run's events to the session (POST /v1/drafts/:id/runs/:runId/events), batched: one
// report in flight, the next one holding whatever arrived meanwhile, and an empty report at least
// every second so the agent learns when someone pressed Stop.
import type { AgUiEvent, CreateRunRequest, ReportEventsResponse, RunView } from '@weft/protocol';

export interface RunReporterOptions {
  sessionUrl: string;
  token: string;
  draftId: string;
  runId: string;
  /** Called once when the session says someone asked to stop the run. */
  onCancel: () => void;
  /** How long events wait to share a report (ms). */
  batchMs?: number;
}

export class RunReporter {
  private readonly o: RunReporterOptions;
  private queue: AgUiEvent[] = [];
  private inFlight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private cancelled = false;
  private closed = false;
  /** The first report the session refused (kept for the run's error). */
  error: string | null = null;

  constructor(o: RunReporterOptions) {
    this.o = o;
  }

  private url(rest = ''): string {
    return `${this.o.sessionUrl}/v1/drafts/${encodeURIComponent(this.o.draftId)}/runs${rest}`;
  }

  /** Opens the run at the session (RUN_STARTED goes out); throws the session's refusal. */
  async open(req: Omit<CreateRunRequest, 'runId'>): Promise<RunView> {
    const r = await fetch(this.url(), { method: 'POST', headers: this.headers(), body: JSON.stringify({ runId: this.o.runId, ...req }) });
    const j = (await r.json().catch(() => null)) as (RunView & { error?: { code: string; message: string } }) | null;
    if (!r.ok || !j) throw Object.assign(new Error(j?.error?.message ?? `the session answered ${r.status}`), { code: j?.error?.code ?? 'INTERNAL', status: r.status });
    this.poll = setInterval(() => { if (!this.inFlight && this.queue.length === 0) this.kick(); }, 1000);
    this.poll.unref();
    return j;
  }

  emit(events: AgUiEvent[]): void {
    if (this.closed) return;
    this.queue.push(...events);
    this.timer ??= setTimeout(() => { this.timer = null; this.kick(); }, this.o.batchMs ?? 40);
  }

  /** Sends what is queued, then the run's last event; answers the turn's summary. */
  async end(last: AgUiEvent): Promise<Record<string, number> | null> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
    while (this.inFlight) await this.inFlight;
    const events = [...this.queue.splice(0), last];
    const r = await this.send(events);
    return r?.summary ?? null;
  }

  private kick(): void {
    if (this.inFlight || this.closed) return;
    const events = this.queue.splice(0, 1000);
    this.inFlight = this.send(events).then(() => undefined).finally(() => {
      this.inFlight = null;
      if (this.queue.length > 0 && !this.closed) this.kick();
    });
  }

  private async send(events: AgUiEvent[]): Promise<ReportEventsResponse | null> {
    try {
      const r = await fetch(this.url(`/${encodeURIComponent(this.o.runId)}/events`), { method: 'POST', headers: this.headers(), body: JSON.stringify({ events }) });
      const j = (await r.json().catch(() => null)) as (ReportEventsResponse & { error?: { message: string } }) | null;
      if (!r.ok || !j) {
        this.error ??= j?.error?.message ?? `the session answered ${r.status}`;
        return null;
      }
      if (j.cancel && !this.cancelled) {
        this.cancelled = true;
        this.o.onCancel();
      }
      return j;
    } catch (e) {
      this.error ??= (e as Error).message;
      return null;
    }
  }

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.o.token}`, 'content-type': 'application/json' };
  }
}
