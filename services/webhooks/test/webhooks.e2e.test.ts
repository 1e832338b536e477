// Signed webhooks as an integrator meets them: from an empty draft, an endpoint registered over
// HTTP, ops written over HTTP, deliveries received by a real local server and verified with the
// standardwebhooks library; retries, a dead receiver, a crash mid-retry, two dispatchers at once
// and hostile URLs. Real Postgres (the harness), the launcher as child processes.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { sql } from 'kysely';
import { createTestDatabase, freePort } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch } from './launcher.ts';
import type { Launched } from './launcher.ts';
import { startReceiver } from './receiver.ts';
import type { Receiver } from './receiver.ts';

const ADMIN = 'hooks-admin-token';
const auth = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
// Fast retries: 2nd attempt after 0.5–1 s, 3rd after 1–2 s; three attempts, then failed.
const FAST = {
  WEFT_ADMIN_TOKEN: ADMIN, WEFT_WEBHOOK_ALLOW_PRIVATE: '1', WEFT_WEBHOOK_POLL_MS: '100', WEFT_WEBHOOK_TIMEOUT_MS: '2000',
  WEFT_WEBHOOK_MAX_ATTEMPTS: '3', WEFT_WEBHOOK_BACKOFF_BASE_MS: '1000', WEFT_WEBHOOK_BACKOFF_MAX_MS: '2000',
};

const section = (id: string, text: string) => ({ op: 'add', path: `/sections/${id}`, value: { id, kind: 'surface', catalog: 'weft@1', components: { root: { id: 'root', component: 'Text', props: { text } } }, data: {} } });

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${base}${path}`, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, json: await res.json() };
}

const CLI = join(resolve(import.meta.dirname, '..', '..', '..'), 'shared/client/src/cli/main.ts');
/** The real `weft` CLI process. */
function weftCli(base: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { PATH: process.env['PATH'] ?? '', WEFT_URL: base, WEFT_TOKEN: ADMIN }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    const guard = setTimeout(() => { p.kill('SIGKILL'); fail(new Error(`weft ${args.join(' ')} hung`)); }, 45_000);
    p.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    p.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    p.on('exit', (code) => { clearTimeout(guard); done({ code, out, err }); });
  });
}

async function eventually<T>(f: () => Promise<T | undefined>, what: string, ms = 30_000): Promise<T> {
  for (let t = 0; ; t += 100) {
    const v = await f();
    if (v !== undefined) return v;
    if (t > ms) throw new Error(`not in ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('signed webhooks (Standard Webhooks)', () => {
  let db: TestDatabase;
  let rx: Receiver;
  let weft: Launched;
  let second: Launched | null = null;
  let homeEndpoint = '';
  const base = () => weft.url;

  const register = async (path: string, extra: Record<string, unknown> = {}) => {
    const r = await call(base(), 'POST', '/v1/webhooks', { url: `${rx.url}${path}`, ...extra });
    expect(r.status).toBe(201);
    return r.json as { endpoint: { id: string }; secret: string };
  };
  const deliveries = async (endpointId: string) => (await call(base(), 'GET', `/v1/webhooks/${endpointId}/deliveries`)).json.deliveries as any[];

  beforeAll(async () => {
    db = await createTestDatabase();
    rx = await startReceiver();
    weft = await launch({ ...FAST, DATABASE_URL: db.url, WEFT_SERVICES: 'session,webhooks' });
  });
  afterAll(async () => {
    if (process.env['HOOKS_DEBUG']) console.log(weft?.output().split('\n').filter((l) => !l.includes('"msg":"GET ') && !l.includes('"msg":"POST ')).join('\n'));
    await weft?.kill();
    await second?.kill();
    await rx?.close();
    await db?.drop();
  });

  it('from an empty draft: every committed version, refusal and finished turn arrives signed, verified by the library', async () => {
    expect((await call(base(), 'POST', '/v1/drafts', { id: 'home' })).status).toBe(201);
    const { endpoint, secret } = await register('/home', { draftId: 'home' });
    homeEndpoint = endpoint.id;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    // The secret is shown once: never listed.
    expect(JSON.stringify((await call(base(), 'GET', '/v1/webhooks')).json)).not.toContain(secret);

    expect((await call(base(), 'POST', '/v1/drafts/home/ops', { opId: 'a1', turnId: 't1', ops: [section('hero', 'Hello')] })).status).toBe(200);
    // Some ops applied, one refused beside them: a version and a refusal.
    expect((await call(base(), 'POST', '/v1/drafts/home/ops', { opId: 'a2', turnId: 't1', ops: [section('more', 'More'), { op: 'remove', path: '/sections/nope' }] })).json.refused).toHaveLength(1);
    // Every op refused: no version, still a refusal.
    expect((await call(base(), 'POST', '/v1/drafts/home/ops', { opId: 'a3', ops: [{ op: 'remove', path: '/sections/ghost' }] })).json.version).toBe(2);
    expect((await call(base(), 'POST', '/v1/drafts/home/turns/t1/finish')).status).toBe(200);

    await rx.until((r) => r.filter((x) => x.path === '/home').length >= 5);
    const got = rx.received.filter((x) => x.path === '/home');
    const hook = new Webhook(secret);
    const payloads = got.map((x) => {
      expect(x.headers['content-type']).toBe('application/json');
      expect(x.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      return { id: x.headers['webhook-id'], p: hook.verify(x.body, x.headers as Record<string, string>) as any };
    });
    const types = payloads.map((x) => `${x.p.type}@${x.p.data.version}`).sort();
    expect(types).toEqual(['draft.step.refused@2', 'draft.step.refused@null', 'draft.turn.finished@2', 'draft.version.committed@1', 'draft.version.committed@2'].sort());
    const v1 = payloads.find((x) => x.p.type === 'draft.version.committed' && x.p.data.version === 1)!;
    expect(v1.id).toMatch(/^evt_home_1_\d+_committed$/);
    expect(v1.p.data).toMatchObject({ draftId: 'home', opId: 'a1', turnId: 't1', actor: { id: 'admin', kind: 'admin' }, kind: 'do', refusedCount: 0 });
    expect(v1.p.data.ops[0]).toMatchObject({ op: 'add', path: '/sections/hero' });
    const whole = payloads.find((x) => x.p.data.version === null)!.p;
    expect(whole.data).toMatchObject({ opId: 'a3', refused: [{ rule: 'path_not_found', path: '/sections/ghost' }] });
    const turn = payloads.find((x) => x.p.type === 'draft.turn.finished')!.p;
    expect(turn.data).toMatchObject({ turnId: 't1', version: 2, summary: { steps: 2 } });
    // A signature made with another secret does not verify.
    expect(() => new Webhook('whsec_' + Buffer.alloc(24, 7).toString('base64')).verify(got[0]!.body, got[0]!.headers as Record<string, string>)).toThrow();

    // The receiver has the requests before the dispatcher records their answers: wait for the records.
    const log = await eventually(async () => {
      const l = await deliveries(endpoint.id);
      return l.length === 5 && l.every((d) => d.status !== 'pending') ? l : undefined;
    }, 'five deliveries recorded');
    for (const d of log) expect(d).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 204 });
    // The secret is in no log line of the process that made it and signed with it.
    expect(weft.output()).toContain('POST /v1/webhooks 201');
    expect(weft.output()).not.toContain(secret.slice('whsec_'.length));
  });

  it('the weft CLI registers an endpoint (secret shown once), lists it and its deliveries, deletes it', async () => {
    const created = await weftCli(base(), ['webhooks', 'create', `${rx.url}/cli`, '--draft', 'home', '--event', 'draft.version.committed', '--json']);
    expect(created.code, created.err).toBe(0);
    const { endpoint, secret } = JSON.parse(created.out) as { endpoint: { id: string; eventTypes: string[] }; secret: string };
    expect(endpoint.eventTypes).toEqual(['draft.version.committed']);
    expect(created.err).toMatch(/shown only now/);
    expect((await call(base(), 'POST', '/v1/drafts/home/ops', { opId: 'cli-1', ops: [section('cli', 'c')] })).status).toBe(200);
    await rx.until((r) => r.some((x) => x.path === '/cli'));
    const hit = rx.received.find((x) => x.path === '/cli')!;
    expect((new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>) as any).data.opId).toBe('cli-1');
    await eventually(async () => ((await deliveries(endpoint.id))[0]?.status === 'delivered' ? true : undefined), 'cli delivery recorded');
    const listed = await weftCli(base(), ['webhooks', 'deliveries', endpoint.id]);
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toMatch(/delivered\s+1×\s+draft\.version\.committed\s+evt_home_3_\d+_committed\s+HTTP 204/);
    const list = await weftCli(base(), ['webhooks', 'list', '--draft', 'home']);
    expect(list.out).toContain(endpoint.id);
    expect(list.out).not.toContain(secret);
    const bad = await weftCli(base(), ['webhooks', 'create', 'http://user:pw@example.com/']);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/WEBHOOK_URL_REFUSED: The URL carries credentials/);
    expect((await weftCli(base(), ['webhooks', 'delete', endpoint.id])).code).toBe(0);
    expect((await call(base(), 'GET', `/v1/webhooks/${endpoint.id}`)).status).toBe(404);
  });

  it('a rotated secret: during the overlap each delivery carries both signatures, after it only the new one', async () => {
    const { endpoint, secret: old } = await register('/rotate', { draftId: 'home', eventTypes: ['draft.version.committed'] });
    const rotated = await call(base(), 'POST', `/v1/webhooks/${endpoint.id}/rotate`, { overlapSeconds: 3600 });
    expect(rotated.status).toBe(200);
    const fresh = rotated.json.secret as string;
    expect(fresh).not.toBe(old);
    expect(rotated.json.endpoint.previousSecretUntil).not.toBeNull();
    expect((await call(base(), 'POST', '/v1/drafts/home/ops', { opId: 'rot-1', ops: [section('rot1', 'r')] })).status).toBe(200);
    await rx.until((r) => r.some((x) => x.path === '/rotate'));
    const during = rx.received.filter((x) => x.path === '/rotate')[0]!;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const s of [old, fresh]) expect(() => new Webhook(s).verify(during.body, during.headers as Record<string, string>)).not.toThrow();
    // No overlap: the old secret stops at once.
    expect((await call(base(), 'POST', `/v1/webhooks/${endpoint.id}/rotate`, { overlapSeconds: 0 })).status).toBe(200);
    const latest = (await call(base(), 'POST', `/v1/webhooks/${endpoint.id}/rotate`, { overlapSeconds: 0 })).json.secret as string;
    expect((await call(base(), 'POST', '/v1/drafts/home/ops', { opId: 'rot-2', ops: [section('rot2', 'r')] })).status).toBe(200);
    await rx.until((r) => r.filter((x) => x.path === '/rotate').length === 2);
    const after = rx.received.filter((x) => x.path === '/rotate')[1]!;
    expect(() => new Webhook(latest).verify(after.body, after.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(fresh).verify(after.body, after.headers as Record<string, string>)).toThrow();
    expect((await call(base(), 'POST', `/v1/webhooks/${endpoint.id}/rotate`, { overlapSeconds: -1 })).json.error).toMatchObject({ code: 'BAD_REQUEST', path: '/overlapSeconds' });
    expect((await call(base(), 'DELETE', `/v1/webhooks/${endpoint.id}`)).status).toBe(200);
  });

  it('a receiver that fails twice then succeeds is retried and gets the event delivered once', async () => {
    rx.script('/flaky', [500, 503, 204]);
    const { endpoint, secret } = await register('/flaky', { eventTypes: ['draft.version.committed'] });
    await call(base(), 'POST', '/v1/drafts', { id: 'flaky' });
    expect((await call(base(), 'POST', '/v1/drafts/flaky/ops', { opId: 'f1', ops: [section('s', 'x')] })).status).toBe(200);
    const d = await eventually(async () => (await deliveries(endpoint.id)).find((x) => x.status !== 'pending'), 'flaky delivery settled');
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, lastStatus: 204 });
    expect(d.eventId).toMatch(/^evt_flaky_1_\d+_committed$/);
    expect(d.attemptLog.map((a: any) => a.status)).toEqual([500, 503, 204]);
    const hits = rx.received.filter((x) => x.path === '/flaky');
    expect(hits.map((x) => x.status)).toEqual([500, 503, 204]);
    // The same message each time: one webhook-id, each attempt freshly signed and valid.
    expect(new Set(hits.map((x) => x.headers['webhook-id']))).toEqual(new Set([d.eventId]));
    for (const h of hits) expect(() => new Webhook(secret).verify(h.body, h.headers as Record<string, string>)).not.toThrow();
    // The all-drafts endpoint got no other type.
    expect(hits.every((h) => JSON.parse(h.body).type === 'draft.version.committed')).toBe(true);
  });

  it('a dead receiver ends as failed in the delivery log after the bounded attempts, and a retry starts it again', async () => {
    const deadPort = await freePort();
    const r = await call(base(), 'POST', '/v1/webhooks', { url: `http://127.0.0.1:${deadPort}/gone`, draftId: 'flaky' });
    expect(r.status).toBe(201);
    const id = r.json.endpoint.id as string;
    expect((await call(base(), 'POST', '/v1/drafts/flaky/ops', { opId: 'f2', ops: [section('t', 'y')] })).status).toBe(200);
    const d = await eventually(async () => (await deliveries(id)).find((x) => x.status === 'failed'), 'dead delivery failed');
    expect(d).toMatchObject({ attempts: 3, lastStatus: null, nextAttemptAt: null });
    expect(d.lastError).toMatch(/ECONNREFUSED/);
    expect(d.attemptLog).toHaveLength(3);
    const again = await call(base(), 'POST', `/v1/webhooks/${id}/deliveries/${d.id}/retry`);
    expect(again.status).toBe(202);
    expect(again.json.delivery).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await call(base(), 'POST', `/v1/webhooks/${id}/deliveries/999999/retry`)).status).toBe(404);
    expect((await call(base(), 'DELETE', `/v1/webhooks/${id}`)).status).toBe(200);
    expect((await call(base(), 'GET', `/v1/webhooks/${id}/deliveries`)).status).toBe(404);
  });

  it('Retry-After is honoured; 410 Gone disables the endpoint until it is enabled again', async () => {
    rx.script('/busy', [503, 204], { 'retry-after': '2' });
    const busy = await register('/busy', { draftId: 'flaky', eventTypes: ['draft.version.committed'] });
    rx.script('/gone', [410, 204]);
    const gone = await register('/gone', { draftId: 'flaky', eventTypes: ['draft.version.committed'] });
    expect((await call(base(), 'POST', '/v1/drafts/flaky/ops', { opId: 'ra-1', ops: [section('ra', 'x')] })).status).toBe(200);
    const d = await eventually(async () => (await deliveries(busy.endpoint.id)).find((x) => x.status === 'delivered'), 'busy delivered');
    // The backoff alone would have waited 0.5–1 s; the receiver asked for 2.
    const [a1, a2] = d.attemptLog as { at: string; status: number }[];
    expect([a1!.status, a2!.status]).toEqual([503, 204]);
    expect(Date.parse(a2!.at) - Date.parse(a1!.at)).toBeGreaterThanOrEqual(1900);

    const g = await eventually(async () => (await deliveries(gone.endpoint.id)).find((x) => x.status === 'failed'), '410 failed');
    expect(g).toMatchObject({ attempts: 1, lastStatus: 410 });
    const disabled = (await call(base(), 'GET', `/v1/webhooks/${gone.endpoint.id}`)).json.endpoint;
    expect(disabled.disabledAt).not.toBeNull();
    expect(disabled.disabledReason).toMatch(/HTTP 410/);
    // Disabled: a new event queues nothing for it (the other endpoint still gets it).
    expect((await call(base(), 'POST', '/v1/drafts/flaky/ops', { opId: 'ra-2', ops: [section('rb', 'y')] })).status).toBe(200);
    await eventually(async () => ((await deliveries(busy.endpoint.id)).length === 2 ? true : undefined), 'second event to busy');
    expect(await deliveries(gone.endpoint.id)).toHaveLength(1);
    const enabled = await call(base(), 'POST', `/v1/webhooks/${gone.endpoint.id}/enable`);
    expect(enabled.json.endpoint).toMatchObject({ disabledAt: null, disabledReason: null });
    expect((await call(base(), 'POST', '/v1/drafts/flaky/ops', { opId: 'ra-3', ops: [section('rc', 'z')] })).status).toBe(200);
    await eventually(async () => ((await deliveries(gone.endpoint.id)).some((x) => x.status === 'delivered') ? true : undefined), 'delivered after enable');
    expect(rx.received.filter((x) => x.path === '/gone').map((x) => x.status)).toEqual([410, 204]);
    for (const id of [busy.endpoint.id, gone.endpoint.id]) await call(base(), 'DELETE', `/v1/webhooks/${id}`);
  });

  it('a crash (SIGKILL) between attempts loses nothing: the next process delivers, once', async () => {
    rx.script('/restart', [500, 204]);
    const { endpoint } = await register('/restart', { draftId: 'flaky' });
    expect((await call(base(), 'POST', '/v1/drafts/flaky/ops', { opId: 'f3', ops: [section('u', 'z')] })).status).toBe(200);
    await eventually(async () => (await deliveries(endpoint.id)).find((x) => x.attempts === 1 && x.lastStatus === 500), 'first attempt failed');
    // Meanwhile the first test's deliveries grow old: a dispatcher prunes what is past the retention when it starts.
    // (the first test's five, the CLI test's version 3 of home and the rotation test's 4 and 5)
    expect((await deliveries(homeEndpoint)).map((x) => x.status)).toEqual(Array(8).fill('delivered'));
    await weft.kill('SIGKILL');
    await sql`UPDATE webhook_deliveries SET created_at = now() - interval '31 days' WHERE endpoint_id = ${homeEndpoint}`.execute(db.db);
    weft = await launch({ ...FAST, DATABASE_URL: db.url, WEFT_SERVICES: 'session,webhooks' });
    const d = await eventually(async () => (await deliveries(endpoint.id)).find((x) => x.status === 'delivered'), 'delivered after restart');
    expect(d.attempts).toBe(2);
    expect(d.eventId).toMatch(/^evt_flaky_6_\d+_committed$/); // after the Retry-After test's three versions
    expect(rx.received.filter((x) => x.path === '/restart').map((x) => x.status)).toEqual([500, 204]);
    await eventually(async () => ((await deliveries(homeEndpoint)).length === 0 ? true : undefined), 'old deliveries pruned');
    expect((await deliveries(endpoint.id)).length).toBe(1);
  });

  it('two dispatchers on one database send each event once', async () => {
    second = await launch({ ...FAST, DATABASE_URL: db.url, WEFT_SERVICES: 'webhooks' });
    const { endpoint } = await register('/pair', { eventTypes: ['draft.version.committed'] });
    await call(base(), 'POST', '/v1/drafts', { id: 'pair' });
    for (let i = 0; i < 20; i++) expect((await call(base(), 'POST', '/v1/drafts/pair/ops', { opId: `p${i}`, ops: [section(`s${i}`, `n${i}`)] })).status).toBe(200);
    await eventually(async () => ((await deliveries(endpoint.id)).filter((x) => x.status === 'delivered').length === 20 ? true : undefined), '20 delivered');
    const ids = rx.received.filter((x) => x.path === '/pair').map((x) => x.headers['webhook-id']);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    await second.kill();
    second = null;
  });

  it('deleting a draft deletes its own endpoints and their log; all-drafts endpoints stay', async () => {
    await call(base(), 'POST', '/v1/drafts', { id: 'gone' });
    const { endpoint } = await register('/gone', { draftId: 'gone' });
    const all = await register('/all-drafts', { eventTypes: ['draft.version.committed'] });
    expect((await call(base(), 'POST', '/v1/drafts/gone/ops', { opId: 'g1', ops: [section('a', 'first life')] })).json.version).toBe(1);
    await rx.until((r) => r.some((x) => x.path === '/all-drafts'));
    expect((await call(base(), 'DELETE', '/v1/drafts/gone')).status).toBe(200);
    expect((await call(base(), 'GET', `/v1/webhooks/${endpoint.id}`)).status).toBe(404);
    expect((await call(base(), 'GET', `/v1/webhooks/${all.endpoint.id}`)).status).toBe(200);
    // Made again under the same id: its version 1 is a new event (a new webhook-id), delivered too.
    await call(base(), 'POST', '/v1/drafts', { id: 'gone' });
    expect((await call(base(), 'POST', '/v1/drafts/gone/ops', { opId: 'g1', ops: [section('a', 'second life')] })).json.version).toBe(1);
    await rx.until((r) => r.filter((x) => x.path === '/all-drafts').length === 2);
    const lives = rx.received.filter((x) => x.path === '/all-drafts');
    expect(new Set(lives.map((x) => x.headers['webhook-id'])).size).toBe(2);
    expect(lives.map((x) => JSON.parse(x.body).data.ops[0].value.components.root.props.text)).toEqual(['first life', 'second life']);
    expect((await call(base(), 'DELETE', `/v1/webhooks/${all.endpoint.id}`)).status).toBe(200);
  });

  it('bad bodies get typed errors; only the admin token manages webhooks', async () => {
    const cases: [unknown, string][] = [
      [{}, '/url'], [{ url: 5 }, '/url'], [{ url: `${rx.url}/x`, draftId: 'No Such' }, '/draftId'], [{ url: `${rx.url}/x`, eventTypes: [] }, '/eventTypes'],
      [{ url: `${rx.url}/x`, eventTypes: ['draft.deleted'] }, '/eventTypes'], [{ url: `${rx.url}/x`, description: 'x'.repeat(501) }, '/description'],
    ];
    for (const [body, path] of cases) {
      const r = await call(base(), 'POST', '/v1/webhooks', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'BAD_REQUEST', path });
    }
    expect((await call(base(), 'POST', '/v1/webhooks', { url: `${rx.url}/x`, draftId: 'nope' })).status).toBe(404);
    expect((await call(base(), 'GET', '/v1/webhooks/wh_nope/deliveries?status=lost')).status).toBe(404);
    const minted = await call(base(), 'POST', '/v1/tokens', { actor: { id: 'ann', kind: 'human' }, scopes: { '*': ['write'] } });
    const res = await fetch(`${base()}/v1/webhooks`, { headers: { authorization: `Bearer ${minted.json.token}` } });
    expect(res.status).toBe(403);
  });
  it('hostile URLs are refused with a typed error, and the dispatcher refuses them at connect time too', async () => {
    // Registered while private addresses are allowed, then called by a strict process: refused, no request reaches it.
    const { endpoint } = await register('/strict', { draftId: 'pair' });
    await weft.kill();
    weft = await launch({ WEFT_ADMIN_TOKEN: ADMIN, DATABASE_URL: db.url, WEFT_SERVICES: 'session,webhooks', WEFT_WEBHOOK_POLL_MS: '100' });
    const hostile: [string, string][] = [
      ['http://127.0.0.1:8080/x', 'private_address'], ['http://localhost/x', 'private_address'], ['http://[::1]/x', 'private_address'],
      ['http://10.1.2.3/x', 'private_address'], ['http://192.168.0.1/x', 'private_address'], ['http://169.254.169.254/latest/meta-data/', 'private_address'],
      ['http://[::ffff:127.0.0.1]/x', 'private_address'], ['http://0.0.0.0/x', 'private_address'], ['http://2130706433/x', 'private_address'],
      ['http://0x7f.1/x', 'private_address'], ['http://[fd00::1]/x', 'private_address'], ['http://100.64.0.1/x', 'private_address'],
      ['ftp://example.com/x', 'scheme'], ['file:///etc/passwd', 'scheme'], ['http://user:pw@example.com/x', 'credentials'],
      ['not a url', 'invalid_url'], ['http://no-such-host.invalid/x', 'unresolvable'],
    ];
    for (const [url, reason] of hostile) {
      const r = await call(base(), 'POST', '/v1/webhooks', { url });
      expect(r.status, url).toBe(422);
      expect(r.json.error, url).toMatchObject({ code: 'WEBHOOK_URL_REFUSED', reason, path: '/url' });
    }
    expect((await call(base(), 'POST', '/v1/drafts/pair/ops', { opId: 'strict-1', ops: [section('strict', 'no')] })).status).toBe(200);
    const d = await eventually(async () => (await deliveries(endpoint.id)).find((x) => x.status === 'failed'), 'refused at connect');
    expect(d.attempts).toBe(1);
    expect(d.lastError).toMatch(/^refused: 127\.0\.0\.1 is a loopback address/);
    expect(rx.received.some((x) => x.path === '/strict')).toBe(false);
  });

  it('fuzz: any body on POST /v1/webhooks gets a typed 4xx, never a 5xx, and registers nothing private', async () => {
    const before = (await call(base(), 'GET', '/v1/webhooks')).json.endpoints.length as number;
    const url = fc.oneof(
      fc.string({ maxLength: 40 }).filter((x) => !x.includes(':')) /* no scheme: no DNS lookup of a random name */, fc.constantFrom(`${rx.url}/fz`, 'http://[::1]/', 'http://0177.0.0.1/', 'javascript:alert(1)', 'http://a@127.0.0.1/'),
      fc.anything(),
    );
    const body = fc.record({ url, draftId: fc.oneof(fc.constant('home'), fc.string({ maxLength: 50 }), fc.anything()), eventTypes: fc.oneof(fc.constant(['draft.version.committed']), fc.anything()), description: fc.anything() }, { requiredKeys: [] });
    await fc.assert(fc.asyncProperty(fc.oneof(body, fc.anything(), fc.constant({ __proto__: { url: 'x' } })), async (b) => {
      const res = await fetch(`${base()}/v1/webhooks`, { method: 'POST', headers: auth, body: JSON.stringify(b) ?? 'null' });
      const json = (await res.json()) as { error?: { code: string } };
      expect([400, 404, 422], JSON.stringify(b)).toContain(res.status);
      expect(json.error?.code).toMatch(/^(BAD_REQUEST|NOT_FOUND|WEBHOOK_URL_REFUSED|MALFORMED_JSON)$/);
    }), { numRuns: 150 });
    expect((await call(base(), 'GET', '/v1/webhooks')).json.endpoints.length).toBe(before);
  });
});
