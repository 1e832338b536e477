// How the SDK sends one HTTP request: a timeout per attempt, retries with jittered exponential
// backoff, and failover across several base URLs (the next URL after a failure; the last one that
// answered is tried first). Only requests that are safe to send twice are retried: reads, and
// writes that carry an opId (the server answers a repeated opId with the original result).
// Any request moves on to the next URL when the connection could not even be made (the request
// never left), so a dead node is skipped for every call.

export interface TransportOptions {
  /** Per attempt, ms (default 10 000). */
  timeoutMs?: number;
  /** Attempts after the first, for retryable failures (default 4). */
  retries?: number;
  /** First backoff, ms (default 200); doubles per attempt up to maxBackoffMs (default 5 000). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Injected for tests: fetch, randomness in [0, 1), sleep. */
  fetch?: typeof fetch;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Network errors, timeouts, and answers that say "try again" (502, 503, 504; 429 after Retry-After). */
const RETRY_STATUS = new Set([429, 502, 503, 504]);
/** Failures before a byte was sent: safe to send elsewhere whatever the request. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const notConnected = (e: unknown): boolean => {
  const code = (e as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && NOT_CONNECTED.has(code);
};

export class Transport {
  readonly urls: readonly string[];
  private current = 0;
  private readonly o: Required<Omit<TransportOptions, 'fetch'>> & { fetch: typeof fetch };

  constructor(urls: string | readonly string[], opts: TransportOptions = {}) {
    const list = (typeof urls === 'string' ? [urls] : [...urls]).map((u) => u.replace(/\/+$/, ''));
    if (list.length === 0) throw new TypeError('WeftHttpClient needs at least one base URL');
    for (const u of list) if (!/^https?:\/\//.test(u)) throw new TypeError(`not an http(s) URL: ${u}`);
    this.urls = list;
    this.o = {
      timeoutMs: opts.timeoutMs ?? 10_000, retries: opts.retries ?? 4, backoffMs: opts.backoffMs ?? 200, maxBackoffMs: opts.maxBackoffMs ?? 5_000,
      fetch: opts.fetch ?? ((...a) => fetch(...a)), random: opts.random ?? Math.random, sleep: opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    };
  }

  /** The base URL requests go to first (the last one that answered). */
  get baseUrl(): string {
    return this.urls[this.current]!;
  }

  /** After a failure outside send() (a broken stream): the next URL becomes the first. */
  skip(): void {
    this.current = (this.current + 1) % this.urls.length;
  }

  /**
   * Sends `init` to `path` on one base URL after another until an answer that is not retryable.
   * `retryable`: whether sending it twice is harmless. A 429 or 5xx answer that stays after the
   * last attempt is returned (the caller turns it into a WeftError); a network error is thrown.
   */
  async send(path: string, init: RequestInit, retryable: boolean, signal?: AbortSignal): Promise<Response> {
    const attempts = retryable ? this.o.retries + 1 : this.urls.length;
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const i = (this.current + attempt) % this.urls.length;
      const timeout = AbortSignal.timeout(this.o.timeoutMs);
      const s = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let wait: number | null = null;
      try {
        const res = await this.o.fetch(this.urls[i]! + path, { ...init, signal: s });
        if (!retryable || !RETRY_STATUS.has(res.status) || attempt === attempts - 1) {
          this.current = i;
          return res;
        }
        const after = Number(res.headers.get('retry-after'));
        if (res.status === 429 && Number.isFinite(after) && after > 0) wait = after * 1000;
        await res.body?.cancel();
        lastError = new Error(`HTTP ${res.status} from ${this.urls[i]}`);
      } catch (e) {
        if (signal?.aborted) throw e; // the caller gave up: no retry
        if (!retryable && !notConnected(e)) throw e; // it may have arrived: never sent twice
        lastError = e;
        if (attempt === attempts - 1) break;
        if (!retryable) continue; // the next URL at once
      }
      // Full jitter: anywhere in [backoff/2, backoff), so many clients do not retry in step.
      const backoff = Math.min(this.o.maxBackoffMs, this.o.backoffMs * 2 ** attempt);
      await this.o.sleep(wait ?? backoff * (0.5 + this.o.random() / 2));
    }
    throw lastError;
  }
}
