import { randomUUID } from 'node:crypto';
import jsonpatch from 'fast-json-patch';
import type { VersionEntry } from '@weft/protocol';
import type { Ctx } from '../context.ts';
import { loadDraft } from '@weft/store';
import { mustRoom, mustView, readDraft, waitFor } from '../commands/drafts.ts';
import { WeftError } from '../commands/errors.ts';
import { can, requireScope } from '../commands/principal.ts';
import { isObject, readJson, sendJson, sendJsonText } from './respond.ts';
import type { Router } from './router.ts';

const ID = /^[a-z][a-z0-9-]{0,40}$/;

export function registerDrafts(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/drafts', async ({ req, res }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const body = await readJson(req, ctx.config.maxBodyBytes);
    if (!isObject(body)) throw new WeftError('BAD_REQUEST', 'Send { "id"?: string, "title"?: string }.');
    const id = body['id'] === undefined ? `d-${randomUUID().slice(0, 8)}` : body['id'];
    if (typeof id !== 'string' || !ID.test(id)) throw new WeftError('BAD_REQUEST', 'id must match [a-z][a-z0-9-]{0,40}.', { path: '/id' });
    const title = body['title'] ?? '';
    if (typeof title !== 'string' || title.length > 500) throw new WeftError('BAD_REQUEST', 'title must be a string of at most 500 characters.', { path: '/title' });
    if (!can(p, id, 'write')) throw new WeftError('FORBIDDEN', 'Creating a draft needs the "write" scope on it (or on "*").');
    const r = await ctx.store.createDraft({ id, title, createdBy: p.actor.id });
    if (!r.ok) throw new WeftError('VERSION_CONFLICT', `A draft "${id}" already exists.`, { currentVersion: (await ctx.store.getDraft(id))?.headVersion ?? 0 });
    let version = 0;
    if (title) {
      const room = await mustRoom(ctx, id);
      const out = await room.submit({ opId: `create-title-${id}`, bodyHash: 'create', ops: [{ op: 'replace', path: '/title', value: title }], actor: p.actor });
      if (out.ok) version = out.value.version;
    }
    sendJson(res, 201, { id, version });
  });

  router.on('GET', '/v1/drafts', async ({ req, res }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const all = await ctx.store.listDrafts();
    sendJson(res, 200, { drafts: all.filter((d) => can(p, d.id, 'read')) });
  });

  router.on('GET', '/v1/drafts/:id', async ({ req, res, params, url }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    const v = url.searchParams.get('version');
    if (v === null) {
      // The head: the room's committed JSON, serialized straight from the mirror (no clone per request).
      requireScope(p, id, 'read');
      const room = await mustView(ctx, id);
      // Read-your-writes: a client passes the version it last saw; the read waits briefly for it.
      const seen = url.searchParams.get('minVersion') ?? req.headers['x-weft-min-version'];
      if (typeof seen === 'string' && seen !== '') await waitFor(room, parseVersion(seen, '/minVersion'));
      const version = room.committedVersion;
      sendJsonText(res, 200, `{"id":${JSON.stringify(id)},"version":${version},"epoch":${room.epoch},"draft":${room.committedJson()}}`);
      return;
    }
    const at = await readDraft(ctx, p, id, parseVersion(v, '/version'));
    sendJson(res, 200, { id, version: at.version, epoch: at.epoch, draft: at.draft });
  });

  router.on('GET', '/v1/drafts/:id/diff', async ({ req, res, params, url }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'read');
    const room = await mustView(ctx, id);
    const from = parseVersion(url.searchParams.get('from') ?? '0', '/from');
    const to = parseVersion(url.searchParams.get('to') ?? String(room.committedVersion), '/to');
    if (!(await waitFor(room, Math.max(from, to)))) throw new WeftError('NOT_FOUND', `The head is version ${room.committedVersion}.`);
    const [a, b] = await Promise.all([loadDraft(ctx.store, id, from), loadDraft(ctx.store, id, to)]);
    sendJson(res, 200, { from, to, patch: jsonpatch.compare(a.draft, b.draft) });
  });

  router.on('GET', '/v1/drafts/:id/versions', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'read');
    await mustView(ctx, id);
    sendJson(res, 200, { versions: await listVersions(ctx, id) });
  });
}

export function parseVersion(v: string, path: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new WeftError('BAD_REQUEST', `${path.slice(1)} must be a non-negative integer.`, { path });
  return n;
}

/** Snapshots (the checkpoints) and, until there are any, the log's turn boundaries. */
async function listVersions(ctx: Ctx, id: string): Promise<VersionEntry[]> {
  const snaps = await ctx.store.listSnapshots(id);
  const out: VersionEntry[] = snaps.map((s) => ({ version: s.version, kind: 'snapshot', at: s.createdAt.toISOString(), reason: s.reason }));
  const after = snaps.length > 0 ? Math.max(...snaps.map((s) => s.version)) : 0;
  const steps = await ctx.store.readSteps(id, { after, limit: 10_000 });
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    const next = steps[i + 1];
    const boundary = !next || next.turnId !== s.turnId || s.turnId === null;
    if (boundary) out.push({ version: s.version, kind: 'turn', at: s.createdAt.toISOString(), turnId: s.turnId, actor: s.actor });
  }
  return out.sort((a, b) => a.version - b.version);
}


