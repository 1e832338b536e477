import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { refusedEvent, stepEvents } from '@weft/protocol';
import type { AgUiEvent } from '@weft/protocol';
import type { SessionConfig } from './config.ts';
import { createLogger, probes } from '@weft/ops';
import type { Ctx, Deps } from './context.ts';
import { Auth } from './commands/principal.ts';
import { WeftError } from './commands/errors.ts';
import { ActivityStore, isDatabaseUnavailable } from '@weft/store';
import { recordActivity } from './commands/activity.ts';
import type { SystemEntry } from './commands/activity.ts';
import { registerActivity } from './http/activity.ts';
import { registerAdmin } from './http/admin.ts';
import { registerDrafts } from './http/drafts.ts';
import { registerExport } from './http/export.ts';
import { registerOpenApi, registerProbes } from './http/meta.ts';
import { registerOps } from './http/ops.ts';
import { sendError } from './http/respond.ts';
import { corsFor } from './http/cors.ts';
import { Router } from './http/router.ts';
import { registerStream } from './http/stream.ts';
import { registerRuns } from './http/runs.ts';
import { interruptRuns, Runs } from './live/runs.ts';
import type { FinalEvent } from './context.ts';
import { registerWebhooks } from './http/webhooks.ts';
import { webhookEvents } from './live/webhook-events.ts';
import { WebhookStore } from '@weft/store';
import { SessionManager } from './live/sessions.ts';
import { SseHub } from './live/sse.ts';
import { Turns } from './live/turns.ts';
import { Relay } from './live/relay.ts';
import { Ownership } from './cluster/ownership.ts';
import { FORWARDED_BY, forwardHttp } from './cluster/forward.ts';
import { Followers } from './cluster/followers.ts';
import { sessionMetrics } from './metrics.ts';
import { RoomManager } from './rooms/room-manager.ts';
import type { CommittedStep } from './rooms/types.ts';

/**
 * Other doors plug into the session process through extensions (the Yjs WebSocket, MCP, the
 * preview pages in the all-in-one launcher): routes, WebSocket upgrades, and commit listeners.
 */
export interface Extension {
  name: string;
  register(api: ExtensionApi): void;
  close?(): Promise<void>;
}
export interface ExtensionApi {
  ctx: Ctx;
  router: Router;
  /** Return true when the upgrade was handled. */
  onUpgrade(fn: (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean): void;
  onCommitted(fn: (steps: CommittedStep[]) => void): void;
}

export interface App {
  ctx: Ctx;
  router: Router;
  /** The node:http request listener. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** The node:http 'upgrade' listener (the Yjs WebSocket at /collab). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Hooks for other doors (Yjs mirror, MCP) to see every commit. */
  onCommitted(listener: (steps: CommittedStep[]) => void): void;
  close(): Promise<void>;
}

/** Builds the session service without listening (CONVENTIONS.md §3: build apart from listen). */
export function build(deps: Deps, config: SessionConfig, extensions: Extension[] = []): App {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? createLogger({ service: 'session' });
  const metrics = sessionMetrics(deps.registry);
  // A store that cannot answer ends no stream (null), it does not make every draft look deleted.
  const sse = new SseHub({ existing: async (ids) => { const heads = await deps.store.headVersions(ids).catch(() => null); return heads && new Set(heads.keys()); } });
  const activity = deps.activity ?? new ActivityStore(deps.store.db);
  // The system's own activity entries need ctx, which is built below from everything here.
  let system: ((draftId: string, e: SystemEntry) => void) | null = null;
  const record = (draftId: string, e: SystemEntry): void => system?.(draftId, e);
  const turns = new Turns();
  const listeners: ((steps: CommittedStep[]) => void)[] = [];
  const webhooks = new WebhookStore(deps.store.db);
  const hooks = webhookEvents(webhooks, log);

  const relay = new Relay({ store: deps.store, bus: deps.bus, log });
  const publish = (draftId: string, version: number, events: AgUiEvent[]): void => {
    sse.publish(draftId, version, events);
    const done = metrics.fanoutSeconds.startTimer();
    relay.publish(draftId, version, events, (sent) => done({ outcome: sent ? 'ok' : 'failed' }));
  };
  /** Events that are not a version, to this node's viewers and (transient) to every other node's. */
  const notify = (draftId: string, head: number, events: AgUiEvent[]): void => {
    sse.publish(draftId, null, events);
    const fanout = metrics.fanoutSeconds.startTimer();
    deps.bus.publish(draftId, { draftId, version: Math.max(1, head), events, transient: true })
      .then((sent) => fanout({ outcome: sent ? 'ok' : 'failed' }), () => fanout({ outcome: 'failed' }));
  };

  const onCommitted = (steps: CommittedStep[]): void => {
    metrics.stepsCommitted.inc(steps.length);
    metrics.commitBatchSteps.observe(steps.length);
    for (const s of steps) {
      metrics.opsApplied.inc(s.ops.length);
      for (const r of s.refused) metrics.opsRefused.inc({ rule: r.rule });
      const events: AgUiEvent[] = [];
      if (s.turnId) {
        const started = turns.begin(s.draftId, s.turnId, s.actor, s.version, s.createdAt, s.actorKind);
        if (started.length > 0) {
          deps.sessions.openTurn({ id: `${s.draftId}/${s.turnId}`, draftId: s.draftId, sessionId: s.sessionId, actorId: s.actor })
            .catch((e: unknown) => log.warn('turn audit open failed', { error: String(e) }));
          record(s.draftId, { kind: 'request', status: 'active', label: `Turn ${s.turnId} by ${s.actor} started`, detail: `first step at version ${s.version}` });
        }
        events.push(...started);
        turns.record(s.draftId, s.turnId, s.version, s.ops.length, s.notes.length, s.refused.length);
      }
      events.push(...stepEvents(s));
      publish(s.draftId, s.version, events);
    }
    for (const l of listeners) {
      try {
        l(steps);
      } catch (e) {
        log.error('commit listener failed', { error: String(e) });
      }
    }
  };

  const ownership = config.nodeId
    ? new Ownership(deps.store, { id: config.nodeId, url: config.nodeUrl ?? `http://${config.host}:${config.port}` }, config.leaseMs, log)
    : null;
  const rooms = new RoomManager(deps.store, {
    ...(ownership ? { fence: (id: string) => ownership.fence(id) } : {}),
    log: deps.store, now, opsPerTurn: config.opsPerTurn, opsPerSecond: config.opsPerSecond, maxBatch: config.maxBatch, onCommitted,
    // A step refused whole writes no version, but watchers still see the refusal (activity feeds).
    onRefused: (draftId, r) => {
      for (const x of r.refused) metrics.opsRefused.inc({ rule: x.rule });
      // A turn whose first step is refused whole starts here; either way its summary counts them.
      const started = r.turnId ? turns.begin(draftId, r.turnId, r.actor, r.version, now(), r.actorKind) : [];
      if (r.turnId) turns.refusedWithout(draftId, r.turnId, r.refused.length);
      notify(draftId, r.version, [...started, refusedEvent(r.refused, { version: r.version, opId: r.opId, actor: r.actor, turnId: r.turnId }, now())]);
      hooks.refusedWhole({ draftId, opId: r.opId, actor: r.actor, actorKind: r.actorKind, turnId: r.turnId, refused: r.refused }, now());
    },
  });
  rooms.keepWhile((id) => sse.has(id));
  const followers = ownership ? new Followers({ store: deps.store, bus: deps.bus, sse, now, log }) : null;
  rooms.onLoaded((room) => {
    relay.opened(room.draftId, room.committedVersion);
    // This node took the draft over: its room publishes to the viewers here from now on.
    followers?.drop(room.draftId);
    // A new draft has nothing to restore.
    if (room.committedVersion > 0) record(room.draftId, { kind: 'persistence', status: 'done', label: `Restored from the log at version ${room.committedVersion}` });
  });
  rooms.onClosed((id) => relay.closed(id));
  relay.start();
  if (ownership) {
    rooms.requireOwnership(async (id) => { const o = await ownership.resolve(id); return o === null ? null : o.self; });
    ownership.onLost((id) => {
      rooms.drop(id);
      // Viewers here resume (Last-Event-ID) on the follower path, from the log: no version skipped.
      sse.closeDraft(id);
      log.info('lease lost: the draft moved to another node', { draftId: id, node: ownership.node.id });
    });
    ownership.start();
  }
  const finishTurn = (draftId: string, turnId: string, final?: FinalEvent): Record<string, number> | null => {
    const room = rooms.peek(draftId);
    // Ops held for a section that never came in this turn are refused now, for their submitters.
    for (const x of room?.expireHeld(turnId) ?? []) {
      for (const r of x.refused) metrics.opsRefused.inc({ rule: r.rule });
      turns.refusedWithout(draftId, turnId, x.refused.length);
      notify(draftId, room!.committedVersion, [refusedEvent(x.refused, { version: room!.committedVersion, opId: x.opId, actor: x.actor, turnId }, now())]);
    }
    const done = turns.finish(draftId, turnId, now());
    if (!done) return null;
    room?.turnFinished(done.actor);
    // An agent run ends its turn with its own last event (RUN_FINISHED with its result, or RUN_ERROR).
    if (final) done.events = done.events.map((e) => (e.type === 'RUN_FINISHED' ? final(e, done.summary) : e));
    // Not a new version: SSE frames without an id (the hub would skip a repeated version).
    notify(draftId, room?.committedVersion ?? 0, done.events);
    deps.sessions.finishTurn(`${draftId}/${turnId}`, { opCount: done.summary['ops'] ?? 0, summary: done.summary })
      .catch((e: unknown) => log.warn('turn audit finish failed', { error: String(e) }));
    hooks.turnFinished({ draftId, turnId, actor: done.actor, actorKind: done.actorKind, version: room?.committedVersion ?? 0, summary: done.summary }, now());
    const n = (k: string): number => done.summary[k] ?? 0;
    record(draftId, { kind: 'request', status: 'done', label: `Turn ${turnId} by ${done.actor} finished`, detail: `${n('steps')} step(s), ${n('ops')} op(s), ${n('repairs')} repair(s), ${n('refused')} refused, up to version ${n('lastVersion')}` });
    return done.summary;
  };
  const sessions = new SessionManager(deps.sessions, now, config.sessionIdleMs, (draftId, turnIds) => {
    for (const t of turnIds) finishTurn(draftId, t);
  });
  const ctx: Ctx = {
    config, store: deps.store, tokens: deps.tokens, activity, sessions, bus: deps.bus, now, log,
    auth: new Auth(config.adminToken, deps.tokens, now), rooms, sse, turns, metrics, finishTurn, ownership, followers, notify, webhooks,
    runs: new Runs(),
  };
  system = (draftId, e) => recordActivity(ctx, draftId, e);
  // Runs left running by a process that ended (single node: nobody else can be running them).
  if (!ownership) void interruptRuns(ctx).catch((e: unknown) => log.warn('closing interrupted runs failed', { error: String(e) }));
  metrics.gauge('weft_rooms_open', 'Drafts loaded in memory', () => rooms.size);
  metrics.gauge('weft_sse_clients', 'Open SSE streams', () => sse.count);
  metrics.gauge('weft_sessions_open', 'Open build sessions', () => sessions.count);
  // Cross-draft group commit: statements issued and draft batches they carried, since start (their ratio is the grouping).
  metrics.counter('weft_group_commit_statements_total', 'Append statements issued by the cross-draft group commit', () => deps.store.commits.stats.statements);
  metrics.counter('weft_group_commit_batches_total', 'Draft batches carried by those statements', () => deps.store.commits.stats.batches);
  metrics.counter('weft_group_commit_seconds_total', 'Wall time of those statements, summed', () => deps.store.commits.stats.seconds);
  if (ownership) {
    metrics.info('weft_node_info', 'This session node of a cluster (WEFT_NODE_ID)', { node: ownership.node.id });
    metrics.gauge('weft_drafts_owned', 'Drafts whose lease this node holds (it sequences their steps)', () => ownership.ownedCount);
    metrics.gauge('weft_drafts_followed', 'Drafts this node serves reads and streams of from the bus, without owning them', () => followers?.size ?? 0);
  }
  // Readiness (GET /readyz) apart from liveness (GET /healthz): the log's database and the bus.
  const probe = probes('session', metrics.registry, { database: () => deps.store.ping().then(() => true), bus: () => deps.bus.connected });

  const router = new Router(config.maxBodyBytes);
  registerAdmin(router, ctx);
  registerProbes(router, probe);
  registerDrafts(router, ctx);
  registerOps(router, ctx);
  registerStream(router, ctx);
  registerExport(router, ctx);
  registerRuns(router, ctx);
  registerWebhooks(router, ctx);
  registerActivity(router, ctx);

  const upgraders: ((req: IncomingMessage, socket: Duplex, head: Buffer) => boolean)[] = [];
  for (const ext of extensions) {
    ext.register({ ctx, router, onUpgrade: (fn) => upgraders.push(fn), onCommitted: (fn) => listeners.push(fn) });
  }
  // Last: the document describes every route registered above, the extensions' too.
  registerOpenApi(router);
  const sweeper = setInterval(() => {
    void sessions.sweep().catch((e: unknown) => log.warn('session sweep failed', { error: String(e) }));
    rooms.evictIdle(10 * 60_000, now());
    followers?.evictIdle(10 * 60_000);
  }, 30_000);
  sweeper.unref();

  const route = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    const m = router.match(req.method ?? 'GET', url.pathname);
    if (m === null) return sendError(res, new WeftError('NOT_FOUND', `No route ${req.method} ${url.pathname}.`));
    if (m === 'method') return sendError(res, new WeftError('BAD_REQUEST', `Method ${req.method} is not allowed on ${url.pathname}.`));
    router.run(m, req, res, url).catch((e: unknown) => {
      if (e instanceof WeftError) {
        metrics.httpErrors.inc({ code: e.code });
        if (!res.headersSent) sendError(res, e);
        else res.end();
        return;
      }
      if (isDatabaseUnavailable(e)) {
        metrics.httpErrors.inc({ code: 'UNAVAILABLE' });
        if (!res.headersSent) sendError(res, new WeftError('UNAVAILABLE', 'The database is unreachable; retry shortly (writes: with the same opId).'));
        else res.end();
        return;
      }
      log.error('unhandled error', { path: url.pathname, reqId: req.id, err: e });
      metrics.httpErrors.inc({ code: 'INTERNAL' });
      if (!res.headersSent) sendError(res, new WeftError('INTERNAL'));
      else res.end();
    });
  };

  const cors = corsFor(config.corsOrigins);
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (ownership && !req.headers[FORWARDED_BY] && !(req.method === 'GET' && FOLLOWER_READS.test(url.pathname))) {
      const draftId = DRAFT_PATH.exec(url.pathname)?.[1];
      if (draftId !== undefined) {
        // Several nodes: a draft's writes go to its lease holder (which forwards nothing on);
        // reads and streams are served here, from the owner's room or this node's follower view.
        void ownership.resolve(draftId).then((owner) => {
          if (owner && !owner.self) forwardHttp(req, res, owner.url, null, ownership.node.id);
          else route(req, res, url);
        }, () => route(req, res, url)).catch((e: unknown) => {
          // Nothing here may take the process down: a request that cannot be sent on gets a 500.
          log.error('forwarding failed', { path: url.pathname, err: e });
          if (!res.headersSent) sendError(res, new WeftError('INTERNAL'));
          else res.destroy();
        });
        return;
      }
    }
    route(req, res, url);
  };

  return {
    ctx,
    router,
    handle(req, res) {
      // A preflight is answered here (204); a listed origin's other requests go on with its headers.
      if (cors) cors(req, res, () => serve(req, res));
      else serve(req, res);
    },
    upgrade(req, socket, head) {
      for (const u of upgraders) if (u(req, socket, head)) return;
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
    },
    onCommitted(listener) {
      listeners.push(listener);
    },
    async close() {
      clearInterval(sweeper);
      // Leases first: the other nodes take this node's drafts over while it drains.
      await ownership?.release();
      followers?.close();
      sse.closeAll();
      await rooms.drainAll();
      await relay.stop();
      for (const ext of extensions) await ext.close?.();
    },
  };
}


/** Reads every node serves itself (cluster/followers.ts); the rest of a draft's requests go to its owner. */
const FOLLOWER_READS = /^\/v1\/drafts\/[a-z][a-z0-9-]{0,40}(?:\/(?:stream|events|versions|diff))?$/;

/** `/v1/drafts/<id>` and everything under it: requests that belong to the draft's owner. */
const DRAFT_PATH = /^\/v1\/drafts\/([a-z][a-z0-9-]{0,40})(?:\/|$)/;
