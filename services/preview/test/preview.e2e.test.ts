// The live page and the Build view in real headless Chromium, against the real session service.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { CHROMIUM_LAUNCH, closeStack } from './stack.ts';
import type { Browser, Page } from 'playwright-core';
import { renderDraft } from '@weft/render';
import { TokenStore } from '@weft/store';
import type { WeftHttpClient } from '@weft/client';
import { ADMIN, addSectionOps, startTestSession } from '../../session/test/helpers.ts';
import type { TestSession } from '../../session/test/helpers.ts';
import { build } from '../src/app.ts';
import type { Preview } from '../src/app.ts';
import { loadDraft } from '@weft/store';

const SECRET = 'e2e-secret';
let t: TestSession;
let preview: Preview;
let server: Server;
let url: string;
let browser: Browser;
let alice: WeftHttpClient;
let aliceToken: string;
let n = 0;

const mkPreview = (): Preview => build({ store: t.store, tokens: new TokenStore(t.db.db), bus: t.bus }, { adminToken: ADMIN, ticketSecret: SECRET, headCheckMs: 500 });

beforeAll(async () => {
  t = await startTestSession({ opsPerSecond: 100_000, opsPerTurn: 100_000 });
  preview = mkPreview();
  // The all-in-one mount: preview routes first, the session API for the rest (same origin).
  server = createServer((req, res) => { if (!preview.handle(req, res)) t.app.handle(req, res); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  const minted = await t.admin.mintToken({ actor: { id: 'alice', kind: 'human' }, scopes: { '*': ['read', 'write'] } });
  aliceToken = minted.token;
  alice = t.admin.withToken(aliceToken);
  browser = await chromium.launch(CHROMIUM_LAUNCH);
});

afterAll(async () => {
  await closeStack({ browser, preview, server, session: t });
});

async function newDraft(): Promise<string> {
  const id = `p${Date.now().toString(36)}${n++}`;
  await alice.createDraft(id, 'Preview test');
  await alice.submit(id, { opId: `${id}-hero`, ops: addSectionOps('hero') });
  return id;
}

async function openLive(id: string): Promise<Page> {
  const r = await fetch(`${url}/preview/${id}/ticket`, { method: 'POST', headers: { authorization: `Bearer ${aliceToken}` } });
  expect(r.status).toBe(200);
  const { url: path } = (await r.json()) as { url: string };
  const page = await browser.newPage();
  await page.goto(url + path);
  return page;
}

const pageVersion = (page: Page): Promise<number> => page.evaluate(() => Number(document.querySelector('main.weft-page')?.getAttribute('data-version')));

async function waitVersion(page: Page, v: number, ms = 20_000): Promise<void> {
  await page.waitForFunction((want) => Number(document.querySelector('main.weft-page')?.getAttribute('data-version')) >= want, v, { timeout: ms });
}

/** Each section's outerHTML in the page, and in a fresh server render parsed by the same browser. */
async function compareWithFreshRender(page: Page, id: string): Promise<void> {
  const head = (await t.store.getDraft(id))!.headVersion;
  const fresh = renderDraft((await loadDraft(t.store, id, head)).draft).html;
  const got = await page.evaluate((html) => {
    const norm = (root: ParentNode) => [...root.children].filter((s) => s.tagName === 'SECTION').map((s) => s.outerHTML);
    const tpl = document.createElement('template');
    tpl.innerHTML = html;
    return { page: norm(document.querySelector('main.weft-page')!), fresh: norm(tpl.content) };
  }, fresh);
  expect(got.page).toEqual(got.fresh);
}

describe('live preview in Chromium', () => {
  it('refuses the page without a valid ticket, and the ticket without a token', async () => {
    const id = await newDraft();
    expect((await fetch(`${url}/preview/${id}`)).status).toBe(403);
    expect((await fetch(`${url}/preview/${id}?ticket=forged.x.y`)).status).toBe(403);
    expect((await fetch(`${url}/preview/${id}/ticket`, { method: 'POST' })).status).toBe(404);
    const render = await fetch(`${url}/preview/${id}/render?version=1`);
    expect(render.status).toBe(404);
    // The session's error shape, so one client reads both services' refusals.
    expect(await render.json()).toEqual({ error: { code: 'NOT_FOUND', message: `No draft "${id}" (or no access to it).` } });
  });

  it('an op sent over HTTP appears in the page without reload, keeping focus and scroll', async () => {
    const id = await newDraft();
    const page = await openLive(id);
    expect(await page.locator('[data-component-id="title"]').first().innerText()).toContain('Hello');
    await page.evaluate(() => { (window as unknown as { __marker: number }).__marker = 42; });
    const r = await alice.submit(id, { opId: `${id}-edit`, ops: [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: 'Live edit' }] });
    await waitVersion(page, r.version);
    expect(await page.locator('[data-component-id="title"]').first().innerText()).toContain('Live edit');
    expect(await page.evaluate(() => (window as unknown as { __marker: number }).__marker)).toBe(42); // no reload
    await page.close();
  });

  it('a 200-op agent-like build ends equal to a fresh server render; a restarted preview converges', async () => {
    const id = await newDraft();
    const page = await openLive(id);
    const sections = ['hero'];
    let v = 1;
    for (let i = 0; i < 200; i++) {
      let ops: unknown[];
      if (i % 25 === 0 && i > 0) {
        const sid = `s${i}`;
        sections.push(sid);
        ops = [...addSectionOps(sid)];
      } else if (i % 40 === 7) {
        ops = [{ op: 'move', from: `/order/${sections.length - 1}`, path: '/order/0' }];
      } else {
        const sid = sections[i % sections.length]!;
        ops = i % 3 === 0
          ? [{ op: 'add', path: `/sections/${sid}/components/c${i}`, value: { id: `c${i}`, component: 'Text', props: { text: `Paragraph **${i}**` } } },
             { op: 'add', path: `/sections/${sid}/components/root/children/-`, value: `c${i}` }]
          : [{ op: 'replace', path: `/sections/${sid}/components/title/props/text`, value: `Title ${i}` }];
      }
      const r = await alice.submit(id, { opId: `${id}-b${i}`, ops, turnId: 'build-1' });
      v = r.version;
      if (i === 120) {
        // Kill the preview mid-build and start a new instance on the same mount.
        await preview.close();
        preview = mkPreview();
      }
    }
    await waitVersion(page, v, 30_000);
    await compareWithFreshRender(page, id);
    expect(await pageVersion(page)).toBe(v);
    await page.close();
  });

  it('an XSS corpus through every string prop leaves no script, handler or javascript: URL', async () => {
    const corpus = [
      '<script>window.__xss=1</script>', '"><img src=x onerror="window.__xss=1">', "'><svg onload=window.__xss=1>",
      'javascript:window.__xss=1', 'JaVaScRiPt:window.__xss=1', ' java\tscript:window.__xss=1', '&#106;avascript:window.__xss=1',
      '<iframe src="javascript:window.__xss=1"></iframe>', '<a href="javascript:window.__xss=1">x</a>', '[x](javascript:window.__xss=1)',
      '<body onload=window.__xss=1>', '<style>@import "javascript:window.__xss=1"</style>', '`${window.__xss=1}`', '<details open ontoggle=window.__xss=1>',
      '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1>', 'data:text/html,<script>window.__xss=1</script>',
    ];
    const id = await newDraft();
    const page = await openLive(id);
    const csp = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '');
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    let last = 1;
    for (let i = 0; i < corpus.length; i++) {
      const s = corpus[i]!;
      const comps = {
        [`h${i}`]: { id: `h${i}`, component: 'Heading', props: { text: s } },
        [`t${i}`]: { id: `t${i}`, component: 'Text', props: { text: s } },
        [`m${i}`]: { id: `m${i}`, component: 'Markdown', props: { source: s } },
        [`b${i}`]: { id: `b${i}`, component: 'Button', props: { label: s, href: s } },
        [`l${i}`]: { id: `l${i}`, component: 'Link', props: { text: s, href: s } },
        [`i${i}`]: { id: `i${i}`, component: 'Image', props: { src: s, alt: s } },
        [`g${i}`]: { id: `g${i}`, component: 'Badge', props: { text: s } },
      };
      const ops: unknown[] = [];
      for (const [cid, c] of Object.entries(comps)) {
        ops.push({ op: 'add', path: `/sections/hero/components/${cid}`, value: c }, { op: 'add', path: '/sections/hero/components/root/children/-', value: cid });
      }
      ops.push({ op: 'replace', path: '/title', value: s.slice(0, 100) });
      const r = await alice.submit(id, { opId: `${id}-x${i}`, ops });
      last = r.version;
    }
    await waitVersion(page, last);
    const report = await page.evaluate(() => {
      const bad: string[] = [];
      for (const s of document.querySelectorAll('script')) {
        const src = s.getAttribute('src') ?? '';
        if (!(s.type === 'application/json' || src.startsWith('/preview/assets/live.js'))) bad.push(`script ${s.outerHTML.slice(0, 80)}`);
      }
      for (const e of document.querySelectorAll('*')) {
        for (const a of e.attributes) {
          if (a.name.startsWith('on')) bad.push(`${e.tagName} ${a.name}`);
          if (/^\s*(javascript|vbscript|data:text\/html)/i.test(a.value.replace(/[\s\u0000-\u001f]/g, ''))) bad.push(`${e.tagName} ${a.name}=${a.value}`);
        }
      }
      for (const f of document.querySelectorAll('iframe, object, embed')) bad.push(f.tagName);
      return { bad, xss: (window as unknown as { __xss?: unknown }).__xss };
    });
    expect(report.bad).toEqual([]);
    expect(report.xss).toBeUndefined();
    await compareWithFreshRender(page, id);
    await page.close();
  });

  it('the Build view shows the live page, the feed with refusals, versions, and undoes; screenshot saved', async () => {
    const id = await newDraft();
    await alice.submit(id, { opId: `${id}-t1`, turnId: 'turn-1', ops: [
      { op: 'add', path: '/sections/hero/components/lead', value: { id: 'lead', component: 'Text', props: { text: 'Pages that **build themselves** while you watch.' } } },
      { op: 'add', path: '/sections/hero/components/root/children/-', value: 'lead' },
      { op: 'add', path: '/sections/hero/components/cta', value: { id: 'cta', component: 'Button', props: { label: 'Get started', href: '/start', variant: 'primary' } } },
      { op: 'add', path: '/sections/hero/components/root/children/-', value: 'cta' },
    ] });
    await alice.submit(id, { opId: `${id}-bad`, ops: [{ op: 'add', path: '/sections/hero/components/x', value: { id: 'x', component: 'Heading', props: { level: 99 } } }] }).catch(() => null);
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    await page.goto(`${url}/build/${id}`);
    await page.fill('#wb-token', aliceToken);
    await page.click('form#wb-login button[type=submit]');
    const frame = page.frameLocator('#wb-frame');
    await expect.poll(async () => frame.locator('[data-component-id="lead"]').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.evaluate(() => sessionStorage.getItem('weft.token'))).toBe(aliceToken);
    const frameSrc = await page.getAttribute('#wb-frame', 'src');
    expect(frameSrc).not.toContain(aliceToken);
    // a live edit shows in the feed and the frame
    const r = await alice.submit(id, { opId: `${id}-e2`, ops: [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: 'Weft builds pages' }] });
    await expect.poll(async () => frame.locator('[data-component-id="title"]').innerText(), { timeout: 15_000 }).toContain('Weft builds pages');
    await expect.poll(async () => page.locator('#wb-feed .wb-applied').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // refusals (if the pipeline refused rather than repaired) show their pointer
    const refused = await page.locator('#wb-feed .wb-refused .wb-path').allInnerTexts();
    for (const p of refused) expect(p.startsWith('/')).toBe(true);
    // scrub to version 2, the hero alone (server-rendered past version), then back to live
    await page.evaluate(() => { const s = document.getElementById('wb-scrub') as HTMLInputElement; s.value = '2'; s.dispatchEvent(new Event('input')); });
    await expect.poll(async () => page.locator('#wb-past [data-component-id="title"]').count(), { timeout: 10_000 }).toBe(1)
      .catch(async (e: unknown) => { throw new Error(`${String(e)}; render: ${await page.evaluate(async (tok) => { const r = await fetch(location.pathname.replace('/build/', '/preview/') + '/render?version=1', { headers: { authorization: 'Bearer ' + tok } }); return r.status + ' ' + (await r.text()).slice(0, 200); }, aliceToken)}; max=${await page.getAttribute('#wb-scrub', 'max')}`); });
    expect(await page.locator('#wb-past').innerText()).toContain('Hello');
    await page.click('#wb-back-live');
    // undo with the keyboard: the title goes back
    await page.keyboard.press('Control+z');
    await expect.poll(async () => frame.locator('[data-component-id="title"]').innerText(), { timeout: 15_000 }).toContain('Hello');
    expect((await t.store.getDraft(id))!.headVersion).toBeGreaterThan(r.version);
    await page.waitForTimeout(400);
    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: 'test-artifacts/build-view.png' });
    await page.close();
  });
});
