import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@weft/testing';
import { ROOT, startServer } from './server.ts';
import type { TestServer } from './server.ts';
// @ts-expect-error — a plain .mjs script without types.
import { buildSdk } from '../../../infra/scripts/build-sdk.mjs';

// The SDK as an integrator gets it: `npm pack` of the built package, installed into a folder
// outside the workspace (no @weft/* there, no tsx), type-checked, and run with plain node
// against a running Weft — through a dead URL first, to use the failover.
/** The package name as the consumer's code imports it (a variable, so the dependency rule's scan does not read it as ours). */
const PKG = '@weft/client';
let app: string;
let built: string;
let tarball: string;
let server: TestServer;

beforeAll(async () => {
  built = mkdtempSync(join(ROOT, 'node_modules', '.weft-sdk-'));
  await buildSdk(built);
  const pack = spawnSync('npm', ['pack', '--silent', '--pack-destination', built], { cwd: built, encoding: 'utf8' });
  expect(pack.status, pack.stderr).toBe(0);
  tarball = join(built, readdirSync(built).find((f) => f.endsWith('.tgz'))!);

  app = mkdtempSync(join(tmpdir(), 'weft-sdk-user-'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'sdk-user', private: true, type: 'module' }));
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', tarball], { cwd: app, encoding: 'utf8', timeout: 240_000 });
  expect(install.status, `${install.stdout}${install.stderr}`).toBe(0);

  server = await startServer();
}, 300_000);

afterAll(async () => {
  await server?.stop();
  for (const d of [app, built]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('the packed @weft/client, installed outside the workspace', () => {
  it('installs with only published dependencies', () => {
    const ls = spawnSync('npm', ['ls', '--all', '--json'], { cwd: app, encoding: 'utf8' });
    const tree = JSON.parse(ls.stdout) as { dependencies: Record<string, { dependencies?: Record<string, unknown> }> };
    expect(Object.keys(tree.dependencies)).toEqual(['@weft/client']);
    expect(Object.keys(tree.dependencies['@weft/client']!.dependencies ?? {}).sort()).toEqual(['@hocuspocus/provider', '@modelcontextprotocol/sdk', 'ws', 'y-protocols', 'yjs', 'zod']);
  });

  it('type-checks a consumer with its .d.ts (no @weft/* or sources needed)', () => {
    writeFileSync(join(app, 'use.ts'), `
import { WeftHttpClient, WeftPeer, WeftError } from '${PKG}';
import type { SubmitInput, ClientOptions } from '${PKG}';
const opts: ClientOptions = { timeoutMs: 1000, retries: 1 };
const c = new WeftHttpClient(['http://a', 'http://b'], 't', opts);
const input: SubmitInput = { opId: 'x', ops: [] };
export async function f(): Promise<number> {
  const r = await c.submit('home', input);
  const p = await WeftPeer.join({ url: c.baseUrl, draftId: 'home', token: 't' });
  const title: string = p.draft().title;
  if (r instanceof WeftError) return 0;
  return r.version + title.length;
}
// @ts-expect-error — submit needs an opId
c.submit('home', { ops: [] });
`);
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, lib: ['ES2022', 'DOM'], types: [], skipLibCheck: false }, files: ['use.ts'] }));
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(app, 'tsconfig.json')], { encoding: 'utf8' });
    // On failure, say where the types went missing: in the tarball, or in the install.
    const listing = (): string => `tarball: ${spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.split('\n').filter((f) => f.includes('/types/')).length} type files; installed protocol types: ${readdirSync(join(app, 'node_modules/@weft/client/types/protocol')).join(' ')}`;
    expect(`${tsc.stdout}${tsc.stderr}`, tsc.status === 0 ? '' : listing()).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('plain node talks to a running server: failover past a dead URL, same-opId retry applied once, a Yjs peer', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    writeFileSync(join(app, 'run.mjs'), `
import { WeftHttpClient, WeftPeer, WeftError } from '${PKG}';
const [dead, url, token] = process.argv.slice(2);
const c = new WeftHttpClient([dead, url], token, { timeoutMs: 5000, backoffMs: 10 });
const out = {};
out.created = await c.createDraft('sdk', 'SDK');
const ops = [{ op: 'replace', path: '/title', value: 'From the packed SDK' }];
out.first = await c.submit('sdk', { opId: 'sdk-1', ops });
out.again = await c.submit('sdk', { opId: 'sdk-1', ops });
out.baseUrl = c.baseUrl;
out.steps = (await c.events('sdk')).steps.map((s) => s.version);
try { await c.getDraft('nope'); } catch (e) { out.error = e instanceof WeftError ? [e.status, e.code] : String(e); }
const peer = await WeftPeer.join({ url, draftId: 'sdk', token });
out.peerTitle = peer.draft().title;
const answer = await peer.submit([{ op: 'replace', path: '/title', value: 'Through Yjs' }], { opId: 'sdk-2' });
out.peerAnswer = answer.ok ?? answer;
peer.close();
out.final = (await c.getDraft('sdk')).draft.title;
console.log(JSON.stringify(out));
`);
    const run = spawnSync(process.execPath, ['run.mjs', dead, server.url, server.admin], { cwd: app, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env['PATH'] ?? '' } });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out['created']).toEqual({ id: 'sdk', version: 1 });
    expect(out['first']).toMatchObject({ version: 2 });
    expect(out['again']).toEqual({ ...(out['first'] as object), replayed: true }); // the same opId: the original result, no new version
    expect(out['baseUrl']).toBe(server.url);
    expect(out['steps']).toEqual([1, 2]);
    expect(out['error']).toEqual([404, 'NOT_FOUND']);
    expect(out['peerTitle']).toBe('From the packed SDK');
    expect(out['peerAnswer']).toBe(true);
    expect(out['final']).toBe('Through Yjs');
  });

  it('ships the weft CLI as its bin, runnable with plain node', () => {
    const r = spawnSync(join(app, 'node_modules/.bin/weft'), ['drafts', 'list', '--json'], { cwd: app, encoding: 'utf8', timeout: 30_000, env: { PATH: process.env['PATH'] ?? '', WEFT_URL: server.url, WEFT_TOKEN: server.admin } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { drafts: { id: string }[] }).drafts.map((d) => d.id)).toContain('sdk');
  });
});
