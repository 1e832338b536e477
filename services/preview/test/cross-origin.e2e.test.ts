// The Build view served from another origin than the session API (the preview on its own host,
// WEFT_SESSION_URL on the preview, WEFT_CORS_ORIGINS on the session): from an empty draft, a
// person adds a section and sees the live stream, in Chromium. Before CORS and the CSP's ws:
// source, every API call was blocked by the browser and /collab by the page's own CSP.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { TokenStore } from '@weft/store';
import { ADMIN, startTestSession, withReaderActions } from '../../session/test/helpers.ts';
import type { TestSession } from '../../session/test/helpers.ts';
import { build } from '../src/app.ts';
import { Tickets } from '../src/tickets.ts';
import type { Preview } from '../src/app.ts';
import { CHROMIUM_LAUNCH, closeStack } from './stack.ts';

const listen = async (handle: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> => {
  const server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  return { server, port: typeof a === 'object' && a ? a.port : 0 };
};

let session: TestSession;
let pages: { server: Server; port: number };
let preview: Preview;
let browser: Browser;
/** The page's origin: "localhost" is another origin than the session's 127.0.0.1, as another host would be. */
let pageOrigin: string;

beforeAll(async () => {
  // The preview's port is known only once it listens; the session lists it as an allowed origin.
  const holder: { preview: Preview | null } = { preview: null };
  pages = await listen((req, res) => { if (!holder.preview?.handle(req, res)) { res.statusCode = 404; res.end(); } });
  pageOrigin = `http://localhost:${pages.port}`;
  // The session takes the page's tickets on reader actions: the preview's key (WEFT_PREVIEW_SECRET).
  const tickets = new Tickets('e2e', Date.now);
  session = await startTestSession({ corsOrigins: [pageOrigin] }, undefined, withReaderActions((tk, id) => tickets.valid(tk, id)));
  preview = build({ store: session.store, tokens: new TokenStore(session.db.db), bus: session.bus }, { adminToken: ADMIN, ticketSecret: 'e2e', sessionUrl: session.url });
  holder.preview = preview;
  browser = await chromium.launch(CHROMIUM_LAUNCH);
}, 60_000);

afterAll(async () => {
  await closeStack({ browser, preview, server: pages?.server, session });
});

/** Opens the Build view at `url` and signs in with `token`. */
async function openSignedIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await page.fill('#wb-token', token);
  await page.press('#wb-token', 'Enter');
}

/** The page keeps trying the stream and does not blame CORS (the session answered, or is down). */
async function expectReconnectingNotBlocked(page: Page): Promise<void> {
  await page.waitForSelector('#wb-status:text-is("reconnecting…")', { timeout: 10_000 });
  await page.waitForTimeout(4000); // two more tries of the stream
  expect(await page.locator('#wb-status').textContent()).toBe('reconnecting…');
  expect(await page.locator('#wb-notice').textContent()).not.toContain('WEFT_CORS_ORIGINS');
}

describe('the Build view on another origin than the session', () => {
  it('works from an empty draft: + Section lands through the API, the stream and /collab', async () => {
    const id = `xo${Date.now().toString(36)}`;
    await session.admin.createDraft(id, 'Cross-origin');
    const { token } = await session.admin.mintToken({ actor: { id: 'alice', kind: 'human' }, scopes: { '*': ['read', 'write'] } });
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    const errors: string[] = [];
    // This bare session runs no agent (a launcher's always does): the Build chat's ask for it is a 404 here.
    page.on('console', (m) => { if (m.type() === 'error' && !m.location().url.includes('/agent/model')) errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    ctx.on('requestfailed', (r) => { if (!/ERR_ABORTED/.test(r.failure()?.errorText ?? '')) errors.push(`failed ${r.url()}: ${r.failure()?.errorText}`); });
    try {
      await openSignedIn(page, `${pageOrigin}/build/${id}`, token);
      await page.waitForSelector('#wb-empty', { timeout: 15_000 });
      await page.click('#wb-add-section');
      await expect.poll(async () => (await session.admin.getDraft(id)).draft.order.length, { timeout: 5000 }).toBe(1);
      // The live stream (SSE from the session's origin) brings the step to the feed and the frame.
      await page.waitForSelector('#wb-feed .wb-v:text-is("v1")', { timeout: 5000 });
      await page.waitForSelector('#wb-status:text-is("live")', { timeout: 5000 });
      expect(errors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('a reader of the page on the preview\'s origin changes a Toggle: the action reaches the session, which writes the bound value', async () => {
    const id = `xa${Date.now().toString(36)}`;
    await session.admin.createDraft(id, 'Cross-origin actions');
    const section = {
      id: 'plan', kind: 'surface', catalog: 'weft@1', data: { period: 'monthly' },
      components: {
        root: { id: 'root', component: 'Stack', children: ['period', 'shown'] },
        period: { id: 'period', component: 'Toggle', props: { options: ['monthly', 'yearly'], value: { path: '/period' }, label: 'Billing', event: 'plan.period' } },
        shown: { id: 'shown', component: 'Text', props: { text: { path: '/period' } } },
      },
    };
    expect((await session.admin.submit(id, { opId: `${id}-s`, ops: [{ op: 'add', path: '/sections/plan', value: section }, { op: 'add', path: '/order/-', value: 'plan' }] })).refused).toEqual([]);
    const minted = await fetch(`${pageOrigin}/preview/${id}/ticket`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } });
    const { url } = (await minted.json()) as { url: string };
    const page = await browser.newPage();
    const errors: string[] = [];
    // A CSP block or a refused CORS preflight shows here (the page has no favicon: Chromium's ask is not ours).
    page.on('console', (m) => { if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(m.text()); });
    try {
      await page.goto(`${pageOrigin}${url}`);
      expect(await page.locator('main.weft-page').getAttribute('data-weft-actions')).toMatch(new RegExp(`^${session.url}/v1/drafts/${id}/actions\\?ticket=`));
      await page.getByText('yearly', { exact: true }).click();
      await expect.poll(async () => (await session.admin.getDraft(id)).draft.sections['plan']!.data['period'], { timeout: 5000 }).toBe('yearly');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('on an origin the session does not list, the Build view says so and names WEFT_CORS_ORIGINS (not "reconnecting…" forever)', async () => {
    // The same preview on another port: an origin the session was not told about.
    const other = await listen((req, res) => { if (!preview.handle(req, res)) { res.statusCode = 404; res.end(); } });
    const otherOrigin = `http://localhost:${other.port}`;
    const id = `xb${Date.now().toString(36)}`;
    await session.admin.createDraft(id, 'Blocked');
    const { token } = await session.admin.mintToken({ actor: { id: 'bob', kind: 'human' }, scopes: { '*': ['read', 'write'] } });
    const page = await browser.newPage();
    try {
      await openSignedIn(page, `${otherOrigin}/build/${id}`, token);
      await page.waitForSelector('#wb-status:text-is("blocked by the session (CORS)")', { timeout: 10_000 });
      const said = await page.locator('#wb-notice').textContent();
      expect(said).toContain(`add ${otherOrigin} to WEFT_CORS_ORIGINS`);
      expect(said).toContain(session.url);
      // It stays: a fault only the operator fixes is not a notice that fades after 8 s.
      await page.waitForTimeout(9000);
      expect(await page.locator('#wb-notice').isVisible()).toBe(true);
      expect(await page.locator('#wb-status').textContent()).toBe('blocked by the session (CORS)');
    } finally {
      await page.close();
      await new Promise<void>((r) => other.server.close(() => r()));
    }
  });

  it('a listed origin whose stream answers 503 (the database down) is not called a CORS block', async () => {
    const id = `xs${Date.now().toString(36)}`;
    await session.admin.createDraft(id, 'Unavailable');
    const ctx = await browser.newContext();
    // The session answers, with CORS headers, but cannot serve the stream now.
    await ctx.route(`${session.url}/v1/drafts/${id}/stream`, (route) => route.fulfill({
      status: 503, contentType: 'application/json', headers: { 'access-control-allow-origin': pageOrigin },
      body: JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'The database is unreachable; retry shortly.' } }),
    }));
    const page = await ctx.newPage();
    try {
      await openSignedIn(page, `${pageOrigin}/build/${id}`, ADMIN);
      await expectReconnectingNotBlocked(page);
    } finally {
      await ctx.close();
    }
  });

  it('a session that is down is not called a CORS block', async () => {
    // A session URL on another origin where nothing listens: the no-cors probe fails too.
    const dead = await listen((_req, res) => { res.end(); });
    const deadUrl = `http://127.0.0.1:${dead.port}`;
    await new Promise<void>((r) => dead.server.close(() => r()));
    const lone = build({ store: session.store, tokens: new TokenStore(session.db.db), bus: session.bus }, { adminToken: ADMIN, ticketSecret: 'e2e', sessionUrl: deadUrl });
    const served = await listen((req, res) => { if (!lone.handle(req, res)) { res.statusCode = 404; res.end(); } });
    const id = `xd${Date.now().toString(36)}`;
    await session.admin.createDraft(id, 'Down');
    const page = await browser.newPage();
    try {
      await openSignedIn(page, `http://localhost:${served.port}/build/${id}`, ADMIN);
      await expectReconnectingNotBlocked(page);
    } finally {
      await page.close();
      await lone.close();
      await new Promise<void>((r) => served.server.close(() => r()));
    }
  });

  it('names only the listed origin back; another origin gets no CORS headers (the browser blocks it)', async () => {
    const pre = (origin: string) => fetch(`${session.url}/v1/drafts`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    const ok = await pre(pageOrigin);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(pageOrigin);
    expect(ok.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    const other = await pre('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const read = await fetch(`${session.url}/v1/drafts`, { headers: { origin: pageOrigin, authorization: `Bearer ${ADMIN}` } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBe(pageOrigin);
    expect(read.headers.get('vary')).toContain('Origin');
  });
});
