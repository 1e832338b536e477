import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { WeftPeer } from '@weft/client';
import { createTestDatabase, freePort, lintMetrics, natsUrl, startCaddy } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
// @ts-expect-error — a plain .mjs script without types.
import { buildAll } from '../../../infra/scripts/build.mjs';
import { CHROMIUM_LAUNCH } from '../../preview/test/stack.ts';

// The compose layout without Docker: the image's runtime stage rebuilt in a temp folder — the
// workspace manifests and the lockfile, `npm ci --omit=dev`, the built dist/ — then
// `node dist/launcher.js` (no tsx, no TypeScript) as three processes, session, preview and
// checkpointer, on real Postgres and nats-server, each checked through its HTTP endpoints and its
// stdout, the way an operator sees them.
const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const ADMIN = `wft_admin_${randomBytes(12).toString('hex')}`;
const DRAFT = `ops-${randomBytes(4).toString('hex')}`;

interface Proc { name: string; url: string; child: ChildProcess; out: () => string }
let out: string;
let db: TestDatabase;
const procs: Record<string, Proc> = {};

async function startService(name: string, extra: Record<string, string> = {}, entry = 'launcher.js'): Promise<Proc> {
  const port = await freePort();
  let text = '';
  const child = spawn(process.execPath, [join(out, entry)], {
    cwd: mkdtempSync(join(tmpdir(), 'weft-built-')),
    env: {
      PATH: process.env['PATH'] ?? '', DATABASE_URL: db.url, NATS_URL: natsUrl(), WEFT_ADMIN_TOKEN: ADMIN, WEFT_SERVICES: name,
      HOST: '127.0.0.1', PORT: String(port), WEFT_NODE_ID: `${name}-1`, WEFT_PREVIEW_SECRET: 'test-secret', WEFT_DATA_DIR: mkdtempSync(join(tmpdir(), 'weft-data-')), ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => { text += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { text += d.toString(); });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode}:\n${text}`);
    const ok = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 600) throw new Error(`${name} not ready after 60 s:\n${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { name, url, child, out: () => text };
}

const api = (path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${procs['session']!.url}${path}`, { ...init, headers: { authorization: `Bearer ${ADMIN}`, ...init.headers } });

/** What the Dockerfile's manifests stage copies: the root and every workspace package.json, the lockfile. */
function copyManifests(to: string): void {
  for (const f of ['package.json', 'package-lock.json']) cpSync(join(ROOT, f), join(to, f));
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'package.json') {
        mkdirSync(join(to, relative(ROOT, dir)), { recursive: true });
        cpSync(p, join(to, relative(ROOT, p)));
      }
    }
  };
  for (const top of ['shared', 'services', 'migrations', 'load-tests']) walk(join(ROOT, top));
}

let runtime: string;

beforeAll(async () => {
  runtime = mkdtempSync(join(tmpdir(), 'weft-runtime-'));
  copyManifests(runtime);
  const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], { cwd: runtime, encoding: 'utf8', timeout: 240_000, env: { ...process.env, NODE_ENV: 'production' } });
  expect(install.status, `${install.stdout}${install.stderr}`).toBe(0);
  out = join(runtime, 'dist');
  await buildAll(out);
  db = await createTestDatabase();
  // The session first: it migrates the database (the others would too; one at a time is quicker here).
  procs['session'] = await startService('session');
  const [preview, checkpointer] = await Promise.all([startService('preview'), startService('checkpointer', { WEFT_CHECKPOINT_QUIET_MS: '100' })]);
  procs['preview'] = preview;
  procs['checkpointer'] = checkpointer;
});

afterAll(async () => {
  await Promise.all(Object.values(procs).map((p) => new Promise<void>((r) => {
    if (p.child.exitCode !== null) return r();
    p.child.once('exit', () => r());
    p.child.kill('SIGTERM');
  })));
  await db?.drop();
  if (runtime) rmSync(runtime, { recursive: true, force: true });
});

describe('the built services, as compose runs them', () => {
  it('run from a production-only install: no tsx, TypeScript or test tools there', () => {
    for (const dev of ['tsx', 'typescript', 'vitest', 'playwright-core', 'fast-check']) expect(existsSync(join(runtime, 'node_modules', dev)), dev).toBe(false);
    expect(existsSync(join(runtime, 'node_modules', 'pino'))).toBe(true);
  });

  it('each answers /healthz (alive) and /readyz (database and bus reachable)', async () => {
    for (const p of Object.values(procs)) {
      expect((await fetch(`${p.url}/healthz`)).status, p.name).toBe(200);
      const ready = await (await fetch(`${p.url}/readyz`)).json() as { ok: boolean; checks: Record<string, boolean> };
      expect(ready, p.name).toMatchObject({ ok: true, checks: { database: true, bus: true } });
    }
  });

  it('ops through the session reach the preview and the checkpointer over NATS; the request id is echoed', async () => {
    expect((await api('/v1/drafts', { method: 'POST', body: JSON.stringify({ id: DRAFT, title: 'Ops' }) })).status).toBe(201);
    const res = await api(`/v1/drafts/${DRAFT}/ops`, {
      method: 'POST', headers: { 'x-request-id': 'req-ops-1' },
      body: JSON.stringify({ opId: 'o1', ops: [{ op: 'replace', path: '/title', value: 'Ops walk' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-ops-1');
    // The checkpointer snapshots after 100 ms of quiet; the preview renders the page from the log.
    let snapshots = 0;
    for (let i = 0; i < 300 && snapshots === 0; i++) {
      const text = await (await fetch(`${procs['checkpointer']!.url}/metrics`)).text();
      snapshots = Number(/^weft_snapshots_written_total\{reason="quiet",warm="(?:true|false)"\} (\d+)/m.exec(text)?.[1] ?? 0);
      if (snapshots === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(snapshots).toBeGreaterThan(0);
  });

  it('the Build view on the preview serves the editor bundled at build time', async () => {
    const page = await fetch(`${procs['preview']!.url}/build/${DRAFT}`);
    expect(page.status).toBe(200);
    const src = /src="(\/preview\/assets\/editor\.js\?v=([0-9a-f]+))"/.exec(await page.text());
    expect(src).not.toBeNull();
    const prebuilt = readFileSync(join(out, 'editor.js'), 'utf8');
    expect(src![2]).toBe(createHash('sha256').update(prebuilt).digest('hex').slice(0, 12));
    expect(await (await fetch(`${procs['preview']!.url}${src![1]}`)).text()).toBe(prebuilt);
  });

  it('/metrics of every service passes the Prometheus lint, with process, runtime and its own metrics', async () => {
    const want: Record<string, string[]> = {
      session: ['weft_ack_seconds', 'weft_commit_batch_steps', 'weft_fanout_seconds', 'weft_steps_committed_total', 'weft_http_errors_total', 'weft_rooms_open'],
      preview: ['weft_preview_drafts_loaded', 'weft_preview_apply_seconds'],
      checkpointer: ['weft_snapshots_written_total', 'weft_snapshot_seconds'],
    };
    for (const p of Object.values(procs)) {
      const res = await fetch(`${p.url}/metrics`);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const { families, problems } = lintMetrics(await res.text());
      expect(problems, p.name).toEqual([]);
      const names = families.map((f) => f.name);
      for (const n of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', ...want[p.name]!]) expect(names, `${p.name}: ${n}`).toContain(n);
    }
    // The one submit of the walk above, its group commit, and its bus publish (acknowledged
    // asynchronously after the answer, hence the poll).
    const session = (): Promise<string> => fetch(`${procs['session']!.url}/metrics`).then((r) => r.text());
    expect(await session()).toMatch(/^weft_ack_seconds_count\{outcome="ok"\} 1$/m);
    expect(await session()).toMatch(/^weft_commit_batch_steps_count [1-9]/m);
    await expect.poll(session, { timeout: 10_000, interval: 100 }).toMatch(/^weft_fanout_seconds_count\{outcome="ok"\} [1-9]/m);
  });

  it('a Yjs submit: the upgrade is logged with a request id, the submit commits', async () => {
    const peer = await WeftPeer.join({ url: procs['session']!.url, draftId: DRAFT, token: ADMIN });
    try {
      const r = await peer.submit([{ op: 'replace', path: '/title', value: 'Through Yjs' }], { opId: 'yjs-1' });
      expect(r.ok).toBe(true);
    } finally {
      peer.close();
    }
    const upgrade = procs['session']!.out().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { msg: string; reqId?: string }).find((o) => o.msg.startsWith('UPGRADE /collab'));
    expect(upgrade?.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('what Hocuspocus prints itself (a connection closed for a malformed update) is a JSON line with the error', async () => {
    const bad = await WeftPeer.join({ url: procs['session']!.url, draftId: DRAFT, token: ADMIN });
    const closed = new Promise<number>((r) => bad.provider.on('close', ({ event }: { event: { code: number } }) => r(event.code)));
    const name = new TextEncoder().encode(DRAFT);
    (bad.provider.configuration.websocketProvider as unknown as { send(m: Uint8Array): void }).send(new Uint8Array([name.length, ...name, 0, 2, 5, 0xff, 0xff, 0xff, 0xff, 0xff]));
    expect(await closed).toBe(4400);
    bad.close();
    type Line = { level: string; msg: string; source?: string; err?: { message?: string; stack?: string } };
    const find = (): Line | undefined => procs['session']!.out().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line)
      .find((o) => o.source === 'console' && o.msg.includes('closing connection'));
    await expect.poll(find, { timeout: 5000 }).toBeDefined();
    // Hocuspocus's console.error(message, error): one line, level error, the stack inside `err`.
    const hp = find()!;
    expect(hp.level).toBe('error');
    expect(hp.err?.stack?.split('\n').length).toBeGreaterThan(1);
  });

  it('stdout is JSON lines only: time, level, service, node; access lines carry the request id; no secret', async () => {
    for (const p of Object.values(procs)) {
      const lines = p.out().split('\n').filter(Boolean);
      expect(lines.length, p.name).toBeGreaterThan(0);
      for (const line of lines) {
        const o = JSON.parse(line) as Record<string, unknown>;
        expect(o, line).toMatchObject({ level: expect.any(String), service: p.name, node: `${p.name}-1`, msg: expect.any(String) });
        expect(Date.parse(String(o['time']))).not.toBeNaN();
      }
      expect(p.out()).not.toContain(ADMIN);
      const password = new URL(db.url).password;
      if (password) expect(p.out()).not.toContain(password);
    }
    const access = procs['session']!.out().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { reqId?: string; msg: string; req?: { path: string }; res?: { status: number }; responseTime?: number })
      .find((o) => o.reqId === 'req-ops-1');
    expect(access).toMatchObject({ msg: `POST /v1/drafts/${DRAFT}/ops 200`, req: { path: `/v1/drafts/${DRAFT}/ops` }, res: { status: 200 } });
    expect(access!.responseTime).toBeGreaterThanOrEqual(0);
  });

  it('the replay worker bundle (dist/fold-worker.js, started beside the entry bundles) runs without tsx and folds pages', () => {
    // What fold-off-thread.ts does in a bundle: `new Worker(new URL('./fold-worker.js', import.meta.url))`.
    const script = `import { Worker } from 'node:worker_threads';
      const w = new Worker(new URL('./fold-worker.js', import.meta.url));
      w.on('message', (m) => { console.log(JSON.stringify(m)); process.exit(0); });
      w.postMessage({ job: 1, kind: 'start', draftId: 'd', draft: { id: 'd', title: '', order: [], sections: {} } });
      w.postMessage({ job: 1, kind: 'page', first: 1, text: JSON.stringify([[{ op: 'replace', path: '/title', value: 'folded' }], [{ op: 'add', path: '/order/-', value: 'a' }]]) });
      w.postMessage({ job: 1, kind: 'end' });`;
    const probe = join(out, 'probe-fold-worker.mjs');
    writeFileSync(probe, script);
    try {
      const r = spawnSync(process.execPath, [probe], { cwd: runtime, encoding: 'utf8', timeout: 20_000 });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout) as unknown).toEqual({ job: 1, ok: true, draft: { id: 'd', title: 'folded', order: ['a'], sections: {} } });
    } finally {
      rmSync(probe);
    }
  });

  it('the standalone entries (dist/preview.js, dist/checkpointer.js, dist/webhooks.js) start, get ready and serve linted metrics', async () => {
    for (const entry of ['preview.js', 'checkpointer.js', 'webhooks.js']) {
      const name = entry.replace('.js', '');
      const p = await startService(name, {}, entry);
      try {
        expect((await (await fetch(`${p.url}/readyz`)).json()) as unknown, entry).toMatchObject({ ok: true, service: name, checks: { database: true, bus: true } });
        expect(lintMetrics(await (await fetch(`${p.url}/metrics`)).text()).problems, entry).toEqual([]);
        for (const line of p.out().split('\n').filter(Boolean)) expect(JSON.parse(line) as unknown, line).toMatchObject({ service: name, node: `${name}-1` });
      } finally {
        await new Promise<void>((r) => { p.child.once('exit', () => r()); p.child.kill('SIGTERM'); });
      }
    }
  });

  it('behind the compose proxy (Caddy, the repo\'s Caddyfile): the Build view in Chromium, live over SSE and WebSocket through it; a reader action in its page and the Build chat reach the session process', async () => {
    // The compose file's service names become this machine's ports (all three session names: the
    // one session process here); the routes are the file's.
    const session = procs['session']!.url.replace('http://', '');
    const caddy = await startCaddy(join(ROOT, 'infra/docker/Caddyfile'), { 'session-1': session, 'session-2': session, 'session-3': session, preview: procs['preview']!.url.replace('http://', '') });
    const browser = await chromium.launch(CHROMIUM_LAUNCH);
    try {
      const url = caddy.url;
      const id = `${DRAFT}-proxy`;
      const api = (path: string, body?: unknown): Promise<Response> => fetch(`${url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${ADMIN}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      expect((await api('/v1/drafts', { id, title: 'Proxy' })).status).toBe(201);
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${url}/build/${id}`); // the preview's page, on the proxy's origin
      await page.fill('#wb-token', ADMIN);
      await page.press('#wb-token', 'Enter');
      const hero = { id: 'hero', kind: 'surface', catalog: 'weft@1', components: { root: { id: 'root', component: 'Stack', children: ['title'] }, title: { id: 'title', component: 'Heading', props: { text: 'Through the proxy', level: 1 } } }, data: {} };
      expect((await api(`/v1/drafts/${id}/ops`, { opId: 'px-1', ops: [{ op: 'add', path: '/sections/hero', value: hero }] })).status).toBe(200);
      await page.frameLocator('#wb-frame').locator('[data-component-id="title"]').waitFor({ timeout: 20_000 });
      // The Build chat found the agent on the session process (no model is configured here, so it
      // says that), not "no agent here": the preview process runs none itself.
      await expect.poll(() => page.locator('#wb-chat-no-model').innerText().catch(() => ''), { timeout: 10_000 }).toContain('WEFT_MODEL_URL');
      // An edit in the page goes back through the proxy (the editor's Yjs socket) and commits.
      await page.click('#wb-outline [data-key="hero/title"]');
      await page.fill('#wb-f-level', '2');
      await page.press('#wb-f-level', 'Tab');
      await page.frameLocator('#wb-frame').locator('h2[data-component-id="title"]').waitFor({ timeout: 10_000 });
      const served = await (await api(`/v1/drafts/${id}`)).json() as { draft: { sections: Record<string, { components: Record<string, { props?: Record<string, unknown> }> }> } };
      expect(served.draft.sections['hero']!.components['title']!.props!['level']).toBe(2);
      // A reader's Toggle in the page posts its action with the frame's ticket, which the session
      // process (not the preview that minted it) takes: the same WEFT_PREVIEW_SECRET on both.
      const plan = { id: 'plan', kind: 'surface', catalog: 'weft@1', data: { period: 'monthly' }, components: { root: { id: 'root', component: 'Stack', children: ['period'] }, period: { id: 'period', component: 'Toggle', props: { options: ['monthly', 'yearly'], value: { path: '/period' }, event: 'plan.period' } } } };
      expect((await api(`/v1/drafts/${id}/ops`, { opId: 'px-2', ops: [{ op: 'add', path: '/sections/plan', value: plan }, { op: 'add', path: '/order/-', value: 'plan' }] })).status).toBe(200);
      await page.frameLocator('#wb-frame').getByText('yearly', { exact: true }).click({ timeout: 20_000 });
      const period = async (): Promise<unknown> => ((await (await api(`/v1/drafts/${id}`)).json()) as { draft: { sections: Record<string, { data: Record<string, unknown> }> } }).draft.sections['plan']!.data['period'];
      await expect.poll(period, { timeout: 10_000 }).toBe('yearly');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await caddy.stop();
    }
  });

  it('a bad value stops the process with one line naming it, exit code 2, no stack', () => {
    const r = spawnSync(process.execPath, [join(out, 'launcher.js')], { env: { PATH: process.env['PATH'] ?? '', WEFT_MAX_BATCH: 'lots' }, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('weft: bad configuration: WEFT_MAX_BATCH: must be an integer ≥ 1, got "lots"\n');
  });
});
