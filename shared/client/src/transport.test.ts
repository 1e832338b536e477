import { describe, expect, it } from 'vitest';
import { WeftError, WeftHttpClient } from './http-client.ts';

type Call = { url: string; body: string | null };

/** A fetch that answers from a script: each entry a status (with a JSON body) or 'down' (a network error). */
function scripted(script: (number | 'down' | 'hang')[]): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const f = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), body: typeof init?.body === 'string' ? init.body : null });
    const step = script.shift() ?? 200;
    if (step === 'down') throw new TypeError('fetch failed');
    if (step === 'hang') {
      return await new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    }
    const body = step < 400 ? { version: 2, applied: [], repairs: [], refused: [] } : { error: { code: step === 503 ? 'UNAVAILABLE' : 'RATE_LIMITED', message: 'later' } };
    return new Response(JSON.stringify(body), { status: step, headers: step === 429 ? { 'retry-after': '1' } : {} });
  }) as typeof fetch;
  return { fetch: f, calls };
}

const noSleep = { sleep: async () => {}, random: () => 0.5 };
const submit = { opId: 'op-7', ops: [{ op: 'replace', path: '/title', value: 'x' }] };

describe('WeftHttpClient retries and failover', () => {
  it('a submit retried after 503 and a network error carries the same opId, moving to the next URL', async () => {
    const s = scripted([503, 'down', 200]);
    const c = new WeftHttpClient(['http://a:1', 'http://b:2/'], 't', { fetch: s.fetch, ...noSleep });
    expect((await c.submit('home', submit)).version).toBe(2);
    expect(s.calls.map((x) => x.url)).toEqual(['http://a:1/v1/drafts/home/ops', 'http://b:2/v1/drafts/home/ops', 'http://a:1/v1/drafts/home/ops']);
    expect(new Set(s.calls.map((x) => JSON.parse(x.body!).opId))).toEqual(new Set(['op-7']));
    expect(c.baseUrl).toBe('http://a:1');
  });

  it('the URL that answered is tried first next time', async () => {
    const s = scripted(['down', 200, 200]);
    const c = new WeftHttpClient(['http://a:1', 'http://b:2'], 't', { fetch: s.fetch, ...noSleep });
    await c.getDraft('home');
    await c.getDraft('home');
    expect(s.calls.map((x) => new URL(x.url).host)).toEqual(['a:1', 'b:2', 'b:2']);
  });

  it('creating a draft is not retried (not idempotent): the 503 comes back as a typed error', async () => {
    const s = scripted([503, 200]);
    const c = new WeftHttpClient('http://a:1', 't', { fetch: s.fetch, ...noSleep });
    const e = await c.createDraft('home').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(WeftError);
    expect((e as WeftError).code).toBe('UNAVAILABLE');
    expect(s.calls).toHaveLength(1);
  });

  it('undo and redo always send an opId, so a retry cannot apply twice', async () => {
    const s = scripted([503, 200, 200]);
    const c = new WeftHttpClient('http://a:1', 't', { fetch: s.fetch, ...noSleep });
    await c.undo('home');
    await c.redo('home', 'redo-1');
    const ids = s.calls.map((x) => JSON.parse(x.body!).opId as string);
    expect(ids[0]).toMatch(/^op-/);
    expect(ids).toEqual([ids[0], ids[0], 'redo-1']);
  });

  it('a hung attempt times out and the next one is tried; 429 waits for Retry-After', async () => {
    const slept: number[] = [];
    const s = scripted(['hang', 429, 200]);
    const c = new WeftHttpClient('http://a:1', 't', { fetch: s.fetch, timeoutMs: 50, sleep: async (ms) => { slept.push(ms); }, random: () => 0 });
    await c.submit('home', submit);
    expect(s.calls).toHaveLength(3);
    expect(slept).toEqual([100, 1000]); // jittered backoff (200 ms × [0.5, 1)), then Retry-After: 1
  });

  it('gives up after the retries with the last answer as a typed error', async () => {
    const s = scripted([503, 503, 503]);
    const c = new WeftHttpClient('http://a:1', 't', { fetch: s.fetch, retries: 2, ...noSleep });
    expect(((await c.submit('home', submit).catch((x: unknown) => x)) as WeftError).status).toBe(503);
    expect(s.calls).toHaveLength(3);
  });

  it('any request skips a URL it could not connect to (the request never left), but is not resent after it may have arrived', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const calls: string[] = [];
    let n = 0;
    const f = (async (input: string | URL | Request) => {
      calls.push(new URL(String(input)).host);
      n++;
      if (n === 1) throw refused;
      if (n === 3) throw new TypeError('fetch failed'); // reset mid-request: unknown outcome
      return new Response(JSON.stringify({ id: 'home', version: 1 }), { status: 201 });
    }) as typeof fetch;
    const c = new WeftHttpClient(['http://a:1', 'http://b:2'], 't', { fetch: f, ...noSleep });
    expect(await c.createDraft('home')).toEqual({ id: 'home', version: 1 });
    await expect(c.createDraft('other')).rejects.toThrow('fetch failed');
    expect(calls).toEqual(['a:1', 'b:2', 'b:2']);
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => new WeftHttpClient('ftp://a', 't')).toThrow(/not an http/);
    expect(() => new WeftHttpClient([], 't')).toThrow(/at least one/);
  });
});

describe('WeftHttpClient.follow', () => {
  /** An SSE response carrying these frames, then the end of the stream. */
  const sse = (frames: { id?: number; data: unknown }[]): Response => new Response(frames.map((f) => `${f.id === undefined ? '' : `id: ${f.id}\n`}data: ${JSON.stringify(f.data)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } });

  it('reconnects after the stream ends or breaks, from the last version, on the next URL, without repeats', async () => {
    const seen: { url: string; lastEventId: string | null }[] = [];
    const answers: (() => Response | Promise<Response>)[] = [
      () => sse([{ id: 1, data: { type: 'STATE_DELTA', delta: [] } }, { data: { type: 'RUN_FINISHED' } }]),
      () => { throw new TypeError('fetch failed'); },
      () => sse([{ id: 1, data: { type: 'STATE_DELTA', delta: [] } }, { id: 2, data: { type: 'STATE_DELTA', delta: [] } }]),
    ];
    const f = (async (input: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: new URL(String(input)).host, lastEventId: new Headers(init?.headers).get('last-event-id') });
      return answers.shift()!();
    }) as typeof fetch;
    const c = new WeftHttpClient(['http://a:1', 'http://b:2'], 't', { fetch: f, ...noSleep });
    const stop = new AbortController();
    const got: (number | null)[] = [];
    for await (const { version } of c.follow('home', { signal: stop.signal })) {
      got.push(version);
      if (version === 2) stop.abort();
    }
    expect(got).toEqual([1, null, 2]);
    expect(seen).toEqual([{ url: 'a:1', lastEventId: '0' }, { url: 'a:1', lastEventId: '1' }, { url: 'b:2', lastEventId: '1' }]);
  });

  it('stops on an error retrying cannot fix (403)', async () => {
    const f = (async () => new Response(JSON.stringify({ error: { code: 'FORBIDDEN', message: 'no' } }), { status: 403 })) as typeof fetch;
    const c = new WeftHttpClient('http://a:1', 't', { fetch: f, ...noSleep });
    const run = async (): Promise<void> => { for await (const _ of c.follow('home')) { /* none */ } };
    await expect(run()).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });
});
