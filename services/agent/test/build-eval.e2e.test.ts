// `weft build-eval` as an operator runs it: the real CLI process, two models of different quality
// on a local fake OpenAI-compatible server (never a paid endpoint), in memory and against a
// running session service (test Postgres). Checked: the NDJSON per run, the ranked table, the
// files in --out, what reached the model endpoint (keys, re-asks), and the drafts on the server.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WeftHttpClient } from '@weft/client';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../src/eval/measure.ts';
import { BAKERY } from '../src/eval/briefs.ts';
import { SHAKY, evalFakeModels } from './eval-models.ts';
import { fakeTokens, startSession, stopStack } from './services.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'shared/client/src/cli/main.ts');
const KEY = 'sk-fake-eval-key-7f3a';

interface Out { code: number | null; out: string; err: string }
function weft(args: string[], env: Record<string, string> = {}): Promise<Out> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', CLI, 'build-eval', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '', ...env } });
    let out = '';
    let err = '';
    const guard = setTimeout(() => { p.kill('SIGKILL'); reject(new Error(`weft build-eval hung:\n${out}\n${err}`)); }, 90_000);
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('exit', (code) => { clearTimeout(guard); resolve({ code, out, err }); });
  });
}
const ndjson = (text: string): RunRecord[] => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as RunRecord);
const tableRows = (text: string): string[][] => text.split('\n').filter((l) => /^\| \d+ \|/.test(l)).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));

let model: Awaited<ReturnType<typeof evalFakeModels>>;
let dir: string;
beforeAll(async () => {
  model = await evalFakeModels();
  dir = mkdtempSync(join(tmpdir(), 'weft-build-eval-'));
});
afterAll(() => {
  model?.server.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('weft build-eval in memory', () => {
  it('runs the five briefs on both models and ranks the steady one first, whatever the order given', async () => {
    const out = join(dir, 'memory');
    const r = await weft(['--model', `url=${model.url},model=shaky,key-env=EVAL_KEY`, '--model', `url=${model.url},model=steady`, '--out', out], { EVAL_KEY: KEY });
    expect(r.err).toContain('2 model(s) × 5 brief(s) (landing, pricing, faq, edit, scope), in memory');
    expect(r.code).toBe(0);

    const runs = ndjson(readFileSync(join(out, 'runs.ndjson'), 'utf8'));
    expect(runs.map((x) => `${x.model}/${x.brief}`)).toEqual(['shaky', 'steady'].flatMap((m) => ['landing', 'pricing', 'faq', 'edit', 'scope'].map((b) => `${m}/${b}`)));
    const get = (m: string, b: string): RunRecord => runs.find((x) => x.model === m && x.brief === b)!;
    for (const x of runs) {
      expect(x).toMatchObject({ mode: 'memory', draftId: null, error: null });
      expect(x.totalMs).toBeGreaterThanOrEqual(0);
      expect(x.samples.length).toBeLessThanOrEqual(5);
      expect(x.tokens!.prompt).toBeGreaterThan(0);
    }
    // Steady: every brief finished, every step written, every page as briefed, first step timed.
    for (const b of ['landing', 'pricing', 'faq', 'edit', 'scope']) {
      expect(get('steady', b)).toMatchObject({ finished: true, stoppedBy: 'done', acceptance: 1, refusals: 0, rounds: 1, asBriefed: [] });
      expect(get('steady', b).firstStepMs).not.toBeNull();
    }
    // Tokens are the endpoint's own count (the fake's usage), summed over the turn's calls.
    const landing = model.requests.find((q) => q.model === 'steady' && q.messages[1]!.content.startsWith('A landing page'))!;
    expect(get('steady', 'landing').tokens).toEqual({ prompt: fakeTokens(landing.messages.map((m) => m.content).join('')), completion: fakeTokens(readFileSync(join(ROOT, 'services/agent/bench/corpus/landing.terse.txt'), 'utf8')) });
    // Shaky: prose asked again every round; a cut-off object is an emission defect, asked again
    // every round; a javascript: link is a contract violation, final after one answer.
    expect(get('shaky', 'pricing')).toMatchObject({ finished: false, stoppedBy: 'rounds', steps: 0, rounds: 4 });
    expect(get('shaky', 'faq')).toMatchObject({ finished: false, stoppedBy: 'rounds', steps: 4, written: 0, emissionRefusals: 4, contractRefusals: 0, rounds: 4 });
    expect(get('shaky', 'faq').samples).toEqual(Array(4).fill({ round: expect.any(Number), rule: 'unreadable', kind: 'emission', path: '', message: expect.stringContaining('not closed') }));
    expect(get('shaky', 'scope')).toMatchObject({ finished: false, stoppedBy: 'done', steps: 1, written: 0, contractRefusals: 1, emissionRefusals: 0, rounds: 1 });
    expect(get('shaky', 'scope').samples).toMatchObject([{ round: 1, rule: 'invalid_url', kind: 'contract', path: '/sections/hero/components/cta/props/href' }]);
    expect(get('shaky', 'scope').asBriefed).toContain('the label is "Order now"');
    expect(get('shaky', 'landing')).toMatchObject({ finished: true, asBriefed: [] });
    // What reached the endpoint: the key only with shaky's calls; the contract violation not re-asked.
    const shaky = model.requests.filter((q) => q.model === 'shaky');
    expect(new Set(shaky.map((q) => q.authorization))).toEqual(new Set([`Bearer ${KEY}`]));
    expect(new Set(model.requests.filter((q) => q.model === 'steady').map((q) => q.authorization))).toEqual(new Set([null]));
    expect(shaky.filter((q) => q.messages.some((m) => m.content === SHAKY.scope))).toHaveLength(0);
    expect(shaky.filter((q) => q.messages.some((m) => m.content === SHAKY.faq))).toHaveLength(3);

    // The ranked table: finished first, then acceptance; printed and written alike.
    const rows = tableRows(r.out);
    expect(rows.map((c) => [c[0], c[1], c[2]])).toEqual([['1', 'steady', '5/5'], ['2', 'shaky', '2/5']]);
    expect(rows[0]![3]).toBe('100% (20/20)');
    expect(rows[0]![10]).toBe('5/5');
    expect(tableRows(readFileSync(join(out, 'summary.md'), 'utf8'))).toEqual(rows);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { model: string; finished: number }[];
    expect(summary.map((s) => [s.model, s.finished])).toEqual([['steady', 5], ['shaky', 2]]);
    for (const f of ['runs.ndjson', 'summary.md', 'summary.json']) expect(readFileSync(join(out, f), 'utf8')).not.toContain(KEY);
    expect(r.out + r.err).not.toContain(KEY);
  }, 120_000);

  it('refuses a bad command line or briefs file before any model is called', async () => {
    const before = model.requests.length;
    const usage = await weft(['--model', `url=${model.url}`]);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/give model=/);
    const file = join(dir, 'bad-briefs.json');
    writeFileSync(file, JSON.stringify([{ id: 'x', text: 'Edit it', scope: { sectionId: 'hero' } }]));
    const bad = await weft(['--model', `url=${model.url},model=steady`, '--briefs', file, '--out', join(dir, 'bad')]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('/0/scope: section "hero" is not on the seeded page');
    expect(model.requests.length).toBe(before);
  }, 60_000);
});

describe('weft build-eval against a running server', () => {
  const ADMIN = 'build-eval-e2e-admin';
  let db: TestDatabase;
  let session: { url: string; proc: ChildProcess };
  beforeAll(async () => {
    db = await createTestDatabase();
    session = await startSession(db, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await stopStack({ session, db });
  });

  it('builds each run in a fresh draft through the HTTP door, prints NDJSON with --json, leaves the drafts', async () => {
    const file = join(dir, 'briefs.json');
    writeFileSync(file, JSON.stringify(['scope', { id: 'hero-only', text: "Make this button say 'Start free trial', link it to /signup and give it the secondary style.", seed: [BAKERY[0]], scope: { sectionId: 'hero', componentId: 'cta' } }]));
    const r = await weft(['--model', `url=${model.url},model=steady`, '--model', `url=${model.url},model=shaky`, '--briefs', file, '--url', session.url, '--json', '--out', join(dir, 'server')], { WEFT_TOKEN: ADMIN });
    expect(r.code, r.err).toBe(0);
    const lines = r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as RunRecord & { summary?: { model: string; rank: number }[] });
    expect(lines).toHaveLength(5);
    const runs = lines.slice(0, 4);
    expect(runs.map((x) => `${x.model}/${x.brief}/${x.mode}`)).toEqual(['steady/scope/server', 'steady/hero-only/server', 'shaky/scope/server', 'shaky/hero-only/server']);
    expect(lines[4]!.summary!.map((s) => [s.rank, s.model])).toEqual([[1, 'steady'], [2, 'shaky']]);
    const admin = new WeftHttpClient(session.url, ADMIN);
    for (const x of runs) {
      expect(x.draftId).toMatch(/^eval-/);
      const d = (await admin.getDraft(x.draftId!)).draft;
      const cta = d.sections['hero']!.components['cta']!;
      if (x.model === 'steady') {
        expect(x).toMatchObject({ finished: true, written: 1, refusals: 0 });
        expect(cta.props).toMatchObject({ label: 'Start free trial', href: '/signup', variant: 'secondary' });
      } else {
        // The server refused the javascript: link as a contract violation; the draft kept its button.
        expect(x).toMatchObject({ finished: false, contractRefusals: 1, samples: [{ rule: 'invalid_url', kind: 'contract' }] });
        expect(cta.props).toMatchObject({ label: 'Order now', href: '/order' });
      }
    }
    // Built-in briefs keep their page check on the server too.
    expect(runs[0]!.asBriefed).toEqual([]);
    expect(runs[1]!.asBriefed).toBeNull();
  }, 120_000);
});
