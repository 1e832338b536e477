// `npm run cluster -w @weft/load-tests` (bench/three-nodes.ts) as its user drives it: the URLs it
// prints, the preview's Build view calling node-0 from another origin, a page's ticket taken by
// any node for a reader action, the Build chat finding the nodes' agent. Its printed Build view
// once had every API read blocked by CORS and every reader action refused (a ticket key per process).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const ADMIN = 'wft_admin_cluster_test';
let child: ChildProcess;
let nodes: string[] = [];
let preview = '';

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'load-tests/bench/three-nodes.ts')], {
    cwd: ROOT, env: { ...process.env, WEFT_ADMIN_TOKEN: ADMIN }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no banner in 90 s:\n${out.slice(-2000)}`)), 90_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('Ctrl-C stops everything')) return;
      clearTimeout(t);
      resolve();
    });
    child.once('exit', (code) => { clearTimeout(t); reject(new Error(`exited ${code}:\n${out.slice(-2000)}`)); });
  });
  nodes = [0, 1, 2].map((i) => new RegExp(`node-${i}: (http://\\S+)`).exec(out)![1]!);
  preview = /preview: (http:\/\/[^/\s]+)/.exec(out)![1]!;
}, 120_000);

afterAll(async () => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  await exited;
}, 60_000);

const api = (base: string, path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${ADMIN}`, ...(init.headers as Record<string, string> | undefined) } });

describe('npm run cluster', () => {
  it('the printed Build view reaches node-0 from its own origin, a reader action with its ticket lands through another node, and the chat finds the agent', async () => {
    const id = `walk-${Date.now().toString(36)}`;
    expect((await api(nodes[1]!, '/v1/drafts', { method: 'POST', body: JSON.stringify({ id, title: 'Walk' }) })).status).toBe(201);
    // The Build view (the preview's origin) calls node-0, which names that origin back.
    const page = await (await fetch(`${preview}/build/${id}`)).text();
    expect(page).toContain(`data-session-url="${nodes[0]}"`);
    const pre = await fetch(`${nodes[0]}/v1/drafts/${id}/stream`, { method: 'OPTIONS', headers: { origin: preview, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(preview);
    // The chat asks node-0 for the agent: it is there (no model configured here, so it says which variables).
    const model = await fetch(`${nodes[0]}/agent/model`, { headers: { origin: preview } });
    expect(((await model.json()) as { message: string }).message).toContain('WEFT_MODEL_URL');
    // A live page's ticket, minted by the preview, is taken by node-2 for a reader's Toggle.
    const plan = { id: 'plan', kind: 'surface', catalog: 'weft@1', data: { period: 'monthly' }, components: { root: { id: 'root', component: 'Stack', children: ['period'] }, period: { id: 'period', component: 'Toggle', props: { options: ['monthly', 'yearly'], value: { path: '/period' }, event: 'plan.period' } } } };
    expect((await api(nodes[0]!, `/v1/drafts/${id}/ops`, { method: 'POST', body: JSON.stringify({ opId: `${id}-plan`, ops: [{ op: 'add', path: '/sections/plan', value: plan }] }) })).status).toBe(200);
    const { ticket } = (await (await api(preview, `/preview/${id}/ticket`, { method: 'POST' })).json()) as { ticket: string };
    const action = { version: 'v0.9', action: { name: 'plan.period', surfaceId: 'plan', sourceComponentId: 'period', timestamp: new Date().toISOString(), context: { '/period': 'yearly' } } };
    const posted = await fetch(`${nodes[2]}/v1/drafts/${id}/actions?ticket=${encodeURIComponent(ticket)}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: preview }, body: JSON.stringify(action) });
    expect(posted.status).toBe(202);
    const d = (await (await api(nodes[1]!, `/v1/drafts/${id}?minVersion=${((await posted.json()) as { version: number }).version}`)).json()) as { draft: { sections: Record<string, { data: Record<string, unknown> }> } };
    expect(d.draft.sections['plan']!.data['period']).toBe('yearly');
  });
});
