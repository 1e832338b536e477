// The Build view against the real session (HTTP + Hocuspocus) and preview on one port, people in
// Chromium contexts. Every opened page records console errors, page errors and failed requests;
// `checkClean()` fails the test on any of them (issue 8 and 15 bar).
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { TokenStore } from '@weft/store';
import type { WeftHttpClient } from '@weft/client';
import type { Draft } from '@weft/core';
import { ADMIN, startTestSession } from '../../session/test/helpers.ts';
import type { TestSession } from '../../session/test/helpers.ts';
import { build } from '../src/app.ts';
import type { Preview } from '../src/app.ts';
import { CHROMIUM_LAUNCH, closeStack } from './stack.ts';

export type Who = 'alice' | 'bob' | 'viewer';

/** A person's collaboration socket, held in both directions on demand (a deterministic race). */
export interface Held { hold(): void; release(): Promise<void> }

export interface Opened { page: Page; ctx: BrowserContext; errors: string[]; socket: Held }

export interface BuildView {
  t: TestSession;
  url: string;
  admin: WeftHttpClient;
  tokens: Record<Who | 'agent', string>;
  /** Console lines the current test expects (Chromium logs every 4xx fetch). */
  allowed: RegExp[];
  emptyDraft(title?: string): Promise<string>;
  open(draftId: string, who: Who, ready?: string): Promise<Opened>;
  /** A page at `path` (not signed in), its errors recorded like open()'s. */
  visit(path: string, who: Who): Promise<Opened>;
  serverDraft(draftId: string): Promise<Draft>;
  /** Closes the pages of this test; returns the errors nobody allowed. */
  closePages(): Promise<string[]>;
  /** What the open pages logged as errors so far (console, page errors, failed requests). */
  pageErrors(): string[];
  close(): Promise<void>;
}

export async function startBuildView(): Promise<BuildView> {
  const t = await startTestSession({ opsPerSecond: 100_000, opsPerTurn: 100_000 });
  const preview: Preview = build({ store: t.store, tokens: new TokenStore(t.db.db), bus: t.bus }, { adminToken: ADMIN, ticketSecret: 'e2e', headCheckMs: 500 });
  const server: Server = createServer((req, res) => { if (!preview.handle(req, res)) t.app.handle(req, res); });
  server.on('upgrade', t.app.upgrade);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  const url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  const admin = t.admin;
  const tokens: Record<Who | 'agent', string> = { alice: '', bob: '', viewer: '', agent: '' };
  for (const who of ['alice', 'bob'] as const) tokens[who] = (await admin.mintToken({ actor: { id: who, kind: 'human' }, scopes: { '*': ['read', 'write'] } })).token;
  tokens.viewer = (await admin.mintToken({ actor: { id: 'viewer', kind: 'human' }, scopes: { '*': ['read'] } })).token;
  tokens.agent = (await admin.mintToken({ actor: { id: 'builder-bot', kind: 'agent' }, scopes: { '*': ['read', 'write'] } })).token;
  const browser: Browser = await chromium.launch(CHROMIUM_LAUNCH);
  const opened: Opened[] = [];
  let n = 0;

  const view: BuildView = {
    t, url, admin, tokens, allowed: [],
    async emptyDraft(title = 'Empty draft') {
      const id = `ev${Date.now().toString(36)}${n++}`;
      await admin.createDraft(id, title);
      return id;
    },
    async open(draftId, who, ready = '#wb-outline .wb-tree, #wb-empty') {
      const o = await view.visit(`/build/${draftId}`, who);
      await o.page.fill('#wb-token', tokens[who]);
      await o.page.press('#wb-token', 'Enter');
      await o.page.waitForSelector(ready, { timeout: 15_000 });
      return o;
    },
    async visit(path, who) {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(`${who}: ${m.text()}`); });
      page.on('pageerror', (e) => errors.push(`${who}: ${e.message}`));
      ctx.on('response', (r) => { if (r.status() >= 400) errors.push(`${who}: HTTP ${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`); });
      ctx.on('requestfailed', (r) => { if (!/ERR_ABORTED/.test(r.failure()?.errorText ?? '')) errors.push(`${who}: request failed ${r.method()} ${new URL(r.url()).pathname}: ${r.failure()?.errorText}`); });
      const socket = await holdable(page);
      opened.push({ page, ctx, errors, socket });
      await page.goto(`${url}${path}`);
      return { page, ctx, errors, socket };
    },
    serverDraft: async (id) => (await admin.getDraft(id)).draft as Draft,
    pageErrors: () => opened.flatMap((o) => o.errors),
    async closePages() {
      const errs = opened.flatMap((o) => o.errors).filter((e) => !view.allowed.some((r) => r.test(e)));
      view.allowed = [];
      for (const o of opened.splice(0)) await o.ctx.close();
      return errs;
    },
    close: () => closeStack({ browser, preview, server, session: t }),
  };
  return view;
}

/** Routes the page's /collab WebSocket through this process so a test can hold its traffic. */
async function holdable(page: Page): Promise<Held> {
  let held = false;
  const out: (string | Buffer)[] = [];
  const inn: (string | Buffer)[] = [];
  let route: { ws: WebSocketRoute; server: WebSocketRoute } | null = null;
  await page.routeWebSocket(/\/collab/, (ws) => {
    const server = ws.connectToServer();
    route = { ws, server };
    ws.onMessage((m) => { if (held) out.push(m); else server.send(m); });
    server.onMessage((m) => { if (held) inn.push(m); else ws.send(m); });
  });
  return {
    hold: () => { held = true; },
    async release() {
      held = false;
      const r = route as { ws: WebSocketRoute; server: WebSocketRoute } | null;
      if (!r) return;
      for (const m of out.splice(0)) r.server.send(m);
      for (const m of inn.splice(0)) r.ws.send(m);
    },
  };
}
