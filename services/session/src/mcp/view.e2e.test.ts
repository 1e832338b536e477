// The MCP Apps View in a real browser: a real MCP client reads ui://weft/preview from a real
// session; a tiny host page (the host side of the ext-apps handshake over postMessage) loads it in
// a sandboxed iframe, hands it real tool results and proxies its tools/call to the same client.
import { mkdirSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpTestSession, TEST_ADMIN } from './test/session.ts';
import type { McpTestSession } from './test/session.ts';

// The repo's one Chromium launch config (services/preview/test/stack.ts; a service may not import another's).
const CHROMIUM_LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
};
const SHOTS = process.env['WEFT_SHOTS'] ?? '/tmp/weft-shots';

const HOSTILE = '<img src=x onerror="parent.pwned=1"></script><script>parent.pwned=2</script> "quoted" __proto__';
const hero = {
  id: 'hero', kind: 'surface', catalog: 'weft@1', data: { plan: 'Monthly' },
  components: {
    root: { id: 'root', component: 'Stack', children: ['title', 'evil', 'go', 'plan'] },
    title: { id: 'title', component: 'Heading', props: { text: 'Pages, built live', level: 1 } },
    evil: { id: 'evil', component: 'Text', props: { text: HOSTILE } },
    go: { id: 'go', component: 'Button', props: { label: 'Start', href: 'https://example.com/start' } },
    plan: { id: 'plan', component: 'Toggle', props: { options: ['Monthly', 'Yearly'], value: { path: '/plan' } } },
  },
};

// The host: answers ui/initialize, waits for initialized before sending anything (spec: "MUST
// NOT send any request or notification to the View before it receives an initialized"), logs
// every message, and proxies tools/call to the test's MCP client (window.callTool).
const HOST = `<!doctype html><html><body style="margin:0;background:#e9ecef">
<iframe id="view" sandbox="allow-scripts" style="width:900px;height:700px;border:0;background:#fff"></iframe>
<script>
window.log = []; window.ready = false; window.teardown = null;
const frame = document.getElementById('view');
const send = (m) => { window.log.push('host→view ' + (m.method || '(result)')); frame.contentWindow.postMessage(m, '*'); };
window.deliver = (input, result) => {
  send({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: input } });
  send({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: result });
};
window.tearDown = () => send({ jsonrpc: '2.0', id: 'bye', method: 'ui/resource-teardown', params: { reason: 'test' } });
window.addEventListener('message', async (e) => {
  if (e.source !== frame.contentWindow) return;
  const m = e.data;
  window.log.push('view→host ' + (m.method || '(result)'));
  if (m.method === 'ui/initialize') {
    if (window.ready) window.log.push('VIOLATION: initialize twice');
    send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2026-01-26', hostInfo: { name: 'test-host', version: '1' }, hostCapabilities: { serverTools: {} }, hostContext: { theme: 'light', displayMode: 'inline' } } });
  } else if (m.method === 'ui/notifications/initialized') {
    window.ready = true;
  } else if (m.method === 'tools/call') {
    if (!window.ready) window.log.push('VIOLATION: tools/call before initialized');
    try { send({ jsonrpc: '2.0', id: m.id, result: await window.callTool(m.params.name, m.params.arguments) }); }
    catch (err) { send({ jsonrpc: '2.0', id: m.id, error: { code: -32000, message: String(err) } }); }
  } else if (m.method === 'ui/notifications/size-changed') {
    if (!window.ready) window.log.push('VIOLATION: size-changed before initialized');
    window.size = m.params;
  } else if (m.id === 'bye') {
    window.teardown = m;
  }
});
window.load = (html) => { frame.srcdoc = html; };
</script></body></html>`;

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'weft-view-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

describe('MCP Apps View in Chromium, inside a host that speaks the handshake', () => {
  let s: McpTestSession;
  let client: Client;
  let browser: Browser;
  let page: Page;
  let view: Frame;
  const warnings: string[] = []; // a CSP violation in the View shows here
  let forgedAt = -1; // warnings.length when the forged page was handed over
  const calls: { name: string; args: unknown }[] = [];
  const tool = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => (await client.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    s = await startMcpTestSession();
    const res = await fetch(`${s.url}/v1/drafts`, {
      method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ id: 'view' }),
    });
    expect(res.status).toBe(201);
    client = await connect(s.url, await s.token('app-bot', { view: ['read', 'write'] }));
    browser = await chromium.launch(CHROMIUM_LAUNCH);
    page = await browser.newPage({ viewport: { width: 920, height: 720 } });
    page.on('console', (m) => { if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text()); });
    await page.exposeFunction('callTool', async (name: string, args: Record<string, unknown>) => {
      calls.push({ name, args });
      return tool(name, args);
    });
    await page.setContent(HOST);
    const read = await client.readResource({ uri: 'ui://weft/preview' });
    const html = (read.contents[0] as { text: string }).text;
    await page.evaluate((h) => (window as unknown as { load(h: string): void }).load(h), html);
    await page.waitForFunction(() => (window as unknown as { ready: boolean }).ready, undefined, { timeout: 20_000 });
    view = page.frames().find((f) => f !== page.mainFrame())!;
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await s?.close();
  });

  it('shakes hands first: ui/initialize, its result, then initialized; nothing from the host before', async () => {
    const log = await page.evaluate(() => (window as unknown as { log: string[] }).log);
    expect(log.slice(0, 3)).toEqual(['view→host ui/initialize', 'host→view (result)', 'view→host ui/notifications/initialized']);
    expect(await view.locator('#wait').textContent()).toBe('Waiting for a draft…');
  });

  it('renders the page of a patch_draft result: asks the host for get_preview at that version; hostile text stays text', async () => {
    const open = (await tool('open_build_session', { draftId: 'view' })).structuredContent as { session: string };
    const args = { session: open.session, ops: [{ op: 'add', path: '/sections/hero', value: hero }] };
    const patched = await tool('patch_draft', args);
    const version = (patched.structuredContent as { version: number }).version;
    await page.evaluate(([a, r]) => (window as unknown as { deliver(a: unknown, r: unknown): void }).deliver(a, r), [args, patched] as const);
    await view.locator('h1', { hasText: 'Pages, built live' }).waitFor({ timeout: 20_000 });
    expect(calls).toEqual([{ name: 'get_preview', args: { draftId: 'view', version } }]);
    expect(await view.locator('#draft').textContent()).toBe('view');
    expect(await view.locator('#version').textContent()).toBe(`version ${version}`);
    // The hostile text is shown as the characters it is; nothing ran, nothing navigates.
    expect(await view.locator('.weft-body').textContent()).toContain(HOSTILE);
    const inert = await view.evaluate(() => {
      const root = document.getElementById('page')!.shadowRoot!;
      return {
        scripts: root.querySelectorAll('script').length, imgs: root.querySelectorAll('img').length,
        links: root.querySelectorAll('a, [href]').length, handlers: [...root.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
        pwned: (window as unknown as { pwned?: number }).pwned ?? null,
      };
    });
    expect(inert).toEqual({ scripts: 0, imgs: 0, links: 0, handlers: 0, pwned: null });
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned ?? null)).toBeNull();
    // The button is there (its label), as a span: the View never navigates.
    expect(await view.locator('.weft-body span', { hasText: 'Start' }).first().isVisible()).toBe(true);
    // CSS-only interactions still work in the View: the Toggle is radio inputs.
    await view.locator('label', { hasText: 'Yearly' }).click();
    expect(await view.locator('input[type=radio][value=Yearly]').isChecked()).toBe(true);
    const size = await page.evaluate(() => (window as unknown as { size?: { width: number; height: number } }).size);
    expect(size?.width).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/mcp-view-page.png` });
  });

  it('shows a refusal of the next step beside the page, and an error result as an error', async () => {
    const open = (await tool('open_build_session', { draftId: 'view' })).structuredContent as { session: string };
    const args = { session: open.session, ops: [
      { op: 'add', path: '/sections/hero/components/root/children/-', value: 'ghost' },
      { op: 'replace', path: '/sections/hero/components/title/props/text', value: 'Now with refusals' },
    ] };
    const r = await tool('patch_draft', args);
    await page.evaluate(([a, res]) => (window as unknown as { deliver(a: unknown, r: unknown): void }).deliver(a, res), [args, r] as const);
    await view.locator('h1', { hasText: 'Now with refusals' }).waitFor({ timeout: 20_000 });
    expect(await view.locator('#refusals li').count()).toBe(1);
    expect(await view.locator('#refusals li').textContent()).toContain('/sections/hero/components/root');
    await page.screenshot({ path: `${SHOTS}/mcp-view-refusal.png` });

    const bad = await tool('patch_draft', { session: 'view:nope', ops: [{ op: 'replace', path: '/title', value: 'x' }] });
    expect(bad.isError).toBe(true);
    await page.evaluate((res) => (window as unknown as { deliver(a: unknown, r: unknown): void }).deliver({}, res), bad);
    await view.locator('#error', { hasText: 'SESSION_CLOSED' }).waitFor({ timeout: 10_000 });
    expect(await view.locator('h1', { hasText: 'Now with refusals' }).isVisible()).toBe(true);
  });

  it('shows a past version when a get_draft result names one (the newest result wins, not the highest version)', async () => {
    const past = await tool('get_draft', { draftId: 'view', version: 1 });
    await page.evaluate((res) => (window as unknown as { deliver(a: unknown, r: unknown): void }).deliver({ draftId: 'view', version: 1 }, res), past);
    await view.locator('h1', { hasText: 'Pages, built live' }).waitFor({ timeout: 20_000 });
    expect(await view.locator('#version').textContent()).toBe('version 1');
    const head = await tool('get_preview', { draftId: 'view' });
    await page.evaluate((res) => (window as unknown as { deliver(a: unknown, r: unknown): void }).deliver({ draftId: 'view' }, res), head);
    await view.locator('h1', { hasText: 'Now with refusals' }).waitFor({ timeout: 20_000 });
  });

  it('strips what acts from HTML it is given, even HTML our renderer never writes', async () => {
    const forged = '<!doctype html><html><head><style>body{display:none}</style><meta http-equiv="refresh" content="0;url=https://evil.example"></head><body><main>'
      + '<h1 onclick="parent.pwned=3">Forged heading</h1><img src="x" onerror="parent.pwned=4"><iframe srcdoc="<script>parent.parent.pwned=5</script>"></iframe>'
      + '<form action="https://evil.example"><button formaction="https://evil.example">Send</button></form><a href="javascript:parent.pwned=6">link</a>'
      + '<svg><a xlink:href="javascript:parent.pwned=7"><animate attributeName="href" values="javascript:parent.pwned=8"/><text>svg link</text></a></svg>'
      + '<script>parent.pwned=9</script><object data="https://evil.example"></object><base href="https://evil.example/"></main></body></html>';
    const before = warnings.length;
    await page.evaluate((html) => (window as unknown as { deliver(a: unknown, r: unknown): void }).deliver({}, { content: [], structuredContent: { draftId: 'view', version: 99, html } }), forged);
    await view.locator('h1', { hasText: 'Forged heading' }).waitFor({ timeout: 10_000 });
    const left = await view.evaluate(() => {
      const root = document.getElementById('page')!.shadowRoot!;
      for (const el of root.querySelectorAll('*')) el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      return {
        tags: [...new Set([...root.querySelectorAll('*')].map((e) => e.localName))].sort(),
        attrs: [...new Set([...root.querySelectorAll('*')].flatMap((e) => [...e.attributes].map((a) => a.name)))].sort(),
      };
    });
    // What is left: the View's own <style>, its wrapper, and inert elements (the img has no src).
    expect(left.tags).toEqual(['button', 'div', 'h1', 'img', 'main', 'span', 'style', 'svg', 'text']);
    expect(left.attrs).toEqual(['class']);
    await page.waitForTimeout(300);
    // Its two handlers were refused by the View's CSP already as they were parsed, before the View
    // stripped them; Chrome logs each refusal, late (the teardown test checks them).
    forgedAt = before;
    expect(await view.evaluate(() => (window as unknown as { pwned?: number }).pwned ?? null)).toBeNull();
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned ?? null)).toBeNull();
    expect(page.url()).toBe('about:blank');
    // Back to the real page for the next step.
    await page.evaluate((res) => (window as unknown as { deliver(a: unknown, r: unknown): void }).deliver({}, res), await tool('get_preview', { draftId: 'view' }));
    await view.locator('h1', { hasText: 'Now with refusals' }).waitFor({ timeout: 20_000 });
  });

  it('Refresh shows the head as it is now: an edit made elsewhere (over HTTP) appears', async () => {
    const edit = await fetch(`${s.url}/v1/drafts/view/ops`, {
      method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ opId: 'elsewhere', ops: [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: 'Edited elsewhere' }] }),
    });
    expect(edit.status).toBe(200);
    const head = ((await edit.json()) as { version: number }).version;
    const before = calls.length;
    await view.locator('#refresh').click();
    await view.locator('h1', { hasText: 'Edited elsewhere' }).waitFor({ timeout: 20_000 });
    expect(calls.slice(before)).toEqual([{ name: 'get_preview', args: { draftId: 'view' } }]);
    expect(await view.locator('#version').textContent()).toBe(`version ${head}`);
    expect(await view.locator('#refusals li').count()).toBe(0); // the last step's, not the head's
    // Put the heading back for the steps after this one.
    await fetch(`${s.url}/v1/drafts/view/ops`, {
      method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ opId: 'elsewhere-back', ops: [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: 'Now with refusals' }] }),
    });
    await view.locator('#refresh').click();
    await view.locator('h1', { hasText: 'Now with refusals' }).waitFor({ timeout: 20_000 });
  });

  it('ignores messages that do not come from its host', async () => {
    // A sibling frame posts a forged tool result straight to the View.
    await page.evaluate(() => {
      const f = document.createElement('iframe');
      f.setAttribute('sandbox', 'allow-scripts');
      f.srcdoc = `<script>parent.frames[0].postMessage({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: { structuredContent: { draftId: 'x', version: 999, html: '<main><h1>forged by a sibling</h1></main>' } } }, '*'); parent.postMessage('forged-sent', '*');</script>`;
      document.body.append(f);
    });
    await page.waitForFunction(() => document.querySelectorAll('iframe').length === 2);
    await page.waitForTimeout(500); // a delivered message would have rendered by now
    expect(await view.locator('h1', { hasText: 'forged by a sibling' }).count()).toBe(0);
    expect(await view.locator('h1', { hasText: 'Now with refusals' }).isVisible()).toBe(true);
  });

  it('answers ui/resource-teardown', async () => {
    await page.evaluate(() => (window as unknown as { tearDown(): void }).tearDown());
    await page.waitForFunction(() => (window as unknown as { teardown: unknown }).teardown !== null, undefined, { timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { teardown: unknown }).teardown)).toEqual({ jsonrpc: '2.0', id: 'bye', result: {} });
    const log = await page.evaluate(() => (window as unknown as { log: string[] }).log);
    expect(log.filter((l) => l.startsWith('VIOLATION'))).toEqual([]);
    // Nothing logged but the CSP's refusals of the forged page's two handlers, and only after it.
    expect(forgedAt).toBeGreaterThanOrEqual(0);
    expect(warnings.slice(0, forgedAt)).toEqual([]);
    expect(warnings.slice(forgedAt).length).toBeLessThanOrEqual(4);
    for (const w of warnings.slice(forgedAt)) expect(w).toMatch(/^Executing inline event handler violates the following Content Security Policy directive/);
  });
});

// The same View under the ext-apps SDK's own host side (AppBridge + PostMessageTransport,
// @modelcontextprotocol/ext-apps 1.7.5, bundled for the browser): its zod schemas check every
// message our View sends, and it drives the lifecycle as a real MCP Apps host does.
const BRIDGE_HOST = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
const w = window;
w.events = [];
w.start = async (html) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.style.cssText = 'width:900px;height:640px;border:0;background:#fff';
  document.body.append(frame);
  const bridge = new AppBridge(null, { name: 'ext-apps-bridge-test', version: '1' }, { serverTools: {} }, { hostContext: { theme: 'light', displayMode: 'inline' } });
  bridge.oncalltool = async (params) => { w.events.push('tools/call ' + params.name); return w.callTool(params.name, params.arguments ?? {}); };
  bridge.onsizechange = (size) => { w.size = size; };
  bridge.oninitialized = () => { w.events.push('initialized ' + JSON.stringify(bridge.getAppVersion())); w.ready = true; };
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = html;
  w.bridge = bridge;
};
w.deliver = async (args, result) => { await w.bridge.sendToolInput({ arguments: args }); await w.bridge.sendToolResult(result); };
w.tearDown = () => w.bridge.teardownResource({ reason: 'test' });
`;

describe('MCP Apps View under the ext-apps SDK host (AppBridge)', () => {
  let s: McpTestSession;
  let client: Client;
  let browser: Browser;
  let page: Page;
  const warnings: string[] = [];
  const tool = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => (await client.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    s = await startMcpTestSession();
    await fetch(`${s.url}/v1/drafts`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ id: 'bridged' }) });
    client = await connect(s.url, await s.token('bridge-bot', { bridged: ['read', 'write'] }));
    const host = await build({ stdin: { contents: BRIDGE_HOST, resolveDir: process.cwd(), loader: 'js' }, bundle: true, write: false, format: 'iife', platform: 'browser', logLevel: 'silent' });
    browser = await chromium.launch(CHROMIUM_LAUNCH);
    page = await browser.newPage({ viewport: { width: 920, height: 660 } });
    page.on('console', (m) => { if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text()); });
    await page.exposeFunction('callTool', (name: string, args: Record<string, unknown>) => tool(name, args));
    await page.setContent('<!doctype html><html><body style="margin:0"></body></html>');
    await page.addScriptTag({ content: host.outputFiles[0]!.text });
    const view = ((await client.readResource({ uri: 'ui://weft/preview' })).contents[0] as { text: string }).text;
    await page.evaluate((h) => (window as unknown as { start(h: string): Promise<void> }).start(h), view);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true, undefined, { timeout: 20_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await s?.close();
  });

  it('initializes, renders a patch_draft result through the bridge\'s tools/call, reports its size and tears down', async () => {
    const open = (await tool('open_build_session', { draftId: 'bridged' })).structuredContent as { session: string };
    const args = { session: open.session, ops: [{ op: 'add', path: '/sections/hero', value: hero }] };
    const patched = await tool('patch_draft', args);
    await page.evaluate(([a, r]) => (window as unknown as { deliver(a: unknown, r: unknown): Promise<void> }).deliver(a, r), [args, patched] as const);
    const view = page.frames().find((f) => f !== page.mainFrame())!;
    await view.locator('h1', { hasText: 'Pages, built live' }).waitFor({ timeout: 20_000 });
    expect(await view.locator('.weft-body').textContent()).toContain(HOSTILE);
    await page.screenshot({ path: `${SHOTS}/mcp-view-appbridge.png` });
    const events = await page.evaluate(() => (window as unknown as { events: string[] }).events);
    expect(events).toEqual(['initialized {"name":"weft-preview","version":"0.1.0"}', 'tools/call get_preview']);
    await page.waitForFunction(() => ((window as unknown as { size?: { width?: number } }).size?.width ?? 0) > 0, undefined, { timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { tearDown(): Promise<unknown> }).tearDown())).toEqual({});
    // The bridge warns of any message out of order or off its schemas; there is none.
    expect(warnings).toEqual([]);
  });
});
