import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WeftHttpClient } from '../src/http-client.ts';
import { ROOT, startServer } from './server.ts';
import type { TestServer } from './server.ts';

// `weft` as a person or a script uses it: the real CLI process against a running Weft, input on
// stdin or from files, human output and --json, exit codes, hostile input.
const CLI = join(ROOT, 'shared/client/src/cli/main.ts');
let server: TestServer;
let dir: string;

interface Run { code: number | null; out: string; err: string }
function weft(args: string[], opts: { stdin?: string; token?: string; onOut?: (text: string, kill: () => void) => void } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env['PATH'] ?? '', WEFT_URL: server.url, WEFT_TOKEN: opts.token ?? server.admin },
    });
    let out = '';
    let err = '';
    const guard = setTimeout(() => { p.kill('SIGKILL'); reject(new Error(`weft ${args.join(' ')} hung:\n${out}\n${err}`)); }, 45_000);
    p.stdout.on('data', (d: Buffer) => { out += d.toString(); opts.onOut?.(out, () => p.kill('SIGINT')); });
    p.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    p.on('exit', (code) => { clearTimeout(guard); resolve({ code, out, err }); });
    p.stdin.end(opts.stdin ?? '');
  });
}
const lines = (r: Run): unknown[] => r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
const title = (v: string) => ({ op: 'replace', path: '/title', value: v });

beforeAll(async () => {
  server = await startServer();
  dir = mkdtempSync(join(tmpdir(), 'weft-cli-'));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('weft (the CLI) end to end', () => {
  it('drafts create, list and get', async () => {
    expect(await weft(['drafts', 'create', 'cli-page', '--title', 'CLI page'])).toMatchObject({ code: 0, out: 'created cli-page (v1)\n' });
    const list = await weft(['drafts', 'list', '--json']);
    expect(list.code).toBe(0);
    expect((lines(list)[0] as { drafts: { id: string; headVersion: number }[] }).drafts).toContainEqual(expect.objectContaining({ id: 'cli-page', headVersion: 1 }));
    expect((await weft(['drafts', 'list'])).out).toMatch(/^cli-page\s+v1\s+CLI page$/m);
    const got = await weft(['drafts', 'get', 'cli-page']);
    expect(JSON.parse(got.out)).toMatchObject({ id: 'cli-page', version: 1, draft: { title: 'CLI page' } });
  });

  it('submit: JSON Lines on stdin as one step, refusals shown with exit code 3; a step file with --op-id replays', async () => {
    const jsonl = [title('From stdin'), { op: 'add', path: '/__proto__/x', value: 1 }].map((o) => JSON.stringify(o)).join('\n');
    const r = await weft(['submit', 'cli-page'], { stdin: jsonl });
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^v2 {2}cli-[0-9a-f-]+: 1 applied, 0 repaired, 1 refused$/m);
    expect(r.out).toMatch(/REFUSED {2}\/__proto__\/x \(forbidden_segment\): /);

    const file = join(dir, 'step.json');
    writeFileSync(file, JSON.stringify({ ops: [title('From a file')] }));
    const first = await weft(['submit', 'cli-page', '--file', file, '--op-id', 'cli-fixed', '--json']);
    const again = await weft(['submit', 'cli-page', '--file', file, '--op-id', 'cli-fixed', '--json']);
    expect(first.code).toBe(0);
    expect(lines(first)[0]).toMatchObject({ opId: 'cli-fixed', version: 3, refused: [] });
    expect(lines(again)[0]).toMatchObject({ opId: 'cli-fixed', version: 3, replayed: true });
  });

  it('events lists the log; --follow streams new commits until Ctrl-C', async () => {
    const log = await weft(['events', 'cli-page', '--json']);
    expect((lines(log) as { version: number }[]).map((s) => s.version)).toEqual([1, 2, 3]);
    expect((await weft(['events', 'cli-page', '--after', '2'])).out).toMatch(/^v3 .* cli-fixed {2}1 op$/m);

    const sdk = new WeftHttpClient(server.url, server.admin);
    let sent = false;
    const follow = await weft(['events', 'cli-page', '--follow'], {
      onOut: (text, stop) => {
        if (!sent && text.includes('cli-fixed')) {
          sent = true;
          void sdk.submit('cli-page', { opId: 'while-following', ops: [title('Live')] });
        }
        if (/^v4 +STATE_DELTA {2}replace \/title$/m.test(text)) stop();
      },
    });
    expect(follow.err).toContain('following cli-page after v3');
    expect(follow.out).toMatch(/^v4 +STATE_DELTA {2}replace \/title$/m);
    expect(follow.code).toBe(0);
  });

  it('undo and redo', async () => {
    expect((await weft(['undo', 'cli-page'])).out).toMatch(/^v5 {2}undid v4$/m);
    expect((await weft(['redo', 'cli-page'])).out).toMatch(/^v6 {2}redid v5$/m);
    const d = JSON.parse((await weft(['drafts', 'get', 'cli-page'])).out) as { draft: { title: string } };
    expect(d.draft.title).toBe('Live');
  });

  it('tokens mint and revoke: the minted token works, then is refused', async () => {
    const mint = await weft(['tokens', 'mint', '--actor', 'cli-bot', '--scope', 'cli-page:read', '--json']);
    const { token, id } = lines(mint)[0] as { token: string; id: string };
    expect((await weft(['drafts', 'get', 'cli-page'], { token })).code).toBe(0);
    const w = await weft(['submit', 'cli-page'], { token, stdin: JSON.stringify([title('no')]) });
    expect(w).toMatchObject({ code: 1, err: expect.stringMatching(/^weft: FORBIDDEN: /) });
    expect((await weft(['tokens', 'revoke', id])).out).toBe(`revoked ${id}\n`);
    let code: number | null = 0;
    for (let i = 0; i < 20 && code === 0; i++) {
      code = (await weft(['drafts', 'get', 'cli-page'], { token })).code;
      if (code === 0) await new Promise((r) => setTimeout(r, 500));
    }
    expect(code).toBe(1);
  });

  it('import a json-render spec, export it as A2UI, print the catalog prompt', async () => {
    const spec = join(dir, 'spec.json');
    writeFileSync(spec, JSON.stringify({ root: 'box', elements: { box: { type: 'Stack', props: {}, children: ['head'] }, head: { type: 'Heading', props: { text: 'Imported', level: 2 } } }, state: {} }));
    const imp = await weft(['import', 'cli-page', '--file', spec, '--format', 'json-render', '--section', 'imported']);
    expect(imp.code, imp.err).toBe(0);
    expect(imp.out).toMatch(/imported into cli-page: \d+ ops applied, 0 refused/);
    const exp = await weft(['export', 'cli-page', '--section', 'imported', '--format', 'a2ui']);
    const msgs = JSON.parse(exp.out) as { version: string }[];
    expect(msgs[0]).toMatchObject({ version: 'v0.9' });
    const cat = await weft(['catalog', 'prompt']);
    expect(cat.code).toBe(0);
    expect(cat.out).toContain('Heading');
  });

  it('catalog manifests (written and printed) are the checked-in catalog/ files; the prompt is asked by catalog id, an unknown id refused', async () => {
    const out = join(dir, 'manifests');
    const w = await weft(['catalog', 'manifests', '--out', out]);
    expect(w.code, w.err).toBe(0);
    expect(w.out).toMatch(/^wrote \d+ manifest file\(s\) of weft@1 to /);
    const checkedIn = join(ROOT, 'catalog');
    const names = readdirSync(checkedIn).filter((n) => n !== 'catalog.json').sort();
    expect(readdirSync(out).filter((n) => n !== 'catalog.json').sort()).toEqual(names);
    expect(names.length).toBeGreaterThan(30);
    for (const f of ['catalog.json', ...names.map((n) => `${n}/catalog.json`)]) expect([f, readFileSync(join(out, f), 'utf8')]).toEqual([f, readFileSync(join(checkedIn, f), 'utf8')]);
    const printed = JSON.parse((await weft(['catalog', 'manifests'])).out) as { id: string; files: Record<string, { name: string }> };
    expect(printed.id).toBe('weft@1');
    expect(printed.files['Heading/catalog.json']).toEqual(JSON.parse(readFileSync(join(checkedIn, 'Heading/catalog.json'), 'utf8')));

    const prompt = await weft(['catalog', 'prompt', '--catalog-id', 'weft@1']);
    expect(prompt.code).toBe(0);
    expect(prompt.out).toContain('# Building a Weft page (catalog weft@1)');
    expect(prompt.out).toBe((await weft(['catalog', 'prompt'])).out);
    const blog = await weft(['catalog', 'prompt', '--catalog-id', 'blog@1']);
    expect(blog).toMatchObject({ code: 1, err: expect.stringContaining('known catalogs: weft@1') });
    expect((await weft(['catalog', 'manifests', '--catalog-id', 'blog@1', '--out', join(dir, 'blog')])).code).toBe(1);
    expect(existsSync(join(dir, 'blog'))).toBe(false);
    expect((await weft(['catalog', 'prompt', '--catalog-id', '../x'])).code).toBe(2);
  });

  it('hostile and mistaken input: a clear message, a non-zero exit, nothing written', async () => {
    const bad = await weft(['submit', 'cli-page'], { stdin: `${JSON.stringify(title('x'))}\n{"op":` });
    expect(bad).toMatchObject({ code: 1, err: expect.stringMatching(/^weft: input: line 2: not JSON/) });
    expect((await weft(['submit', 'cli-page', '--bogus'])).code).toBe(2);
    expect((await weft(['frobnicate'])).err).toContain('Unknown command "frobnicate"');
    const traversal = await weft(['drafts', 'get', '../../v1/tokens']);
    expect(traversal.code).toBe(1);
    expect(traversal.err).toMatch(/^weft: (NOT_FOUND|BAD_REQUEST): /);
    const head = (lines(await weft(['drafts', 'list', '--json']))[0] as { drafts: { id: string; headVersion: number }[] }).drafts.find((d) => d.id === 'cli-page')!.headVersion;
    expect(head).toBeGreaterThan(0);
    const after = JSON.parse((await weft(['drafts', 'get', 'cli-page'])).out) as { version: number };
    expect(after.version).toBe(head);
  });
});
