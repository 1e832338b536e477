// The Build view in Chromium against a running server (`npm start`), printing figures:
//   npx tsx services/preview/bench/build-view.bench.ts --url http://127.0.0.1:8080 --token <admin token> [--keys 40]
// 1. open → usable: page load to the sign-in form, token submitted to an editable empty draft.
// 2. keypress in A → visible in B: each key A types shows in B's preview (typing echo, before
//    the edit is sent) — and the edit's end (blur) → B's preview and B's inspector from the step.
// 3. a 150-component page: open → outline/preview ready; outline click → inspector shown;
//    one remote prop change → B's outline/inspector render and preview update.
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { WeftHttpClient } from '@weft/client';
import type { Op } from '@weft/core';
import { CHROMIUM_LAUNCH } from '../test/stack.ts';
import { STARTERS, starterSectionOps } from '../src/editor/blueprints.ts';

const { values } = parseArgs({ options: {
  url: { type: 'string', default: process.env['WEFT_URL'] ?? 'http://127.0.0.1:8080' },
  token: { type: 'string', default: process.env['WEFT_TOKEN'] ?? '' },
  keys: { type: 'string', default: '40' },
  opens: { type: 'string', default: '5' },
} });
if (!values.token) { console.error('Give --token <admin token> (or WEFT_TOKEN)'); process.exit(2); }
const url = values.url.replace(/\/$/, '');
const admin = new WeftHttpClient(url, values.token);
const run = Date.now().toString(36);

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
};
const fmt = (xs: number[]): string => `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (n=${xs.length})`;

async function signIn(browser: Browser, id: string, ready: string): Promise<{ page: Page; toForm: number; toUsable: number }> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  const t0 = performance.now();
  await page.goto(`${url}/build/${id}`);
  await page.waitForSelector('#wb-token');
  const t1 = performance.now();
  await page.fill('#wb-token', values.token);
  const t2 = performance.now();
  await page.press('#wb-token', 'Enter');
  await page.waitForSelector(ready, { timeout: 30_000 });
  return { page, toForm: t1 - t0, toUsable: performance.now() - t2 };
}

/**
 * Records, in the page, when `read` (a JS expression) first shows each new length (checked every
 * animation frame: what is on screen). A string, so the bundler adds nothing to it.
 */
async function watch(page: Page, read: string): Promise<void> {
  await page.evaluate(`(() => {
    const read = () => { try { return (${read}) || ''; } catch (e) { return ''; } };
    window.__seen = [];
    window.__last = read().length;
    const tick = () => {
      const n = read().length;
      if (n > window.__last) { for (let i = window.__last; i < n; i++) window.__seen.push(performance.timeOrigin + performance.now()); }
      window.__last = n;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
}

const browser = await chromium.launch(CHROMIUM_LAUNCH);
try {
  // 1. open → usable, on fresh empty drafts.
  const form: number[] = [];
  const usable: number[] = [];
  for (let i = 0; i < Number(values.opens); i++) {
    const id = `bench-open-${run}-${i}`;
    await admin.createDraft(id, 'Bench');
    const o = await signIn(browser, id, '#wb-empty [data-starter="hero"]');
    form.push(o.toForm);
    usable.push(o.toUsable);
    await o.page.context().close();
  }
  console.log(`open → sign-in form: ${fmt(form)}`);
  console.log(`token → editable empty draft (joined, outline, starters, palette): ${fmt(usable)}`);

  // 2. keypress in A → visible in B.
  const id = `bench-type-${run}`;
  await admin.createDraft(id, 'Bench typing');
  const hero = STARTERS.find((s) => s.id === 'hero')!;
  await admin.submit(id, { opId: `${id}-hero`, ops: starterSectionOps({}, hero).ops });
  const a = (await signIn(browser, id, '#wb-outline [data-key="hero/heading-1"]')).page;
  const b = (await signIn(browser, id, '#wb-outline [data-key="hero/heading-1"]')).page;
  for (const p of [a, b]) {
    await p.click('#wb-outline [data-key="hero/heading-1"]');
    await p.waitForSelector('#wb-inspector .wb-insp-head code:text-is("heading-1")');
  }
  await b.frameLocator('#wb-frame').locator('[data-component-id="heading-1"]').waitFor();
  await a.focus('#wb-f-text');
  await a.press('#wb-f-text', 'End');
  await a.evaluate(`(() => { window.__keys = []; document.addEventListener('keydown', () => window.__keys.push(performance.timeOrigin + performance.now()), true); })()`);
  await watch(b, `document.getElementById('wb-frame').contentDocument.querySelector('[data-component-id="heading-1"]').textContent`);
  const n = Number(values.keys);
  for (let i = 0; i < n; i++) await a.keyboard.type(String.fromCharCode(97 + (i % 26)), { delay: 0 }).then(() => a.waitForTimeout(60));
  await b.waitForFunction(`window.__seen.length >= ${n}`, undefined, { timeout: 30_000 });
  const keys = (await a.evaluate('window.__keys')) as number[];
  const seen = (await b.evaluate('window.__seen')) as number[];
  console.log(`keypress in A → visible in B's preview (typing echo): ${fmt(keys.map((k, i) => seen[i]! - k))}`);
  // The edit ends: blur → the step reaches B (its inspector field and its preview, server-rendered).
  const ends: number[] = [];
  for (let r = 0; r < 5; r++) {
    await a.focus('#wb-f-text');
    await a.keyboard.type('!', { delay: 0 });
    const want = await a.inputValue('#wb-f-text');
    const t0 = Date.now();
    await a.keyboard.press('Tab');
    await b.waitForFunction((w: string) => (document.getElementById('wb-f-text') as HTMLInputElement | null)?.value === w, want, { timeout: 10_000, polling: 'raf' });
    ends.push(Date.now() - t0);
  }
  console.log(`edit ends (blur) in A → its step in B's inspector: ${fmt(ends)}`);
  await a.context().close();
  await b.context().close();

  // 3. A 150-component page: 10 sections × (root + 14).
  const big = `bench-big-${run}`;
  await admin.createDraft(big, 'Bench 150');
  const ops: Op[] = [];
  for (let si = 0; si < 10; si++) {
    const comps: Record<string, unknown> = { root: { id: 'root', component: 'Stack', children: [] as string[] } };
    for (let c = 0; c < 14; c++) {
      const cid = `c${c}`;
      comps[cid] = c % 3 === 0 ? { id: cid, component: 'Heading', props: { text: `Section ${si} heading ${c}`, level: 2 } } : c % 3 === 1 ? { id: cid, component: 'Text', props: { text: `Paragraph ${c} of section ${si}.` } } : { id: cid, component: 'Card', props: { title: `Card ${c}` } };
      (comps['root'] as { children: string[] }).children.push(cid);
    }
    ops.push({ op: 'add', path: `/sections/s${si}`, value: { id: `s${si}`, kind: 'surface', catalog: 'weft@1', data: {}, components: comps } as never });
  }
  await admin.submit(big, { opId: `${big}-build`, ops });
  const open = await signIn(browser, big, '#wb-outline [data-key="s9/c13"]');
  const page = open.page;
  await page.frameLocator('#wb-frame').locator('[data-section-id="s9"] [data-component-id="c13"]').waitFor();
  const openAll = open.toUsable;
  const clicks: number[] = [];
  for (let i = 0; i < 10; i++) {
    const sid = `s${i}`;
    const t0 = performance.now();
    await page.click(`#wb-outline [data-key="${sid}/c1"]`);
    await page.waitForSelector(`#wb-inspector .wb-insp-head code:text-is("c1") ~ .wb-muted:text-is("in ${sid}")`);
    clicks.push(performance.now() - t0);
  }
  const timing = async (name: string): Promise<number[]> => (await page.evaluate(`performance.getEntriesByName(${JSON.stringify(name)}).map((e) => e.duration)`)) as number[];
  const [renders, outlines, inspectors] = [await timing('weft:render'), await timing('weft:outline'), await timing('weft:inspector')];
  // A remote prop change (HTTP, like an agent's): B's preview shows it.
  const remote: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    await admin.submit(big, { opId: `${big}-r${i}`, ops: [{ op: 'replace', path: `/sections/s${i}/components/c0/props/text`, value: `Remote ${i}` }] });
    await page.frameLocator('#wb-frame').locator(`[data-section-id="s${i}"] [data-component-id="c0"]:text-is("Remote ${i}")`).waitFor();
    remote.push(performance.now() - t0);
  }
  console.log(`150 components: token → outline and preview complete: ${openAll.toFixed(0)} ms`);
  console.log(`150 components: outline click → inspector shown: ${fmt(clicks)}`);
  console.log(`150 components: one editor render, whole: ${fmt(renders)}; outline part: ${fmt(outlines)}; inspector part: ${fmt(inspectors)}`);
  console.log(`150 components: remote prop change (HTTP submit) → B's preview: ${fmt(remote)}`);
  await page.context().close();
} finally {
  await browser.close();
}
