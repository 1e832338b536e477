// Activity from agents (issue 17, the builder-relay seed's contract) through the public doors:
// HTTP and a real MCP client, from an empty draft, on the test Postgres; the draft's SSE stream
// watched as a viewer; hostile reports fuzzed (fast-check, seeded).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpExtension } from '../src/mcp/extension.ts';
import { ADMIN, startTestSession } from './helpers.ts';
import type { TestSession } from './helpers.ts';

const SEED = 17_120;
type Entry = { id: string; kind: string; status: string; label: string; detail?: string; at: number; actor: string };

describe('activity: POST/GET /v1/drafts/:id/activity, report_activity, the draft stream', () => {
  let s: TestSession;
  let agent: string;
  let viewer: string;
  const post = (draft: string, body: unknown, token = agent) => fetch(`${s.url}/v1/drafts/${draft}/activity`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const list = async (draft: string, token = viewer): Promise<Entry[]> => {
    const r = await fetch(`${s.url}/v1/drafts/${draft}/activity`, { headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBe(200);
    return ((await r.json()) as { activities: Entry[] }).activities;
  };
  const mine = async (draft: string) => (await list(draft)).filter((a) => a.actor === 'bot');
  beforeAll(async () => {
    s = await startTestSession({ activityPerSecond: 100_000 }, undefined, () => [mcpExtension()]);
    for (const id of ['act', 'fuzz', 'turns']) await s.admin.createDraft(id);
    agent = (await s.admin.mintToken({ actor: { id: 'bot', kind: 'agent' }, scopes: { act: ['read', 'write'], fuzz: ['read', 'write'], turns: ['read', 'write'] } })).token;
    viewer = (await s.admin.mintToken({ actor: { id: 'ann', kind: 'human' }, scopes: { act: ['read'], fuzz: ['read'], turns: ['read'] } })).token;
  }, 60_000);
  afterAll(async () => { await s?.close(); });

  it('a report is trimmed, given the store id and time, kept, and streamed to a viewer as CUSTOM weft.activity', async () => {
    expect(await mine('act')).toEqual([]);
    const ctrl = new AbortController();
    const stream = await fetch(`${s.url}/v1/drafts/act/stream`, { headers: { authorization: `Bearer ${viewer}` }, signal: ctrl.signal });
    let text = '';
    const reading = (async () => {
      const reader = stream.body!.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += Buffer.from(value).toString();
        }
      } catch { /* aborted */ }
    })();
    for (let i = 0; i < 50 && !text.includes('STATE_SNAPSHOT'); i++) await new Promise((r) => setTimeout(r, 50));

    const before = Date.now();
    const res = await post('act', { kind: 'validation', status: 'active', label: '  Checking the hero props  ', detail: 'Heading level and text' });
    expect(res.status).toBe(201);
    const { activity } = (await res.json()) as { activity: Entry };
    expect(activity).toEqual({ id: expect.stringMatching(/^\d+$/), kind: 'validation', status: 'active', label: 'Checking the hero props', detail: 'Heading level and text', at: expect.any(Number), actor: 'bot' });
    expect(activity.at).toBeGreaterThanOrEqual(before - 1000);
    expect(await mine('act')).toEqual([activity]);

    const ours = (f: string) => f.includes('weft.activity') && f.includes(`"id":"${activity.id}"`);
    for (let i = 0; i < 50 && !text.split('\n\n').some(ours); i++) await new Promise((r) => setTimeout(r, 50));
    const frame = text.split('\n\n').find(ours)!;
    const event = JSON.parse(frame.split('\n').find((l) => l.startsWith('data: '))!.slice(6)) as { type: string; name: string; value: Entry };
    expect(event).toMatchObject({ type: 'CUSTOM', name: 'weft.activity', value: activity });
    ctrl.abort();
    await reading;
  });

  it('chainOfThought and every other problem are listed at once; nothing is kept', async () => {
    const res = await post('act', { kind: 'request', status: 'thinking', label: '   ', detail: 'x'.repeat(501), chainOfThought: 'first I will…' });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; path: string; message: string; errors: { path: string; message: string }[] } };
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.errors.map((e) => e.path).sort()).toEqual(['/chainOfThought', '/detail', '/kind', '/label', '/status']);
    expect(error.errors.find((e) => e.path === '/chainOfThought')!.message).toContain('never reasoning');
    expect(error.errors.find((e) => e.path === '/kind')!.message).toContain('request and persistence are recorded by the system');
    expect(error.message).toContain('/chainOfThought');
    expect(await mine('act')).toHaveLength(1);
  });

  it('doors refuse what they should: read-only 403, no token 401, unknown draft 404, bad JSON 400, NUL text 400', async () => {
    const ok = { kind: 'agent', status: 'done', label: 'x' };
    expect((await post('act', ok, viewer)).status).toBe(403);
    expect((await fetch(`${s.url}/v1/drafts/act/activity`, { method: 'POST', body: JSON.stringify(ok) })).status).toBe(401);
    expect((await post('nope', ok, ADMIN)).status).toBe(404);
    expect((await fetch(`${s.url}/v1/drafts/nope/activity`, { headers: { authorization: `Bearer ${ADMIN}` } })).status).toBe(404);
    expect((await post('act', '{"kind":')).status).toBe(400);
    const nul = await post('act', { ...ok, label: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { error: { errors: { path: string }[] } }).error.errors.map((e) => e.path)).toEqual(['/label']);
    expect((await post('act', { ...ok, label: 'x'.repeat(121) })).status).toBe(400);
    expect((await post('act', { ...ok, label: 'x'.repeat(10_000) })).status).toBe(413); // no report is that big
    expect(await mine('act')).toHaveLength(1);
  });

  it('hostile reports (fast-check): 201 with a contract-true entry or 400 listing problems, never anything else; the newest 120 are kept', async () => {
    // Mostly near-valid (so both outcomes are exercised), each field sometimes hostile or absent.
    const w = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: bad, weight: 1 });
    const base = fc.record({
      kind: w(fc.constantFrom('validation', 'operation', 'agent'), fc.oneof(fc.constantFrom('request', 'persistence', 'Agent', '', undefined), fc.jsonValue({ maxDepth: 1 }))),
      status: w(fc.constantFrom('queued', 'active', 'done', 'error'), fc.oneof(fc.constantFrom('DONE', undefined), fc.jsonValue({ maxDepth: 1 }))),
      label: w(fc.string({ minLength: 1, maxLength: 125 }), fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', '   ', 'a\u0000', '\ud800x', undefined), fc.integer())),
      detail: w(fc.option(fc.string({ maxLength: 505 }), { nil: undefined }), fc.oneof(fc.constantFrom('\udc00', 'x'.repeat(501)), fc.jsonValue({ maxDepth: 1 }))),
      extra: w(fc.constant(undefined), fc.constantFrom('chainOfThought', '__proto__', 'constructor', 'id', 'at', 'actor', 'reasoning')),
    });
    let accepted = 0;
    let refused = 0;
    await fc.assert(fc.asyncProperty(base, fc.jsonValue({ maxDepth: 2 }), async (r, junk) => {
      const body: Record<string, unknown> = {};
      for (const k of ['kind', 'status', 'label', 'detail'] as const) if (r[k] !== undefined) body[k] = r[k];
      // An own key, even "__proto__" (as JSON.parse makes it).
      if (r.extra !== undefined) Object.defineProperty(body, r.extra, { value: junk, enumerable: true, writable: true, configurable: true });
      const res = await post('fuzz', JSON.stringify(body));
      const j = (await res.json()) as { activity?: Entry; error?: { code: string; errors: { path: string; message: string }[] } };
      if (res.status === 201) {
        accepted++;
        const a = j.activity!;
        expect(Object.keys(a).filter((k) => !['id', 'kind', 'status', 'label', 'detail', 'at', 'actor'].includes(k))).toEqual([]);
        expect(['validation', 'operation', 'agent']).toContain(a.kind);
        expect(['queued', 'active', 'done', 'error']).toContain(a.status);
        expect([...a.label].length).toBeLessThanOrEqual(120);
        expect(a.label.trim()).toBe(a.label);
        expect(a.label).not.toBe('');
        expect([...(a.detail ?? '')].length).toBeLessThanOrEqual(500);
        expect(a.actor).toBe('bot');
        expect(r.extra).toBeUndefined();
      } else {
        refused++;
        expect(res.status).toBe(400);
        expect(j.error!.code).toBe('BAD_REQUEST');
        expect(j.error!.errors.length).toBeGreaterThan(0);
        for (const e of j.error!.errors) expect(e).toEqual({ path: expect.stringMatching(/^(\/.*)?$/), message: expect.any(String) });
        if (r.extra !== undefined) expect(j.error!.errors.map((e) => e.path)).toContain(`/${r.extra}`);
      }
    }), { seed: SEED, numRuns: 200 });
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
    // Enough valid reports to pass the cap: the newest 120 stay, in order.
    for (let i = accepted; i < 125; i++) expect((await post('fuzz', { kind: 'operation', status: 'done', label: `filler ${i}` })).status).toBe(201);
    const kept = await mine('fuzz');
    expect(kept).toHaveLength(120);
    expect(kept.at(-1)!.label).toBe('filler 124');
    expect(kept.every((a, i) => i === 0 || Number(a.id) > Number(kept[i - 1]!.id))).toBe(true);
    console.log(`[fuzz activity] 200 runs (seed ${SEED}): ${accepted} recorded, ${refused} refused with every problem listed`);
  }, 120_000);

  it('a real MCP client reports through report_activity; its schema is the strict one; a bad report lists every problem', async () => {
    const client = new Client({ name: 'weft-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${agent}` } } }));
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'report_activity')!;
      expect(tool.inputSchema).toMatchObject({ additionalProperties: false, required: ['draftId', 'kind', 'status', 'label'], properties: { kind: { enum: ['validation', 'operation', 'agent'] }, label: { maxLength: 120 } } });
      const ok = (await client.callTool({ name: 'report_activity', arguments: { draftId: 'act', kind: 'operation', status: 'done', label: 'Added the pricing section' } })) as CallToolResult;
      expect(ok.isError).toBeFalsy();
      expect((ok.structuredContent as { activity: Entry }).activity).toMatchObject({ kind: 'operation', label: 'Added the pricing section', actor: 'bot' });
      const bad = (await client.callTool({ name: 'report_activity', arguments: { draftId: 'act', kind: 'persistence', status: 'done', chainOfThought: 'hidden' } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      const err = (bad.structuredContent as { error: { code: string; errors: { path: string }[] } }).error;
      expect(err.code).toBe('BAD_REQUEST');
      expect(err.errors.map((e) => e.path).sort()).toEqual(['/chainOfThought', '/kind', '/label']);
      expect((await mine('act')).map((a) => a.label)).toEqual(['Checking the hero props', 'Added the pricing section']);
    } finally {
      await client.close();
    }
  });

  it('an actor reporting faster than WEFT_ACTIVITY_PER_SECOND gets 429 with Retry-After; another actor is not slowed', async () => {
    const slow = await startTestSession({ activityPerSecond: 3 });
    try {
      await slow.admin.createDraft('rate');
      const a = await slow.as('chatty', { rate: ['write'] }, 'agent');
      const b = await slow.as('quiet', { rate: ['write'] }, 'agent');
      const send = (token: string) => fetch(`${slow.url}/v1/drafts/rate/activity`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'agent', status: 'active', label: 'busy' }) });
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) codes.push((await send(a.token)).status);
      expect(codes.slice(0, 3)).toEqual([201, 201, 201]);
      const limited = await send(a.token);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
      expect((await send(b.token)).status).toBe(201);
      expect((await slow.admin.activity('rate')).activities.filter((x) => x.actor === 'chatty').length).toBe(codes.filter((c) => c === 201).length);
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('the system records request entries for a turn and a persistence entry when the draft is restored from the log', async () => {
    const bot = await s.as('turn-bot', { turns: ['write'] }, 'agent');
    // The SDK reports too (the same door).
    expect((await bot.reportActivity('turns', { kind: 'agent', status: 'queued', label: 'Waiting for the brief' })).activity.actor).toBe('turn-bot');
    await bot.submit('turns', { opId: 't-1', turnId: 'landing', ops: [{ op: 'replace', path: '/title', value: 'Landing' }] });
    await bot.submit('turns', { opId: 't-2', turnId: 'landing', ops: { op: 'replace', path: '/title', value: 'Landing page' } as never });
    await bot.finishTurn('turns', 'landing');
    await s.restart();
    await s.admin.getDraft('turns'); // opens the room: restored from the log
    let system: Entry[] = [];
    for (let i = 0; i < 50; i++) {
      system = (await s.admin.activity('turns')).activities.filter((a) => a.actor === 'weft');
      if (system.some((a) => a.kind === 'persistence' && a.label.includes('version 2'))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(system.map((a) => [a.kind, a.status])).toEqual(expect.arrayContaining([['request', 'active'], ['request', 'done'], ['persistence', 'done']]));
    const done = system.find((a) => a.kind === 'request' && a.status === 'done')!;
    expect(done.label).toBe('Turn landing by turn-bot finished');
    expect(done.detail).toContain('2 step(s), 2 op(s)');
    expect(system.find((a) => a.kind === 'persistence')!.label).toBe('Restored from the log at version 2');
  }, 60_000);
});
