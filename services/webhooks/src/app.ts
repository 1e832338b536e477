// The webhook dispatcher (ARCHITECTURE.md "Webhooks"): turns the log's committed steps into
// delivery rows (the cursor over the log, one node at a time), then claims due deliveries and
// sends them, signed, with retries. Everything it knows is in Postgres, so any number of
// dispatchers can run and a restart resumes where the rows say: a delivery row is unique per
// endpoint and event id, and a claim is a row lock taken with SKIP LOCKED that expires by itself.
import type { Bus, Subscription } from '@weft/bus';
import type { Logger } from '@weft/ops';
import { createLogger } from '@weft/ops';
import type { AttemptOutcome, ClaimedDelivery, WebhookStore } from '@weft/store';
import { retryDelayS } from './backoff.ts';
import type { WebhooksConfig } from './config.ts';
import type { WebhookMetrics } from './metrics.ts';
import { sendOnce } from './send.ts';
import type { SendResult } from './send.ts';

export interface DispatcherDeps {
  store: WebhookStore;
  /** Optional: a committed version wakes the dispatcher at once instead of at the next poll. */
  bus?: Pick<Bus, 'subscribe'>;
  log?: Logger;
  metrics?: WebhookMetrics;
  random?: () => number;
}

export interface Dispatcher {
  /** Starts the loop (the first round runs at once). */
  run(): Promise<void>;
  /** Stops claiming; waits for the attempts in flight (each bounded by the timeout). */
  stop(): Promise<void>;
}

export function build(deps: DispatcherDeps, config: WebhooksConfig): Dispatcher {
  const { store } = deps;
  const log = deps.log ?? createLogger({ service: 'webhooks' });
  const random = deps.random ?? Math.random;
  const policy = { allowPrivate: config.allowPrivate };
  // A claim outlives the attempt it covers: a dispatcher that dies mid-send leaves the row due again after this.
  const leaseS = Math.ceil(config.timeoutMs / 1000) + 30;
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let pruner: NodeJS.Timeout | null = null;
  let subscription: Subscription | null = null;
  let round: Promise<void> | null = null;
  let again = false;
  let fanOutAgain = false;
  let stopped = true;

  /** What an attempt's result means for the row: delivered, tried again after a backoff, or failed for good. */
  const outcomeOf = (c: ClaimedDelivery, r: SendResult): AttemptOutcome => {
    if (r.ok) return { result: 'delivered', status: r.status, ms: r.ms };
    const answered = r.status !== undefined ? { status: r.status } : {};
    if (r.final || c.attempt >= config.maxAttempts) return { result: 'failed', ...answered, error: r.error, ms: r.ms };
    // A receiver's Retry-After (429, 503) is honoured when longer than the backoff, up to the longest delay.
    const backoff = retryDelayS(c.attempt, { baseMs: config.backoffBaseMs, maxMs: config.backoffMaxMs }, random);
    const retryInS = Math.max(backoff, Math.min(r.retryAfterS ?? 0, config.backoffMaxMs / 1000));
    return { result: 'retry', retryInS, ...answered, error: r.error, ms: r.ms };
  };

  const attempt = async (c: ClaimedDelivery): Promise<void> => {
    const r: SendResult = await sendOnce(c, { timeoutMs: config.timeoutMs, policy }).catch((e: unknown) => ({ ok: false as const, error: String(e), final: false, ms: 0 }));
    const outcome = outcomeOf(c, r);
    deps.metrics?.attempt(outcome.result, r.ms / 1000);
    const fields = { deliveryId: c.id, endpointId: c.endpointId, eventId: c.eventId, attempt: c.attempt, outcome: outcome.result, status: outcome.status ?? null, ms: Math.round(r.ms) };
    if (outcome.result === 'failed') log.warn('webhook delivery failed for good', { ...fields, error: outcome.error });
    else if (outcome.result === 'retry') log.info('webhook attempt failed; retrying', { ...fields, error: outcome.error, retryInS: Math.round(outcome.retryInS) });
    else log.debug('webhook delivered', fields);
    if (!r.ok && r.gone) {
      // Standard Webhooks: 410 Gone means the receiver wants no more; the endpoint is disabled until enabled again.
      if (await store.disableEndpoint(c.endpointId, `${r.error} (${new Date().toISOString()})`)) log.warn('webhook endpoint disabled: it answered 410 Gone', fields);
    }
    if (!(await record(c, outcome))) log.info('webhook attempt outcome dropped: the delivery was claimed again meanwhile', fields);
  };

  // Outcomes are written in batches (one UPDATE per ~10 ms or 64 outcomes, not one commit per delivery).
  let pending: { claim: ClaimedDelivery; outcome: AttemptOutcome; done: (ok: boolean) => void; fail: (e: unknown) => void }[] = [];
  let flushTimer: NodeJS.Timeout | null = null;
  const flush = async (): Promise<void> => {
    if (flushTimer) { clearTimeout(flushTimer); flushTimer = null; }
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      const recorded = await store.recordAttempts(batch);
      for (const b of batch) b.done(recorded.has(b.claim.id));
    } catch (e) {
      for (const b of batch) b.fail(e);
    }
  };
  const record = (claim: ClaimedDelivery, outcome: AttemptOutcome): Promise<boolean> => new Promise((done, fail) => {
    pending.push({ claim, outcome, done, fail });
    if (pending.length >= 64) void flush();
    else flushTimer ??= setTimeout(() => void flush(), 10);
  });

  /** Fans the log out, then claims as many due deliveries as there are free slots and starts them (not awaited: a slow receiver holds only its own slot). */
  const once = async (fanOut: boolean): Promise<void> => {
    for (let i = 0; fanOut && i < 50 && !stopped; i++) {
      const r = await store.fanOutLog();
      if (r === null || r.steps === 0) break;
      deps.metrics?.fannedOut(r.steps, r.deliveries);
      if (r.steps < 200) break;
    }
    const free = config.concurrency - inFlight.size;
    if (free <= 0 || stopped) return;
    const claimed = await store.claimDue(free, leaseS);
    // Every slot taken: more may be due, so once half the slots are free again the next claim
    // follows at once (one claim statement per batch, not per delivery).
    const saturated = claimed.length === free;
    for (const c of claimed) {
      const p: Promise<void> = attempt(c).catch((e: unknown) => log.error('webhook attempt not recorded (due again after its claim expires)', { deliveryId: c.id, err: e }))
        .finally(() => { inFlight.delete(p); if (saturated && !stopped && inFlight.size <= config.concurrency / 2) kick(false); });
      inFlight.add(p);
    }
  };

  /** One round at a time; `fanOut`: also read the log (polls and bus wake-ups; a freed slot only claims). */
  const tick = (fanOut: boolean): Promise<void> => {
    if (round) { again ||= true; fanOutAgain ||= fanOut; return round; }
    round = (async () => {
      let withLog = fanOut;
      do {
        again = false;
        try {
          await once(withLog);
        } catch (e) {
          log.warn('webhook round failed (retried on the next poll)', { err: e });
        }
        withLog = fanOutAgain;
        fanOutAgain = false;
      } while (again && !stopped);
    })().finally(() => { round = null; });
    return round;
  };
  const kick = (fanOut = true): void => { void tick(fanOut); };

  /** Delivered and failed rows older than the retention go, a batch at a time. */
  const prune = async (): Promise<void> => {
    try {
      let n = 0;
      for (let i = 0; i < 100 && !stopped; i++) {
        const gone = await store.pruneDeliveries(config.retentionDays, 1000);
        n += gone;
        if (gone < 1000) break;
      }
      if (n > 0) log.info('webhook delivery log pruned', { deleted: n, retentionDays: config.retentionDays });
    } catch (e) {
      log.warn('webhook delivery log prune failed (tried again in an hour)', { err: e });
    }
  };

  return {
    async run() {
      if (!stopped) return;
      stopped = false;
      subscription = deps.bus?.subscribe('all', () => kick()) ?? null;
      timer = setInterval(() => kick(), config.pollMs);
      timer.unref();
      pruner = setInterval(() => void prune(), 3_600_000);
      pruner.unref();
      kick();
      void prune();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (pruner) clearInterval(pruner);
      timer = null;
      pruner = null;
      subscription?.unsubscribe();
      subscription = null;
      await round;
      await Promise.all([...inFlight]);
    },
  };
}
