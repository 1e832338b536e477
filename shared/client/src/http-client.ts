import type { Draft, ErrorPayload, Op } from '@weft/core';
import type {
  AgUiEvent, EventsResponse, MintTokenRequest, MintTokenResponse, OpenSessionResponse, SubmitOpsResponse, VersionEntry,
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

/** The HTTP side of the SDK: one instance per base URL and bearer token. */
export class WeftHttpClient {
  readonly baseUrl: string;
  readonly token: string;

  constructor(baseUrl: string, token: string) {
    this.baseUrl = baseUrl.replace(/\/$/, '');
    this.token = token;
  }

  withToken(token: string): WeftHttpClient {
    return new WeftHttpClient(this.baseUrl, token);
  }

  async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    const data = text ? (JSON.parse(text) as unknown) : null;
    if (!res.ok) {
      const payload = (data as { error?: ErrorPayload } | null)?.error ?? { code: 'INTERNAL', message: text };
      throw new WeftError(res.status, payload as ErrorPayload);
    }
    return data as T;
  }

  mintToken(req: MintTokenRequest): Promise<MintTokenResponse> {
    return this.request('POST', '/v1/tokens', req);
  }
  createDraft(id?: string, title?: string): Promise<{ id: string; version: number }> {
    return this.request('POST', '/v1/drafts', { ...(id ? { id } : {}), ...(title ? { title } : {}) });
  }
  getDraft(id: string, version?: number): Promise<{ id: string; version: number; epoch: number; draft: Draft }> {
    return this.request('GET', `/v1/drafts/${encodeURIComponent(id)}${version === undefined ? '' : `?version=${version}`}`);
  }
  submit(draftId: string, input: SubmitInput): Promise<SubmitOpsResponse> {
    return this.request('POST', `/v1/drafts/${encodeURIComponent(draftId)}/ops`, input);
  }
  events(draftId: string, after = 0, limit = 100): Promise<EventsResponse> {
    return this.request('GET', `/v1/drafts/${encodeURIComponent(draftId)}/events?after=${after}&limit=${limit}`);
  }
  undo(draftId: string, scope: 'step' | 'turn' = 'step'): Promise<SubmitOpsResponse & { undid: number[] }> {
    return this.request('POST', `/v1/drafts/${encodeURIComponent(draftId)}/undo`, { scope });
  }
  redo(draftId: string): Promise<SubmitOpsResponse & { undid: number[] }> {
    return this.request('POST', `/v1/drafts/${encodeURIComponent(draftId)}/redo`, {});
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

  /** Reads the SSE stream, yielding each AG-UI event with its version (the SSE id). */
  async *stream(draftId: string, opts: { lastEventId?: number; signal?: AbortSignal } = {}): AsyncGenerator<{ version: number | null; event: AgUiEvent }> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' };
    if (opts.lastEventId !== undefined) headers['last-event-id'] = String(opts.lastEventId);
    const res = await fetch(`${this.baseUrl}/v1/drafts/${encodeURIComponent(draftId)}/stream`, { headers, ...(opts.signal ? { signal: opts.signal } : {}) });
    if (!res.ok || !res.body) {
      const text = await res.text();
      throw new WeftError(res.status, (JSON.parse(text) as { error: ErrorPayload }).error);
    }
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
