import type { Scope } from '@weft/protocol';
import type { Ctx } from '../context.ts';
import { mustRoom } from '../commands/drafts.ts';
import { WeftError } from '../commands/errors.ts';
import { requireScope } from '../commands/principal.ts';
import { isObject, readJson, sendJson } from './respond.ts';
import type { Router } from './router.ts';

const ACTOR_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
const SCOPE_KEY = /^(\*|[a-z][a-z0-9-]{0,40})$/;

export function registerAdmin(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/tokens', async ({ req, res }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    if (!p.admin) throw new WeftError('FORBIDDEN', 'Only the admin token mints tokens.');
    const body = await readJson(req, 16 * 1024);
    if (!isObject(body) || !isObject(body['actor']) || !isObject(body['scopes'])) {
      throw new WeftError('BAD_REQUEST', 'Send { "actor": { "id", "kind": "human"|"agent" }, "scopes": { "<draftId>"|"*": ["read","write"] }, "ttlSeconds"? }.');
    }
    const actor = body['actor'];
    if (typeof actor['id'] !== 'string' || !ACTOR_ID.test(actor['id'])) throw new WeftError('BAD_REQUEST', 'actor.id must be 1–128 characters of [A-Za-z0-9._:@-].', { path: '/actor/id' });
    if (actor['kind'] !== 'human' && actor['kind'] !== 'agent') throw new WeftError('BAD_REQUEST', 'actor.kind must be "human" or "agent".', { path: '/actor/kind' });
    const scopes: Record<string, Scope[]> = {};
    for (const [k, v] of Object.entries(body['scopes'])) {
      if (!SCOPE_KEY.test(k)) throw new WeftError('BAD_REQUEST', `Scope key "${k}" must be a draft id or "*".`, { path: `/scopes/${k}` });
      if (!Array.isArray(v) || v.some((s) => s !== 'read' && s !== 'write')) throw new WeftError('BAD_REQUEST', 'Scopes are a list of "read" and "write".', { path: `/scopes/${k}` });
      // write implies read: a writer always sees what it writes.
      scopes[k] = v.includes('write') ? ['read', 'write'] : ['read'];
    }
    const ttl = body['ttlSeconds'];
    if (ttl !== undefined && (!Number.isInteger(ttl) || (ttl as number) <= 0)) throw new WeftError('BAD_REQUEST', 'ttlSeconds must be a positive integer.', { path: '/ttlSeconds' });
    const minted = await ctx.tokens.mint({
      actorId: actor['id'], actorKind: actor['kind'], name: typeof body['name'] === 'string' ? body['name'].slice(0, 200) : actor['id'], scopes,
      expiresAt: ttl === undefined ? null : new Date(ctx.now() + (ttl as number) * 1000),
    });
    sendJson(res, 201, minted);
  });

  router.on('DELETE', '/v1/tokens/:id', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    if (!p.admin) throw new WeftError('FORBIDDEN', 'Only the admin token revokes tokens.');
    await ctx.tokens.revoke(params['id']!);
    sendJson(res, 200, { revoked: params['id'] });
  });

  router.on('DELETE', '/v1/drafts/:id', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    if (!p.admin) throw new WeftError('FORBIDDEN', 'Only the admin token deletes drafts.');
    const id = params['id']!;
    // The room first: nothing more is appended from this node's mirror while the rows go.
    ctx.rooms.forget(id);
    if (!(await ctx.store.deleteDraft(id))) throw new WeftError('NOT_FOUND', `No draft "${id}".`);
    sendJson(res, 200, { deleted: id });
  });

  router.on('POST', '/v1/drafts/:id/sessions', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'write'); // a session is for building: it needs the write scope
    await mustRoom(ctx, id);
    const sessionId = await ctx.sessions.openSession(id, p);
    sendJson(res, 201, { sessionId, draftId: id, budgets: { opsPerTurn: ctx.config.opsPerTurn, opsPerSecond: ctx.config.opsPerSecond } });
  });

  router.on('DELETE', '/v1/sessions/:sid', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const closed = await ctx.sessions.close(params['sid']!, p);
    sendJson(res, 200, { closed });
  });

  router.on('POST', '/v1/drafts/:id/turns/:turnId/finish', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'write');
    const summary = ctx.finishTurn(id, params['turnId']!);
    if (!summary) throw new WeftError('NOT_FOUND', `No open turn "${params['turnId']}" on draft "${id}".`);
    sendJson(res, 200, { turnId: params['turnId'], summary });
  });

  router.on('GET', '/healthz', async ({ res }) => {
    let db = true;
    try {
      await ctx.store.ping();
    } catch {
      db = false;
    }
    const node = ctx.ownership ? { node: ctx.ownership.node.id, ownedDrafts: ctx.ownership.ownedCount, followedDrafts: ctx.followers?.size ?? 0 } : {};
    sendJson(res, db ? 200 : 503, { ok: db, db, bus: ctx.bus.connected, rooms: ctx.rooms.size, ...node });
  });

  router.on('GET', '/metrics', async ({ res }) => {
    const text = await ctx.metrics.render();
    res.writeHead(200, { 'content-type': ctx.metrics.registry.contentType });
    res.end(text);
  });
}
