// One delivery attempt: a POST of the stored body, signed per Standard Webhooks (webhook-id,
// webhook-timestamp, webhook-signature = v1,base64(HMAC-SHA256(secret, id.timestamp.body))) by the
// standardwebhooks library. Redirects are not followed (a 3xx is a failed attempt), the whole
// exchange is bounded by `timeoutMs`, the connection goes only to a checked address, and at most
// 1 KB of the answer is read (for the log).
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { checkEgressUrl, EgressRefused, guardedLookup } from '@weft/ops';
import type { EgressPolicy } from '@weft/ops';

export interface SendInput {
  url: string;
  /** Each signs (space-separated in webhook-signature): the current secret, and during a rotation the previous one. */
  secrets: readonly string[];
  eventId: string;
  body: string;
}

export type SendResult =
  | { ok: true; status: number; ms: number }
  /**
   * `final`: trying again cannot help (the URL is refused by policy, or the receiver answered 410
   * Gone: `gone`); `retryAfterS`: the receiver's Retry-After (429, 503), in seconds.
   */
  | { ok: false; status?: number; error: string; final: boolean; gone?: true; retryAfterS?: number; ms: number };

export interface SendOptions {
  timeoutMs: number;
  policy: EgressPolicy;
  userAgent?: string;
  now?: () => number;
}

const ANSWER_BYTES = 1024;

/** Retry-After as seconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfter(h: string | undefined, now: number): number | null {
  if (h === undefined) return null;
  const v = h.trim();
  if (/^\d{1,9}$/.test(v)) return Number(v);
  // An HTTP date (IMF-fixdate, e.g. "Tue, 01 Dec 2026 12:01:00 GMT"); Date.parse alone reads "-5" as a year.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(v)) return null;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, (at - now) / 1000);
}

// Connections are kept for the next delivery to the same host; a new socket is only ever opened
// through the guarded lookup below, so a kept one was checked when it was made.
const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 16, timeout: 30_000 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 16, timeout: 30_000 }) };

export async function sendOnce(input: SendInput, o: SendOptions): Promise<SendResult> {
  const t0 = performance.now();
  const ms = (): number => performance.now() - t0;
  let url: URL;
  try {
    url = await checkEgressUrl(input.url, o.policy);
  } catch (e) {
    if (e instanceof EgressRefused) return { ok: false, error: `refused: ${e.message}`, final: true, ms: ms() };
    throw e;
  }
  const at = new Date((o.now ?? Date.now)());
  const signature = input.secrets.map((s) => new Webhook(s).sign(input.eventId, at, input.body)).join(' ');
  const headers = {
    'content-type': 'application/json',
    'user-agent': o.userAgent ?? 'Weft-Webhooks/1',
    'webhook-id': input.eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const done = (r: SendResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = request(url, {
      method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(input.body) },
      lookup: guardedLookup(o.policy) as never, agent: url.protocol === 'https:' ? agents.https : agents.http,
    }, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        if (read < ANSWER_BYTES) chunks.push(c.subarray(0, ANSWER_BYTES - read));
        read += c.length;
        if (read > 64 * 1024) res.destroy(); // a receiver streaming an answer is not our problem
      });
      const finish = (): void => {
        if (status >= 200 && status < 300) return done({ ok: true, status, ms: ms() });
        const answer = Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim().slice(0, 200);
        const what = status >= 300 && status < 400 ? `redirect to ${String(res.headers.location ?? '?').slice(0, 200)} (not followed)` : `HTTP ${status}`;
        const retryAfterS = retryAfter(res.headers['retry-after'], (o.now ?? Date.now)());
        const gone = status === 410 ? { gone: true as const } : {};
        done({ ok: false, status, error: answer === '' ? what : `${what}: ${answer}`, final: status === 410, ...gone, ...(retryAfterS !== null ? { retryAfterS } : {}), ms: ms() });
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${o.timeoutMs} ms`));
    }, o.timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => {
      const final = e instanceof EgressRefused;
      done({ ok: false, error: final ? `refused: ${e.message}` : `${e.code ? `${e.code}: ` : ''}${e.message}`, final, ms: ms() });
    });
    req.end(input.body);
  });
}
