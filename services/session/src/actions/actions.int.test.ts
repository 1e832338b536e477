// POST /v1/drafts/:id/actions on the real session (Postgres, bus): the bound value is written
// first (a step in the log), the action reaches the SSE stream as a CUSTOM weft.action event,
// and bad input (unknown component, a value the control could not produce, hostile bodies, no
// access) is a typed error that changes nothing.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeftHttpClient } from '@weft/client';
import { collabExtension } from '../collab/collab.ts';
import { startTestSession } from '../../test/helpers.ts';
import type { TestSession } from '../../test/helpers.ts';
import { actionsExtension } from './extension.ts';

let t: TestSession;
let alice: WeftHttpClient;
let reader: WeftHttpClient;
let aliceToken: string;
let readerToken: string;
const TICKET = 'good-ticket';
let n = 0;

beforeAll(async () => {
  t = await startTestSession({}, undefined, () => [collabExtension(), actionsExtension({ verifyTicket: (tk) => tk === TICKET, perSecond: 1000 })]);
  aliceToken = (await t.admin.mintToken({ actor: { id: 'alice', kind: 'human' }, scopes: { '*': ['read', 'write'] } })).token;
  readerToken = (await t.admin.mintToken({ actor: { id: 'rita', kind: 'human' }, scopes: { '*': ['read'] } })).token;
  alice = t.admin.withToken(aliceToken);
  reader = t.admin.withToken(readerToken);
});
afterAll(async () => { await t.close(); });

const section = {
  id: 'trip', kind: 'surface', catalog: 'weft@1', data: { days: 5, mode: 'car', ok: false },
  components: {
    root: { id: 'root', component: 'Stack', children: ['days', 'mode', 'ok', 'go', 'plain'] },
    days: { id: 'days', component: 'Slider', props: { min: 1, max: 30, value: { path: '/days' }, label: 'Days', event: 'trip.days' } },
    mode: { id: 'mode', component: 'Toggle', props: { options: ['car', 'train'], value: { path: '/mode' } } },
    ok: { id: 'ok', component: 'Checkbox', props: { label: 'OK', value: { path: '/ok' } } },
    go: { id: 'go', component: 'Button', props: { label: 'Go', event: 'trip.go' } },
    plain: { id: 'plain', component: 'Text', props: { text: 'x' } },
  },
};

async function draft(): Promise<string> {
  const id = `act${Date.now().toString(36)}${n++}`;
  await alice.createDraft(id, 'Actions');
  await alice.submit(id, { opId: `${id}-s`, ops: [{ op: 'add', path: '/sections/trip', value: section }] });
  return id;
}

const action = (sourceComponentId: string, context: Record<string, unknown>, name = 'trip.days') => ({
  version: 'v0.9', action: { name, surfaceId: 'trip', sourceComponentId, timestamp: new Date().toISOString(), context },
});

async function post(id: string, body: unknown, auth: { token?: string; ticket?: string } = { token: readerToken }): Promise<{ status: number; body: Record<string, unknown> }> {
  const q = auth.ticket !== undefined ? `?ticket=${encodeURIComponent(auth.ticket)}` : '';
  const r = await fetch(`${t.url}/v1/drafts/${id}/actions${q}`, {
    method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(auth.token ? { authorization: `Bearer ${auth.token}` } : {}) },
  });
  const json = (await r.json()) as Record<string, unknown>;
  return { status: r.status, body: (json['error'] as Record<string, unknown> | undefined) ?? json };
}

describe('reader actions', () => {
  it('writes the bound value first, then puts the action on the stream for agents', async () => {
    const id = await draft();
    const ac = new AbortController();
    const seen: unknown[] = [];
    const following = (async () => {
      for await (const { event } of alice.stream(id, { signal: ac.signal })) {
        if (event.type === 'CUSTOM' && event.name === 'weft.action') { seen.push(event.value); ac.abort(); }
      }
    })().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    const r = await post(id, action('days', { '/days': 9 }), { ticket: TICKET });
    expect(r.status).toBe(202);
    expect(r.body['written']).toEqual(['/days']);
    const d = await alice.getDraft(id);
    expect(d.draft.sections['trip']!.data['days']).toBe(9);
    expect(d.version).toBe(r.body['version']);
    await following;
    expect(seen).toEqual([expect.objectContaining({ name: 'trip.days', surfaceId: 'trip', sourceComponentId: 'days', context: { '/days': 9 }, written: ['/days'] })]);
    // The write is an ordinary step in the log, by the reader.
    const steps = (await alice.events(id, 0, 100)).steps;
    expect(steps.at(-1)).toEqual(expect.objectContaining({ actor: 'reader', ops: [{ op: 'add', path: '/sections/trip/data/days', value: 9 }] }));
  });

  it('a Toggle writes its option, a Checkbox a boolean, a Button with an event writes nothing', async () => {
    const id = await draft();
    expect((await post(id, action('mode', { '/mode': 'train' }, 'trip.mode'))).status).toBe(202);
    expect((await post(id, action('ok', { '/ok': true }, 'x'))).status).toBe(202);
    const go = await post(id, action('go', {}, 'trip.go'));
    expect(go.status).toBe(202);
    expect(go.body['written']).toEqual([]);
    const data = (await alice.getDraft(id)).draft.sections['trip']!.data;
    expect([data['mode'], data['ok']]).toEqual(['train', true]);
  });

  it('a value the control could not produce, an unknown component or surface: typed errors, nothing written', async () => {
    const id = await draft();
    const v0 = (await alice.getDraft(id)).version;
    const cases: [unknown, number, string][] = [
      [action('days', { '/days': 99 }), 422, '/action/context/~1days'],
      [action('days', { '/days': 'nine' }), 422, '/action/context/~1days'],
      [action('mode', { '/mode': 'plane' }), 422, '/action/context/~1mode'],
      [action('ok', { '/ok': 'yes' }), 422, '/action/context/~1ok'],
      [action('nope', {}), 422, '/action/sourceComponentId'],
      [{ action: { ...action('days', {}).action, surfaceId: 'other' } }, 422, '/action/surfaceId'],
      [{ action: { ...action('days', {}).action, name: 'bad name!' } }, 400, '/action/name'],
      [{ action: { ...action('days', {}).action, timestamp: 'yesterday' } }, 400, '/action/timestamp'],
      [{ action: { ...action('days', {}).action, extra: 1 } }, 400, '/action/extra'],
      [{ version: 'v1', action: action('days', {}).action }, 400, '/version'],
      [{ action: { ...action('days', {}).action, context: { big: 'x'.repeat(5000) } } }, 400, '/action/context'],
      [{}, 400, '/action'],
    ];
    for (const [body, status, path] of cases) {
      const r = await post(id, body);
      expect([r.status, r.body['path']], JSON.stringify(body).slice(0, 120)).toEqual([status, path]);
      expect(typeof r.body['code']).toBe('string');
    }
    expect((await alice.getDraft(id)).version).toBe(v0);
  });

  it('no access: no token and no ticket, a forged ticket, a token without read', async () => {
    const id = await draft();
    expect((await post(id, action('days', { '/days': 3 }), {})).status).toBe(401);
    expect((await post(id, action('days', { '/days': 3 }), { ticket: 'forged' })).status).toBe(404);
    const other = (await t.admin.mintToken({ actor: { id: 'o', kind: 'human' }, scopes: { elsewhere: ['read'] } })).token;
    expect((await post(id, action('days', { '/days': 3 }), { token: other })).status).toBe(404); // no existence leak
    expect((await alice.getDraft(id)).draft.sections['trip']!.data['days']).toBe(5);
  });

  it('hostile bodies: fuzzed JSON and prototype names answer a typed error or 202, never 500', async () => {
    const id = await draft();
    let runs = 0;
    await fc.assert(fc.asyncProperty(
      fc.oneof(
        fc.json({ maxDepth: 4 }),
        fc.record({ action: fc.record({ name: fc.constantFrom('trip.days', '__proto__', ''), surfaceId: fc.constantFrom('trip', '__proto__', 'constructor'), sourceComponentId: fc.constantFrom('days', 'mode', 'constructor', 'toString'), timestamp: fc.constantFrom(new Date(0).toISOString(), 'x'), context: fc.dictionary(fc.constantFrom('/days', '/mode', '/__proto__/x', '__proto__', 'constructor'), fc.jsonValue({ maxDepth: 2 })) }) }).map((v) => JSON.stringify(v)),
      ),
      async (body) => {
        runs++;
        const r = await post(id, body);
        expect([202, 400, 413, 422]).toContain(r.status);
        if (r.status !== 202) expect(typeof r.body['path'] === 'string' || r.status === 400).toBe(true);
      },
    ), { numRuns: 150 });
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
    const data = (await alice.getDraft(id)).draft.sections['trip']!.data;
    expect(Object.keys(data).sort()).toEqual(['days', 'mode', 'ok']);
    console.log(`[actions] ${runs} hostile bodies fuzzed`);
  });
});
