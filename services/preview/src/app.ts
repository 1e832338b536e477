// The preview service (ARCHITECTURE.md): bus → changed sections → HTML. Serves the live page, its
// change stream and fragments, past versions, and the Build view. build() never listens: the
// all-in-one launcher mounts handle() on the session's server; main.ts runs it standalone.
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DraftFollower } from '@weft/bus';
import { ErrorCode } from '@weft/core';
import type { ErrorPayload } from '@weft/core';
import type { Bus, Subscription } from '@weft/bus';
import { baseStyles, cspWithStyleHash, DEFAULT_CSP, renderDraft, renderPage, renderSection, runtimeScript } from '@weft/render';
import { deltaOps, scopeAllows } from '@weft/protocol';
import { isDatabaseUnavailable, loadDraft } from '@weft/store';
import type { EventStore, TokenStore } from '@weft/store';
import { LiveDraft } from './live-draft.ts';
import type { Change } from './live-draft.ts';
import { bundleEditor } from './editor-bundle.ts';
import type { Bundle } from './editor-bundle.ts';
import { buildPage, catalogJson, draftsPage } from './pages.ts';
import { Sources } from './sources.ts';
import { Tickets } from './tickets.ts';
import type { Readable } from './tickets.ts';
import { createLogger, Registry } from '@weft/ops';
import type { Logger } from '@weft/ops';
import { previewMetrics } from './metrics.ts';

export interface PreviewDeps {
  store: EventStore;
  tokens: Pick<TokenStore, 'verify'>;
  bus: Pick<Bus, 'subscribe' | 'onReconnect'>;
  now?: () => number;
  /** Default: JSON lines on stdout (service "preview"). */
  log?: Logger;
  /** Where the preview's metrics go (its shell serves /metrics); default a private registry. */
  registry?: Registry;
}

export interface PreviewConfig {
  /** Where the browser calls the session API; '' = same origin. */
  sessionUrl?: string;
  /** The session's admin token, accepted like a minted token (it is not in the token table). */
  adminToken?: string | null;
  /** HMAC key for view tickets; default random per process (tickets then die with it). */
  ticketSecret?: string | null;
  /** Head check period per viewed draft (catch-up after bus outages). */
  headCheckMs?: number;
  /** A draft nobody watches is dropped from memory after this long. */
  idleMs?: number;
}

export interface Preview {
  /** True when the route is the preview's (and the response was or will be sent). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  close(): Promise<void>;
  /** For tests and metrics: the materialized draft, if loaded. */
  live(draftId: string): LiveDraft | undefined;
}

const asset = (name: string): { body: string; hash: string } => {
  const body = readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
  return { body, hash: createHash('sha256').update(body).digest('hex').slice(0, 12) };
};

const placeholderPng = readFileSync(new URL('./assets/placeholder.png', import.meta.url));

const DRAFT_ID = /^[a-z0-9-]{1,64}$/;
const SECTION_ID = /^[a-z][a-z0-9-]{0,40}$/;

export function build(deps: PreviewDeps, config: PreviewConfig = {}): Preview {
  const now = deps.now ?? Date.now;
  const { store } = deps;
  const sessionUrl = (config.sessionUrl ?? '').replace(/\/+$/, '');
  const adminDigest = config.adminToken ? sha(config.adminToken) : null;
  const tickets = new Tickets(config.ticketSecret ?? null, now);
  const sources = new Sources(store);
  const assets = {
    'live.js': asset('live.js'), 'build.js': asset('build.js'), 'build.css': asset('build.css'), 'home.js': asset('home.js'),
    'base.css': { body: baseStyles, hash: createHash('sha256').update(baseStyles).digest('hex').slice(0, 12) },
  } as const;
  const assetUrl = (name: keyof typeof assets): string => `/preview/assets/${name}?v=${assets[name].hash}`;
  // Another origin's session: its HTTP API and its /collab WebSocket (ws: or wss:, which a CSP
  // source with an http(s) scheme does not cover).
  const sessionOrigin = sessionUrl === '' ? '' : new URL(sessionUrl).origin;
  const connect = sessionOrigin === '' ? '' : ` ${sessionOrigin} ${sessionOrigin.replace(/^http/, 'ws')}`;
  const pageCspFor = (frames: string): string => `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'${connect};${frames} form-action 'none'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'`;
  // Bundled once, on first use (the Build view page or the script itself), then kept in memory.
  let editor: Promise<Bundle> | null = null;
  const editorBundle = (): Promise<Bundle> => {
    editor ??= bundleEditor().catch((e: unknown) => { editor = null; throw e; });
    return editor;
  };
  const catalog = catalogJson();

  const drafts = new Map<string, Promise<LiveDraft | null>>();
  const loaded = new Map<string, LiveDraft>();
  const subs = new Map<string, Subscription>();
  const sseClients = new Set<ServerResponse>();
  let closed = false;
  const log = deps.log ?? createLogger({ service: 'preview' });
  const metrics = previewMetrics(deps.registry ?? new Registry(), { drafts: () => loaded.size, streams: () => sseClients.size });

  const follower = new DraftFollower({
    refill: async (draftId, after) => (await store.readSteps(draftId, { after, limit: 1000 }))
      .map((s) => ({ version: s.version, events: [{ type: 'STATE_DELTA', delta: s.ops }] })),
    headVersions: (ids) => store.headVersions(ids),
    handle: async (draftId, v) => {
      const live = loaded.get(draftId);
      if (!live) return;
      const done = metrics.applySeconds.startTimer();
      live.apply(v.version, deltaOps(v.events));
      done();
      metrics.versionsApplied.inc();
    },
    onError: (e, draftId) => {
      metrics.renderErrors.inc({ where: 'follow' });
      log.error('draft follow failed', { draftId, err: e });
    },
  });
  const stopHeadChecks = follower.startHeadChecks(config.headCheckMs ?? 2000);
  const offReconnect = deps.bus.onReconnect(() => { void follower.checkHeads(); });

  const open = (draftId: string): Promise<LiveDraft | null> => {
    let p = drafts.get(draftId);
    if (!p) {
      p = (async () => {
        if (!(await store.getDraft(draftId))) return null;
        const { draft, version } = await loadDraft(store, draftId);
        await follower.follow(draftId, version);
        subs.set(draftId, deps.bus.subscribe({ draftId }, (m) => follower.receive(m)));
        const live = new LiveDraft(draftId, draft, version, now());
        loaded.set(draftId, live);
        // Versions committed between the load and the subscription come from the log.
        setImmediate(() => void follower.catchUp(draftId));
        return live;
      })();
      drafts.set(draftId, p);
      p.then((l) => { if (!l) drafts.delete(draftId); }, () => drafts.delete(draftId));
    }
    return p;
  };

  const evictor = setInterval(() => {
    const idle = config.idleMs ?? 5 * 60_000;
    for (const [id, p] of drafts) {
      void p.then((l) => {
        if (l && l.viewers === 0 && now() - l.lastViewed > idle && drafts.get(id) === p) {
          drafts.delete(id);
          loaded.delete(id);
          subs.get(id)?.unsubscribe();
          subs.delete(id);
        }
      });
    }
  }, 30_000);
  evictor.unref();

  /** What a bearer token may do with the draft (the same rule as the session's API). */
  const access = async (req: IncomingMessage, draftId: string): Promise<{ read: boolean; write: boolean; actor: { id: string; kind: string }; readable: Readable } | null> => {
    const h = req.headers.authorization;
    if (!h || !h.startsWith('Bearer ')) return null;
    const token = h.slice(7).trim();
    if (token.length === 0 || token.length > 200) return null;
    if (adminDigest && timingSafeEqual(sha(token), adminDigest)) return { read: true, write: true, actor: { id: 'admin', kind: 'admin' }, readable: '*' };
    const rec = await deps.tokens.verify(token);
    if (!rec) return null;
    const actor = { id: rec.actorId, kind: rec.actorKind };
    if (rec.actorKind === 'admin') return { read: true, write: true, actor, readable: '*' };
    // What a `$source: drafts` list may show this reader: own-property scopes with read only.
    const readable: Readable = scopeAllows(rec.scopes, '*', 'read') ? '*' : Object.keys(rec.scopes).filter((k) => scopeAllows(rec.scopes, k, 'read'));
    return { read: scopeAllows(rec.scopes, draftId, 'read'), write: scopeAllows(rec.scopes, draftId, 'write'), actor, readable };
  };

  // A live page posts reader actions to the session: its origin too when that is another one (in the
  // header and in the page's own meta policy, which both apply).
  const liveCsp = sessionOrigin === '' ? DEFAULT_CSP : DEFAULT_CSP.replace("connect-src 'self'", `connect-src 'self' ${sessionOrigin}`);
  const pageCsp = cspWithStyleHash(liveCsp, baseStyles);

  const routes: { method: string; re: RegExp; fn: (req: IncomingMessage, res: ServerResponse, m: string[], url: URL) => Promise<void> | void }[] = [
    { method: 'GET', re: /^\/preview\/assets\/(live\.js|build\.js|home\.js|build\.css|base\.css|editor\.js|runtime\.js)$/, fn: async (_req, res, m, url) => {
      if (m[1] === 'editor.js' || m[1] === 'runtime.js') {
        const b = m[1] === 'editor.js' ? await editorBundle() : await runtimeScript();
        const immutable = url.searchParams.get('v') === b.hash;
        return send(res, 200, 'text/javascript; charset=utf-8', b.body, { 'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache', etag: `"${b.hash}"` });
      }
      const name = m[1] as keyof typeof assets;
      const a = assets[name];
      const type = name.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8';
      const immutable = url.searchParams.get('v') === a.hash;
      send(res, 200, type, a.body, { 'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache', etag: `"${a.hash}"` });
    } },
    // The catalog's placeholder image (Image's example and required-prop repair: "assets/placeholder.png",
    // relative, so it resolves here from the live page and from the Build view's past versions).
    { method: 'GET', re: /^\/(?:preview|build)\/assets\/placeholder\.png$/, fn: (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': placeholderPng.length, 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' });
      res.end(placeholderPng);
    } },
    { method: 'POST', re: /^\/preview\/([^/]+)\/ticket$/, fn: async (req, res, m) => {
      const id = m[1]!;
      const who = await access(req, id);
      if (!who?.read || !(await store.getDraft(id))) return sendError(res, { code: 'NOT_FOUND', message: `No draft "${id}" (or no access to it).` });
      const t = tickets.mint(id, who.readable);
      // write/actor tell the Build view whether to enable its editing controls (the session
      // enforces the scope anyway: read-only Yjs connections cannot write).
      sendJson(res, 200, { ticket: t.ticket, expiresAt: new Date(t.expiresAt).toISOString(), url: `/preview/${id}?ticket=${t.ticket}`, write: who.write, actor: who.actor });
    } },
    { method: 'GET', re: /^\/preview\/([^/]+)$/, fn: async (_req, res, m, url) => {
      const id = m[1]!;
      const readable = tickets.readable(url.searchParams.get('ticket'), id);
      if (readable === null) return sendDenied(res);
      const live = await open(id);
      if (!live) return sendDenied(res);
      live.lastViewed = now();
      const runtime = await runtimeScript();
      const html = renderPage(await sources.resolve(live.draft, readable), {
        title: live.draft.title || id, scripts: [assetUrl('live.js')], csp: liveCsp,
        runtime: `/preview/assets/runtime.js?v=${runtime.hash}`,
        // Reader events go to the session's API (its origin allows this one: WEFT_CORS_ORIGINS), which
        // takes the page's ticket (the same WEFT_PREVIEW_SECRET on every node).
        actions: `${sessionUrl}/v1/drafts/${id}/actions?ticket=${encodeURIComponent(url.searchParams.get('ticket') ?? '')}`,
      })
        .replace('<main class="weft-page"', `<main class="weft-page" data-version="${live.version}"`);
      send(res, 200, 'text/html; charset=utf-8', html, {
        'content-security-policy': `${pageCsp}; frame-ancestors 'self'`, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff',
      });
    } },
    { method: 'GET', re: /^\/preview\/([^/]+)\/changes$/, fn: async (req, res, m, url) => {
      const id = m[1]!;
      if (!tickets.valid(url.searchParams.get('ticket'), id)) return sendDenied(res);
      const live = await open(id);
      if (!live) return sendDenied(res);
      const lastId = req.headers['last-event-id'];
      const after = Number(typeof lastId === 'string' && lastId !== '' ? lastId : url.searchParams.get('after') ?? '0');
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
      res.write('retry: 1000\n\n');
      const write = (c: Change): void => { res.write(`id: ${c.version}\ndata: ${JSON.stringify(c)}\n\n`); };
      if (Number.isInteger(after) && after < live.version) write(live.since(after));
      const off = live.listen(write);
      sseClients.add(res);
      const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
      beat.unref();
      res.on('close', () => { off(); clearInterval(beat); sseClients.delete(res); live.lastViewed = now(); });
    } },
    { method: 'GET', re: /^\/preview\/([^/]+)\/sections\/([^/]+)$/, fn: async (_req, res, m, url) => {
      const id = m[1]!;
      const sid = m[2]!;
      const readable = tickets.readable(url.searchParams.get('ticket'), id);
      if (readable === null) return sendDenied(res);
      const live = await open(id);
      if (!live) return sendDenied(res);
      // Latest wins: a fragment newer than the asked version is what the viewer wants anyway.
      // A section with a $source depends on the reader: rendered for them, not cached.
      const html = !SECTION_ID.test(sid) ? null
        : Sources.has(live.draft, sid) ? renderSection(await sources.resolve(live.draft, readable), sid).html
          : live.fragment(sid);
      const headers = { 'cache-control': 'no-store', 'x-weft-version': String(live.version) };
      // A section the draft no longer has (removed while this fetch was on its way): 204, which
      // live.js reads as "drop it" — a race, not an error worth a console line in every viewer.
      if (html === null) return send(res, SECTION_ID.test(sid) ? 204 : 404, 'text/plain; charset=utf-8', '', headers);
      send(res, 200, 'text/html; charset=utf-8', html, headers);
    } },
    { method: 'GET', re: /^\/preview\/([^/]+)\/render$/, fn: async (req, res, m, url) => {
      const id = m[1]!;
      const who = await access(req, id);
      if (!who?.read) return sendError(res, { code: 'NOT_FOUND', message: `No draft "${id}" (or no access to it).` });
      const meta = await store.getDraft(id);
      if (!meta) return sendError(res, { code: 'NOT_FOUND', message: `No draft "${id}" (or no access to it).` });
      const raw = url.searchParams.get('version');
      const version = raw === null ? meta.headVersion : Number(raw);
      if (!Number.isInteger(version) || version < 0 || version > meta.headVersion) {
        return sendError(res, { code: 'BAD_REQUEST', message: `version must be an integer in 0..${meta.headVersion}`, path: '/version' });
      }
      const at = await loadDraft(store, id, version);
      const r = renderDraft(await sources.resolve(at.draft, who.readable));
      // Fidelity notes: what did not render as written (rule, severity broken|approximate, component).
      sendJson(res, 200, { id, version: at.version, head: meta.headVersion, title: at.draft.title, html: r.html, notes: r.notes });
    } },
    { method: 'GET', re: /^\/$/, fn: (_req, res) => { res.writeHead(302, { location: '/build', 'cache-control': 'no-store' }); res.end(); } },
    // The Build chat asks the session's origin for its agent (`npm start` and every session
    // process mount it ahead of this handler). Reached here only where no agent is mounted: the
    // chat says so instead of meeting a 404.
    { method: 'GET', re: /^\/agent\/model$/, fn: (_req, res) => {
      sendJson(res, 200, { configured: false, model: null, message: 'No agent answers here: the Build chat needs a session process (it runs the agent), at this origin or at WEFT_SESSION_URL.' });
    } },
    { method: 'GET', re: /^\/build$/, fn: (_req, res) => {
      const csp = pageCspFor('');
      send(res, 200, 'text/html; charset=utf-8', draftsPage({ sessionUrl, csp, css: [assetUrl('base.css'), assetUrl('build.css')], script: assetUrl('home.js') }), { 'content-security-policy': csp, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    } },
    { method: 'GET', re: /^\/build\/([^/]+)$/, fn: async (_req, res, m) => {
      const id = m[1]!;
      const csp = pageCspFor(" frame-src 'self';");
      const html = buildPage({ draftId: id, sessionUrl, csp, css: [assetUrl('base.css'), assetUrl('build.css')], script: assetUrl('build.js'), editor: `/preview/assets/editor.js?v=${(await editorBundle()).hash}`, catalog });
      send(res, 200, 'text/html; charset=utf-8', html, { 'content-security-policy': csp, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    } },
  ];

  return {
    live: (draftId) => loaded.get(draftId),
    handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      // `/` and `/build` are the drafts page (where npm start's URL leads); the rest is per draft.
      if (url.pathname !== '/' && url.pathname !== '/build' && url.pathname !== '/agent/model' && !url.pathname.startsWith('/preview/') && !url.pathname.startsWith('/build/')) return false;
      for (const r of routes) {
        const m = r.re.exec(url.pathname);
        if (!m) continue;
        if (r.method !== req.method) continue;
        const id = m[1];
        if (id !== undefined && !m[0].startsWith('/preview/assets/') && !DRAFT_ID.test(id)) {
          sendError(res, { code: 'NOT_FOUND', message: 'No such draft.' });
          return true;
        }
        if (closed) { sendError(res, { code: 'UNAVAILABLE', message: 'The preview is shutting down.' }); return true; }
        Promise.resolve(r.fn(req, res, m as unknown as string[], url)).catch((e: unknown) => {
          metrics.renderErrors.inc({ where: 'request' });
          if (isDatabaseUnavailable(e)) {
            log.warn('preview request: the database is unreachable', { path: url.pathname, reqId: req.id, err: e });
            if (!res.headersSent) sendError(res, { code: 'UNAVAILABLE', message: 'The database is unreachable; retry shortly.' });
            else res.end();
            return;
          }
          log.error('preview request failed', { path: url.pathname, reqId: req.id, err: e });
          if (!res.headersSent) sendError(res, { code: 'INTERNAL', message: 'Preview failed; see the server log.' });
          else res.end();
        });
        return true;
      }
      sendError(res, { code: 'NOT_FOUND', message: `No route ${req.method} ${url.pathname}.` });
      return true;
    },
    async close() {
      closed = true;
      stopHeadChecks();
      offReconnect();
      clearInterval(evictor);
      for (const s of subs.values()) s.unsubscribe();
      subs.clear();
      for (const r of sseClients) r.end();
      sseClients.clear();
      await follower.idle();
    },
  };
}

function sha(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body), { 'cache-control': 'no-store' });
}

/** A refusal in the session's shape and status (core's error registry), so one client reads both. */
function sendError(res: ServerResponse, error: ErrorPayload): void {
  sendJson(res, ErrorCode[error.code].status, { error });
}

/** One answer for a missing, expired or wrong ticket and for a missing draft: no existence leak. */
function sendDenied(res: ServerResponse): void {
  send(res, 403, 'text/plain; charset=utf-8', 'This preview link is missing, expired or not for this draft. Open the Build view to get a fresh one.', { 'cache-control': 'no-store' });
}
