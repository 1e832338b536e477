import type { Ctx } from '../context.ts';
import { deleteDraft, mustRoom } from '../commands/drafts.ts';
import { WeftError } from '../commands/errors.ts';
import { requireScope } from '../commands/principal.ts';
import { sendJson } from './respond.ts';
import type { Router } from './router.ts';
import { z } from 'zod';
import { checkWithin } from '@weft/ops';
import { DRAFT_PARAM } from './drafts.ts';
import { Health, MintedToken, MintTokenBody } from './schemas.ts';

export function registerAdmin(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/tokens', async ({ req, res, body }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    if (!p.admin) throw new WeftError('FORBIDDEN', 'Only the admin token mints tokens.');
    const b = await body();
    const minted = await ctx.tokens.mint({
      actorId: b.actor.id, actorKind: b.actor.kind, name: b.name?.slice(0, 200) ?? b.actor.id, scopes: b.scopes,
      expiresAt: b.ttlSeconds === undefined ? null : new Date(ctx.now() + b.ttlSeconds * 1000),
    });
    sendJson(res, 201, minted);
  }, {
    summary: 'Mint a token (admin)', tags: ['tokens'], access: 'admin', body: MintTokenBody, bodyLimit: 16 * 1024,
    errors: ['BAD_REQUEST', 'MALFORMED_JSON', 'FORBIDDEN', 'PAYLOAD_TOO_LARGE'], responses: { 201: { description: 'The token, shown once.', schema: MintedToken } },
  });

  router.on('DELETE', '/v1/tokens/:id', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    if (!p.admin) throw new WeftError('FORBIDDEN', 'Only the admin token revokes tokens.');
    await ctx.tokens.revoke(params['id']!);
    sendJson(res, 200, { revoked: params['id'] });
  }, {
    summary: 'Revoke a token (admin); effective within 2 s', tags: ['tokens'], access: 'admin', params: { id: { description: 'The token id `POST /v1/tokens` answered.' } },
    errors: ['FORBIDDEN'], responses: { 200: { description: 'Revoked (also when it was unknown).', schema: z.object({ revoked: z.string() }) } },
  });

  router.on('DELETE', '/v1/drafts/:id', async ({ req, res, params }) => {
    const id = params['id']!;
    await deleteDraft(ctx, await ctx.auth.fromHeader(req.headers.authorization), id);
    sendJson(res, 200, { deleted: id });
  }, {
    summary: 'Delete a draft with its log, snapshots, sessions and turns (admin)', tags: ['drafts'], access: 'admin', params: { id: DRAFT_PARAM },
    description: 'One transaction; the id can be created again, from empty.',
    errors: ['FORBIDDEN', 'NOT_FOUND'], responses: { 200: { description: 'Deleted.', schema: z.object({ deleted: z.string() }) } },
  });

  router.on('POST', '/v1/drafts/:id/sessions', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'write'); // a session is for building: it needs the write scope
    await mustRoom(ctx, id);
    const sessionId = await ctx.sessions.openSession(id, p);
    sendJson(res, 201, { sessionId, draftId: id, budgets: { opsPerTurn: ctx.config.opsPerTurn, opsPerSecond: ctx.config.opsPerSecond } });
  }, {
    summary: 'Open a build session (needs write)', tags: ['sessions'], access: 'bearer', params: { id: DRAFT_PARAM },
    description: 'Sessions close after 30 minutes idle, also across restarts.',
    errors: ['FORBIDDEN', 'NOT_FOUND'], responses: {
      201: { description: 'The session and its budgets.', schema: z.object({ sessionId: z.string(), draftId: z.string(), budgets: z.object({ opsPerTurn: z.int(), opsPerSecond: z.number() }) }) }
    },
  });

  router.on('DELETE', '/v1/sessions/:sid', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const closed = await ctx.sessions.close(params['sid']!, p);
    sendJson(res, 200, { closed });
  }, {
    summary: 'Close a build session and finish its turns (its actor or admin)', tags: ['sessions'], access: 'bearer',
    params: { sid: { description: 'The sessionId `POST /v1/drafts/:id/sessions` answered.' } },
    errors: ['FORBIDDEN'], responses: { 200: { description: 'true when it was open (false: unknown or closed already).', schema: z.object({ closed: z.boolean() }) } },
  });

  router.on('POST', '/v1/drafts/:id/turns/:turnId/finish', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'write');
    const summary = ctx.finishTurn(id, params['turnId']!);
    if (!summary) throw new WeftError('NOT_FOUND', `No open turn "${params['turnId']}" on draft "${id}".`);
    sendJson(res, 200, { turnId: params['turnId'], summary });
  }, {
    summary: 'Finish an agent turn: RUN_FINISHED on the stream', tags: ['sessions'], access: 'bearer',
    params: { id: DRAFT_PARAM, turnId: { description: 'The turnId the turn\'s steps carried.' } },
    errors: ['FORBIDDEN', 'NOT_FOUND'], responses: {
      200: { description: 'The turn\'s summary.', schema: z.object({ turnId: z.string(), summary: z.record(z.string(), z.number()).meta({ description: '`{ steps, ops, repairs, refused, durationMs }`' }) }) }
    },
  });

  router.on('GET', '/healthz', async ({ res }) => {
    // Bounded like /readyz's checks: with Postgres gone, a ping queued behind the pool's waiting
    // queries took 19 s to fail (two nodes under writers, postmaster SIGKILLed).
    const db = await checkWithin(() => ctx.store.ping().then(() => true));
    const node = ctx.ownership ? { node: ctx.ownership.node.id, ownedDrafts: ctx.ownership.ownedCount, followedDrafts: ctx.followers?.size ?? 0 } : {};
    sendJson(res, db ? 200 : 503, { ok: db, db, bus: ctx.bus.connected, rooms: ctx.rooms.size, ...node });
  }, {
    summary: 'Liveness', tags: ['operations'], access: 'public',
    responses: { 200: { description: 'Alive.', schema: Health }, 503: { description: 'The database is unreachable.', schema: Health } },
  });

  router.on('GET', '/metrics', async ({ res }) => {
    const text = await ctx.metrics.render();
    res.writeHead(200, { 'content-type': ctx.metrics.registry.contentType });
    res.end(text);
  }, {
    summary: 'Prometheus metrics', tags: ['operations'], access: 'public',
    responses: { 200: { description: 'The Prometheus text format (process, event loop and the service\'s own).', media: { 'text/plain': null } } },
  });
}
