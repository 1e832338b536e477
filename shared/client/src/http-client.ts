import type { Activity, ActivityInput, Draft, ErrorPayload, Op } from '@weft/core';
import { Transport } from './transport.ts';
import type { TransportOptions } from './transport.ts';
import type {
  CreateWebhookRequest, CreateWebhookResponse, WebhookDeliveriesResponse, WebhookDeliveryStatus, WebhookDeliveryView, WebhookEndpointView,
  AgUiEvent, EventsResponse, MintTokenRequest, MintTokenResponse, OpenSessionResponse, StepView, SubmitOpsResponse, VersionEntry,
} from '@weft/protocol';

/** A typed error from the API: the payload's `code` survives JSON (ErrorCode registry). */
export class WeftError extends Error {
  readonly status: number;
  readonly payload: ErrorPayload;
  constructor(status: number, payload: ErrorPayload) {
    super(`${payload.code}: ${payload.message}`);
    this.status = status;
    this.payload = payload;
  }
  get code(): string {
    return this.payload.code;
  }
}

export interface SubmitInput {
  opId: string;
  ops: unknown[];
  baseVersion?: number;
  turnId?: string;
  sessionId?: string;
}

export type ClientOptions = TransportOptions;

/**
 * The HTTP side of the SDK: one instance per bearer token, over one or several base URLs of the
 * same deployment (failover), with a timeout per attempt and retries of what is safe to repeat:
 * reads, and submits/undo/redo, which always carry an opId (generated when not given).
 */
export class WeftHttpClient {
  readonly token: string;
  private readonly transport: Transport;
  private readonly options: ClientOptions;

  constructor(baseUrl: string | readonly string[], token: string, options: ClientOptions = {}) {
    this.transport = new Transport(baseUrl, options);
    this.token = token;
    this.options = options;
  }

  /** The base URL requests go to first (the last one that answered). */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  withToken(token: string): WeftHttpClient {
    return new WeftHttpClient(this.transport.urls, token, this.options);
  }

  /** `retry`: default true for GET; pass true only for writes the server deduplicates (an opId). */
  async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, retry = method === 'GET'): Promise<T> {
    const res = await this.transport.send(path, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    }, retry);
    const text = await res.text();
    let data: unknown = null;
    try {
      data = text ? (JSON.parse(text) as unknown) : null;
    } catch {
      // A proxy's HTML error page, say: reported below with its status.
    }
    if (!res.ok) {
      const payload = (data as { error?: ErrorPayload } | null)?.error ?? { code: res.status === 503 ? 'UNAVAILABLE' : 'INTERNAL', message: text.slice(0, 500) };
      throw new WeftError(res.status, payload as ErrorPayload);
    }
    if (data === null && text) throw new WeftError(res.status, { code: 'INTERNAL', message: `not JSON: ${text.slice(0, 200)}` } as ErrorPayload);
    return data as T;
  }

  mintToken(req: MintTokenRequest): Promise<MintTokenResponse> {
    return this.request('POST', '/v1/tokens', req);
  }
  /** Tokens are revoked within 2 s on every node (admin token). */
  revokeToken(id: string): Promise<{ revoked: string }> {
    return this.request('DELETE', `/v1/tokens/${encodeURIComponent(id)}`, undefined, {}, true);
  }
  /** The drafts this token can read, newest first. */
  listDrafts(): Promise<{ drafts: { id: string; title: string; createdBy: string; createdAt: string; headVersion: number; epoch: number }[] }> {
    return this.request('GET', '/v1/drafts');
  }
  createDraft(id?: string, title?: string): Promise<{ id: string; version: number }> {
    return this.request('POST', '/v1/drafts', { ...(id ? { id } : {}), ...(title ? { title } : {}) });
  }
  getDraft(id: string, version?: number): Promise<{ id: string; version: number; epoch: number; draft: Draft }> {
    return this.request('GET', `/v1/drafts/${encodeURIComponent(id)}${version === undefined ? '' : `?version=${version}`}`);
  }
  /** Retried with the same opId on timeouts, 5xx and failover: the server applies it once. */
  submit(draftId: string, input: SubmitInput): Promise<SubmitOpsResponse> {
    return this.request('POST', `/v1/drafts/${encodeURIComponent(draftId)}/ops`, input, {}, true);
  }
  events(draftId: string, after = 0, limit = 100): Promise<EventsResponse> {
    return this.request('GET', `/v1/drafts/${encodeURIComponent(draftId)}/events?after=${after}&limit=${limit}`);
  }
  /**
   * The whole log after `after`, one StepView at a time in version order, read as the NDJSON
   * stream (one request; the server renders pages as it goes: several times the events() pages'
   * rate). It ends at the head the first answer announced (`x-weft-head`). A stream cut midway (the
   * connection dropped, or the server aborted it because a read failed) is resumed after the last
   * version seen, on the next base URL, with backoff, up to `retries` times; no step is yielded
   * twice. No per-request timeout: a long log takes what it takes (abort with `signal`).
   */
  async *log(draftId: string, opts: { after?: number; signal?: AbortSignal } = {}): AsyncGenerator<StepView> {
    let after = opts.after ?? 0;
    let head: number | null = null;
    const retries = this.options.retries ?? 4;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    for (let failures = 0; ;) {
      try {
        const res = await (this.options.fetch ?? fetch)(`${this.baseUrl}/v1/drafts/${encodeURIComponent(draftId)}/events?format=ndjson&after=${after}`, {
          headers: { authorization: `Bearer ${this.token}`, accept: 'application/x-ndjson' }, ...(opts.signal ? { signal: opts.signal } : {}),
        });
        if (!res.ok || !res.body) throw await errorOf(res);
        const announced = res.headers.get('x-weft-head');
        if (head === null && announced !== null) head = Number(announced);
        const decoder = new TextDecoder();
        let buf = '';
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          const end = buf.lastIndexOf('\n');
          if (end < 0) continue;
          const lines = buf.slice(0, end).split('\n');
          buf = buf.slice(end + 1);
          for (const line of lines) {
            const step = JSON.parse(line) as StepView;
            if (step.version <= after) continue;
            after = step.version;
            failures = 0;
            yield step;
          }
        }
        if (head === null || after >= head) return; // without the header (a proxy dropped it) the stream's end is the end
        throw new Error(`the stream ended at v${after} before the head v${head}`);
      } catch (e) {
        if (opts.signal?.aborted) throw e;
        if (e instanceof WeftError && e.status >= 400 && e.status < 500 && e.status !== 429) throw e;
        if (++failures > retries) {
          throw new WeftError(503, { code: 'UNAVAILABLE', message: `the log of "${draftId}" was cut after v${after}${head === null ? '' : ` (of v${head})`} ${failures} times; last: ${e instanceof Error ? e.message : String(e)}` } as ErrorPayload);
        }
        this.transport.skip(); // the next base URL, if there are several
        const backoff = Math.min(this.options.maxBackoffMs ?? 5_000, (this.options.backoffMs ?? 200) * 2 ** (failures - 1));
        await sleep(backoff * (0.5 + (this.options.random ?? Math.random)() / 2));
      }
    }
  }
  /** `opId` makes a retried undo apply once (default: a new one per call). */
  undo(draftId: string, scope: 'step' | 'turn' = 'step', opId: string = newOpId()): Promise<SubmitOpsResponse & { undid: number[] }> {
    return this.request('POST', `/v1/drafts/${encodeURIComponent(draftId)}/undo`, { scope, opId }, {}, true);
  }
  redo(draftId: string, opId: string = newOpId()): Promise<SubmitOpsResponse & { undid: number[] }> {
    return this.request('POST', `/v1/drafts/${encodeURIComponent(draftId)}/redo`, { opId }, {}, true);
  }
  diff(draftId: string, from: number, to: number): Promise<{ from: number; to: number; patch: Op[] }> {
    return this.request('GET', `/v1/drafts/${encodeURIComponent(draftId)}/diff?from=${from}&to=${to}`);
  }
  versions(draftId: string): Promise<{ versions: VersionEntry[] }> {
    return this.request('GET', `/v1/drafts/${encodeURIComponent(draftId)}/versions`);
  }
  openSession(draftId: string): Promise<OpenSessionResponse> {
    return this.request('POST', `/v1/drafts/${encodeURIComponent(draftId)}/sessions`, {});
  }
  closeSession(sessionId: string): Promise<{ closed: boolean }> {
    return this.request('DELETE', `/v1/sessions/${encodeURIComponent(sessionId)}`);
  }
  finishTurn(draftId: string, turnId: string): Promise<{ turnId: string; summary: Record<string, number> }> {
    return this.request('POST', `/v1/drafts/${encodeURIComponent(draftId)}/turns/${encodeURIComponent(turnId)}/finish`, {});
  }
  /** One observable activity entry for the draft's viewers (docs/api.md "Activity"). Not retried:
   *  a report has no idempotency key, and a lost one is better than a doubled one. */
  reportActivity(draftId: string, activity: ActivityInput): Promise<{ activity: Activity }> {
    return this.request('POST', `/v1/drafts/${encodeURIComponent(draftId)}/activity`, activity);
  }
  /** The draft's stored activity, oldest first (the newest 120). */
  activity(draftId: string): Promise<{ activities: Activity[] }> {
    return this.request('GET', `/v1/drafts/${encodeURIComponent(draftId)}/activity`);
  }

  /** Webhooks (admin token): the answer holds the signing secret, shown only this once. */
  createWebhook(req: CreateWebhookRequest): Promise<CreateWebhookResponse> {
    return this.request('POST', '/v1/webhooks', req);
  }
  listWebhooks(draftId?: string): Promise<{ endpoints: WebhookEndpointView[] }> {
    return this.request('GET', `/v1/webhooks${draftId === undefined ? '' : `?draftId=${encodeURIComponent(draftId)}`}`);
  }
  deleteWebhook(id: string): Promise<{ deleted: string }> {
    return this.request('DELETE', `/v1/webhooks/${encodeURIComponent(id)}`, undefined, {}, true);
  }
  /** A new signing secret (shown only here); the old one keeps signing for `overlapSeconds` (default a day). */
  rotateWebhookSecret(id: string, overlapSeconds?: number): Promise<CreateWebhookResponse> {
    return this.request('POST', `/v1/webhooks/${encodeURIComponent(id)}/rotate`, overlapSeconds === undefined ? {} : { overlapSeconds });
  }
  /** Sends to an endpoint disabled by a 410 Gone again (its pending deliveries are due at once). */
  enableWebhook(id: string): Promise<{ endpoint: WebhookEndpointView }> {
    return this.request('POST', `/v1/webhooks/${encodeURIComponent(id)}/enable`, undefined, {}, true);
  }
  /** Newest first; pass `next` as `before` for older ones. */
  webhookDeliveries(id: string, opts: { status?: WebhookDeliveryStatus; limit?: number; before?: string } = {}): Promise<WebhookDeliveriesResponse> {
    const q = new URLSearchParams({ ...(opts.status ? { status: opts.status } : {}), ...(opts.limit ? { limit: String(opts.limit) } : {}), ...(opts.before ? { before: opts.before } : {}) }).toString();
    return this.request('GET', `/v1/webhooks/${encodeURIComponent(id)}/deliveries${q ? `?${q}` : ''}`);
  }
  /** Queues a delivery again now, on a fresh schedule. */
  retryWebhookDelivery(id: string, deliveryId: string): Promise<{ delivery: WebhookDeliveryView }> {
    return this.request('POST', `/v1/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`, undefined, {}, true);
  }

  /**
   * The stream that outlives a connection: when it ends or fails (a restart, a proxy timeout,
   * failover), it reconnects with the last version seen as Last-Event-ID, so versioned events
   * arrive once each and in order; events without a version (turn ends) sent while disconnected
   * are not replayed. Stops when `signal` aborts, or on an error that retrying cannot fix (4xx).
   */
  async *follow(draftId: string, opts: { after?: number; signal?: AbortSignal; onReconnect?: (after: number, error: unknown) => void } = {}): AsyncGenerator<{ version: number | null; event: AgUiEvent }> {
    let after = opts.after ?? 0;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    for (let failures = 0; !opts.signal?.aborted; ) {
      let error: unknown = null;
      try {
        for await (const item of this.stream(draftId, { lastEventId: after, ...(opts.signal ? { signal: opts.signal } : {}) })) {
          failures = 0;
          if (item.version !== null) {
            if (item.version <= after) continue; // already seen before a reconnect
            after = item.version;
          }
          yield item;
        }
      } catch (e) {
        if (opts.signal?.aborted) return;
        if (e instanceof WeftError && e.status >= 400 && e.status < 500 && e.status !== 429) throw e;
        error = e;
      }
      if (error !== null) this.transport.skip(); // the next base URL, if there are several
      opts.onReconnect?.(after, error);
      failures++;
      const backoff = Math.min(this.options.maxBackoffMs ?? 5_000, (this.options.backoffMs ?? 200) * 2 ** Math.min(failures - 1, 10));
      await sleep(backoff * (0.5 + (this.options.random ?? Math.random)() / 2));
    }
  }

  /** Reads the SSE stream, yielding each AG-UI event with its version (the SSE id). */
  async *stream(draftId: string, opts: { lastEventId?: number; signal?: AbortSignal } = {}): AsyncGenerator<{ version: number | null; event: AgUiEvent }> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' };
    if (opts.lastEventId !== undefined) headers['last-event-id'] = String(opts.lastEventId);
    // No timeout and no retry here: a stream stays open (follow() reconnects without a gap).
    const res = await (this.options.fetch ?? fetch)(`${this.baseUrl}/v1/drafts/${encodeURIComponent(draftId)}/stream`, { headers, ...(opts.signal ? { signal: opts.signal } : {}) });
    if (!res.ok || !res.body) throw await errorOf(res);
    const decoder = new TextDecoder();
    let buf = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, i);
        buf = buf.slice(i + 2);
        let id: number | null = null;
        let data = '';
        for (const line of frame.split('\n')) {
          if (line.startsWith('id: ')) id = Number(line.slice(4));
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (data) yield { version: id, event: JSON.parse(data) as AgUiEvent };
      }
    }
  }
}

function newOpId(): string {
  return `op-${globalThis.crypto.randomUUID()}`;
}

/** The WeftError of a failed answer: its JSON error payload, or its text (a proxy's page). */
async function errorOf(res: Response): Promise<WeftError> {
  const text = await res.text();
  let payload: ErrorPayload = { code: 'INTERNAL', message: text.slice(0, 500) } as ErrorPayload;
  try {
    payload = (JSON.parse(text) as { error: ErrorPayload }).error ?? payload;
  } catch {
    // not JSON (a proxy's page): the text above
  }
  return new WeftError(res.status, payload);
}
