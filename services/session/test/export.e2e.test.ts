// Export to code, walked: an interactive draft built through HTTP, exported through the HTTP route
// and the MCP tool (real SDK client), written to a temp folder and opened from disk (file://) in
// Chromium with no server involved — a Toggle, a Slider and a Button change what is shown, in the
// static page and in the React export (bundled with React by esbuild); hostile text stays text.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { build, transform } from 'esbuild';
import fc from 'fast-check';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpTestSession, TEST_ADMIN } from '../src/mcp/test/session.ts';
import type { McpTestSession } from '../src/mcp/test/session.ts';

// The repo's one Chromium launch config (services/preview/test/stack.ts; a service may not import another's).
const CHROMIUM_LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
};
const SHOTS = process.env['WEFT_SHOTS'] ?? '/tmp/weft-shots';
const HOSTILE = '</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2"> "q" \'s\' `t` ${x} {c} __proto__';

const txt = (id: string, text: unknown, visible?: unknown) => ({ id, component: 'Text', props: { text }, ...(visible ? { visible } : {}) });
const shop = {
  id: 'shop', kind: 'surface', catalog: 'weft@1',
  data: { period: 'monthly', seats: 3, price: 10, count: 0, note: HOSTILE },
  components: {
    root: { id: 'root', component: 'Stack', children: ['title', 'period', 'period-text', 'yearly-only', 'seats', 'total', 'inc', 'count', 'evil', 'evil-bound'] },
    title: { id: 'title', component: 'Heading', props: { text: 'Pricing', level: 2 } },
    period: { id: 'period', component: 'Toggle', props: { options: ['monthly', 'yearly'], value: { path: '/period' }, label: 'Billing' } },
    'period-text': txt('period-text', { call: 'concat', args: { parts: ['Billing: ', { path: '/period' }] } }),
    'yearly-only': txt('yearly-only', 'Two months free', { eq: [{ path: '/period' }, 'yearly'] }),
    seats: { id: 'seats', component: 'Slider', props: { min: 1, max: 50, value: { path: '/seats' }, label: 'Seats' } },
    total: { id: 'total', component: 'Stat', props: { label: 'Total', value: { call: 'multiply', args: { a: { path: '/seats' }, b: { path: '/price' } } } } },
    inc: { id: 'inc', component: 'Button', props: { label: 'Add two', onClick: { action: 'increment', path: '/count', by: 2 } } },
    count: { id: 'count', component: 'Stat', props: { label: 'Count', value: { path: '/count' } } },
    evil: txt('evil', HOSTILE),
    'evil-bound': txt('evil-bound', { path: '/note' }),
  },
};

async function http(s: McpTestSession, path: string, token: string | null, init: RequestInit = {}): Promise<Response> {
  return fetch(`${s.url}${path}`, { ...init, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', ...(init.headers ?? {}) } });
}

/** Opens a file:// page; returns its console errors and any request that left the disk. */
async function openFromDisk(browser: Browser, file: string): Promise<{ page: Page; errors: string[]; offDisk: string[] }> {
  const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
  const errors: string[] = [];
  const offDisk: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith('file://')) offDisk.push(r.url()); });
  await page.goto(pathToFileURL(file).href);
  return { page, errors, offDisk };
}

/** The reader's walk: each control changes what is bound to it, with no server anywhere. */
async function walk(page: Page): Promise<void> {
  const text = (id: string) => page.locator(`[data-component-id="${id}"]`).first().innerText();
  expect(await text('period-text')).toBe('Billing: monthly');
  expect(await page.locator('[data-component-id="yearly-only"]').isVisible()).toBe(false);
  expect(await text('total')).toContain('30');
  await page.locator('label', { hasText: 'yearly' }).click();
  await page.waitForFunction(() => document.querySelector('[data-component-id="period-text"]')?.textContent === 'Billing: yearly', undefined, { timeout: 10_000 });
  expect(await page.locator('[data-component-id="yearly-only"]').isVisible()).toBe(true);
  // A range input is dragged: value set and input/change fired, as a drag does.
  await page.locator('input[type=range]').evaluate((el: HTMLInputElement) => {
    el.value = '7';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page.waitForFunction(() => document.querySelector('[data-component-id="total"]')?.textContent?.includes('70'), undefined, { timeout: 10_000 });
  await page.locator('button', { hasText: 'Add two' }).click();
  await page.locator('button', { hasText: 'Add two' }).click();
  await page.waitForFunction(() => document.querySelector('[data-component-id="count"]')?.textContent?.includes('4'), undefined, { timeout: 10_000 });
  // Hostile text is shown as written, twice (static and bound), and nothing of it ran.
  expect(await text('evil')).toContain('</script><script>window.pwned=1</script>');
  expect(await text('evil-bound')).toContain('<img src=x onerror="window.pwned=2">');
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned ?? null)).toBeNull();
  expect(await page.locator('img').count()).toBe(0);
}

describe('export to code: a page and React source that work from disk', () => {
  let s: McpTestSession;
  let token: string;
  let client: Client;
  let browser: Browser;
  let dir: string;
  let v1 = 0;
  let head = 0;

  beforeAll(async () => {
    s = await startMcpTestSession();
    expect((await http(s, '/v1/drafts', TEST_ADMIN, { method: 'POST', body: JSON.stringify({ id: 'shop', title: 'Shop' }) })).status).toBe(201);
    token = await s.token('exporter', { shop: ['read', 'write'] });
    const first = await http(s, '/v1/drafts/shop/ops', token, { method: 'POST', body: JSON.stringify({ opId: 'add-shop', ops: [{ op: 'add', path: '/sections/shop', value: shop }] }) });
    const r1 = (await first.json()) as { version: number; refused: unknown[] };
    expect(r1.refused).toEqual([]);
    v1 = r1.version;
    const second = await http(s, '/v1/drafts/shop/ops', token, { method: 'POST', body: JSON.stringify({ opId: 'retitle', ops: [{ op: 'replace', path: '/sections/shop/components/title/props/text', value: 'Plans and prices' }] }) });
    head = ((await second.json()) as { version: number }).version;
    client = new Client({ name: 'weft-export-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    browser = await chromium.launch(CHROMIUM_LAUNCH);
    dir = mkdtempSync(join(tmpdir(), 'weft-export-'));
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await s?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('GET /v1/drafts/:id/export answers the page as a download, byte-identical each time; ?version= exports the past', async () => {
    const a = await http(s, '/v1/drafts/shop/export?format=html', token);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(a.headers.get('content-disposition')).toBe('attachment; filename="shop.html"');
    expect(a.headers.get('x-weft-version')).toBe(String(head));
    const page = await a.text();
    expect(page).toContain('Plans and prices');
    expect(await (await http(s, '/v1/drafts/shop/export?format=html', token)).text()).toBe(page);
    const old = await (await http(s, `/v1/drafts/shop/export?format=html&version=${v1}`, token)).text();
    expect(old).toContain('>Pricing<');
    expect(old).not.toBe(page);
    // The MCP tool gives the same bytes for the same version.
    const viaMcp = (await client.callTool({ name: 'export_code', arguments: { draftId: 'shop', format: 'html', version: v1 } })) as CallToolResult;
    expect((viaMcp.structuredContent as { files: { text: string }[] }).files[0]!.text).toBe(old);
    // The draft is unchanged by exporting: same head.
    expect(((await (await http(s, '/v1/drafts/shop', token)).json()) as { version: number }).version).toBe(head);
  });

  it('an empty draft exports too: an empty page, and a Page.tsx with no section that compiles', async () => {
    expect((await http(s, '/v1/drafts', TEST_ADMIN, { method: 'POST', body: JSON.stringify({ id: 'blank' }) })).status).toBe(201);
    const t = await s.token('blank-reader', { blank: ['read'] });
    const html = await http(s, '/v1/drafts/blank/export', t);
    expect(html.status).toBe(200);
    expect(html.headers.get('x-weft-version')).toBe('0');
    expect(await html.text()).toMatch(/<main class="weft-page" data-draft-id="blank">\s*<\/main>/);
    const react = (await (await http(s, '/v1/drafts/blank/export?format=react', t)).json()) as { version: number; files: { path: string; text: string }[] };
    expect(react.version).toBe(0);
    await transform(react.files[0]!.text, { loader: 'tsx', jsx: 'automatic' });
    expect(react.files[0]!.text).toContain('export const data: Record<string, unknown> = {};');
  });

  it('bad requests get typed errors', async () => {
    const bad = await http(s, '/v1/drafts/shop/export?format=vue', token);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string; path: string } }).error).toMatchObject({ code: 'BAD_REQUEST', path: '/format' });
    expect((await http(s, '/v1/drafts/shop/export?version=-1', token)).status).toBe(400);
    expect((await http(s, `/v1/drafts/shop/export?version=${head + 5}`, token)).status).toBe(404);
    expect((await http(s, '/v1/drafts/shop/export', null)).status).toBe(401);
    const stranger = await s.token('stranger', { other: ['read'] });
    expect((await http(s, '/v1/drafts/shop/export', stranger)).status).toBe(404);
    const mcpBad = (await client.callTool({ name: 'export_code', arguments: { draftId: 'nope', format: 'html' } })) as CallToolResult;
    expect(mcpBad.isError).toBe(true);
    expect((mcpBad.structuredContent as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('fuzzed query strings get the export or a typed 4xx, never a 5xx', async () => {
    const str = fc.oneof(fc.constantFrom('html', 'react', 'HTML', '', '__proto__', 'constructor', '-1', '1e3', '0x1', '1.5', ' 1'), fc.string({ maxLength: 12 }));
    await fc.assert(fc.asyncProperty(fc.option(str), fc.option(fc.oneof(str, fc.nat({ max: 5 }).map(String))), async (format, version) => {
      const q = new URLSearchParams();
      if (format !== null) q.set('format', format);
      if (version !== null) q.set('version', version);
      const r = await http(s, `/v1/drafts/shop/export?${q.toString()}`, token);
      const body = await r.text();
      if (r.status === 200) return;
      expect([400, 404]).toContain(r.status);
      const e = (JSON.parse(body) as { error: { code: string; message: string } }).error;
      expect(e.code).toMatch(/^(BAD_REQUEST|NOT_FOUND)$/);
      expect(e.message.length).toBeGreaterThan(0);
    }), { numRuns: 60 });
  });

  it('the exported page works opened from disk: controls, bound text, conditions and actions, no request off the disk', async () => {
    const page = await (await http(s, '/v1/drafts/shop/export?format=html', token)).text();
    const file = join(dir, 'shop.html');
    writeFileSync(file, page);
    const { page: p, errors, offDisk } = await openFromDisk(browser, file);
    await walk(p);
    await p.screenshot({ path: `${SHOTS}/export-html.png`, fullPage: true });
    expect(errors).toEqual([]); // a CSP violation (the inlined runtime refused) would show here
    expect(offDisk).toEqual([]);
    await p.close();
  });

  it('the React export compiles, bundles with React and works the same from disk', async () => {
    const r = (await client.callTool({ name: 'export_code', arguments: { draftId: 'shop', format: 'react' } })) as CallToolResult;
    const files = (r.structuredContent as { files: { path: string; text: string }[] }).files;
    expect(files.map((f) => f.path)).toEqual(['Page.tsx', 'weft.css', 'weft-runtime.js']);
    const again = (await http(s, '/v1/drafts/shop/export?format=react', token));
    expect(((await again.json()) as { files: unknown }).files).toEqual(files);
    const app = join(dir, 'react');
    mkdirSync(app, { recursive: true });
    for (const f of files) writeFileSync(join(app, f.path), f.text);
    writeFileSync(join(app, 'main.tsx'), "import { createRoot } from 'react-dom/client';\nimport Page from './Page.tsx';\ncreateRoot(document.getElementById('app')!).render(<Page />);\n");
    await build({
      entryPoints: [join(app, 'main.tsx')], outdir: join(app, 'dist'), bundle: true, format: 'iife', platform: 'browser', jsx: 'automatic',
      nodePaths: [join(process.cwd(), 'node_modules')], define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'silent',
    });
    writeFileSync(join(app, 'dist', 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="main.css"></head><body><div id="app"></div><script src="main.js"></script></body></html>');
    const { page: p, errors, offDisk } = await openFromDisk(browser, join(app, 'dist', 'index.html'));
    await p.locator('h2', { hasText: 'Plans and prices' }).waitFor({ timeout: 10_000 });
    await walk(p);
    await p.screenshot({ path: `${SHOTS}/export-react.png`, fullPage: true });
    expect(errors).toEqual([]);
    expect(offDisk).toEqual([]);
    await p.close();
  });
});
