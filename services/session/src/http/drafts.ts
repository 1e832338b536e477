import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.ts';
import { createDraft, diffDraft, listDrafts, listVersions, mustView, readDraft, waitFor } from '../commands/drafts.ts';
import { WeftError } from '../commands/errors.ts';
import { requireScope } from '../commands/principal.ts';
import { sendJson, sendJsonText } from './respond.ts';
import type { Router } from './router.ts';
import { z } from 'zod';
import { Created, CreateDraftBody, DraftMeta, DraftResponse, Op, VersionEntry as VersionEntrySchema, asVersion, versionParam } from './schemas.ts';

/** The `:id` of the draft routes. */
export const DRAFT_PARAM = { description: 'The draft id (`[a-z][a-z0-9-]{0,40}`); any other answers 404.', pattern: '^[a-z][a-z0-9-]{0,40}$' };

export function registerDrafts(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/drafts', async ({ req, res, body }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const b = await body();
    sendJson(res, 201, await createDraft(ctx, p, b.id ?? `d-${randomUUID().slice(0, 8)}`, b.title ?? ''));
  }, {
    summary: 'Create a draft (empty, or with a title)', tags: ['drafts'], access: 'bearer', body: CreateDraftBody,
    errors: ['BAD_REQUEST', 'MALFORMED_JSON', 'FORBIDDEN', 'VERSION_CONFLICT', 'PAYLOAD_TOO_LARGE'], responses: {
      201: { description: 'Created at version 0 (1 with a title).', schema: Created }
    },
  });

  router.on('GET', '/v1/drafts', async ({ req, res }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    sendJson(res, 200, { drafts: await listDrafts(ctx, p) });
  }, {
    summary: 'The drafts the token may read', tags: ['drafts'], access: 'bearer',
    responses: { 200: { description: 'Newest first.', schema: z.object({ drafts: z.array(DraftMeta) }) } },
  });

  router.on('GET', '/v1/drafts/:id', async ({ req, res, params, url, query }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    if (!url.searchParams.has('version')) {
      // The head: the room's committed JSON, serialized straight from the mirror (no clone per request).
      requireScope(p, id, 'read');
      const room = await mustView(ctx, id);
      // Read-your-writes: a client passes the version it last saw; the read waits briefly for it.
      const header = req.headers['x-weft-min-version'];
      const seen = query().minVersion ?? (typeof header === 'string' && header !== '' ? parseVersion(header, '/minVersion') : undefined);
      if (seen !== undefined) await waitFor(room, seen);
      const version = room.committedVersion;
      sendJsonText(res, 200, `{"id":${JSON.stringify(id)},"version":${version},"epoch":${room.epoch},"draft":${room.committedJson()}}`);
      return;
    }
    const at = await readDraft(ctx, p, id, query().version!);
    sendJson(res, 200, { id, version: at.version, epoch: at.epoch, draft: at.draft });
  }, {
    summary: 'The committed draft, or a past version', tags: ['drafts'], access: 'bearer', params: { id: DRAFT_PARAM },
    description: 'Read-your-writes: `minVersion` (or the `x-weft-min-version` header) waits up to 2 s until that version is committed.',
    query: z.object({
      version: versionParam('version', 'A past version (snapshot + log); default the head.').optional(),
      minVersion: versionParam('minVersion', 'Wait up to 2 s for this version to be committed first.').optional(),
    }),
    errors: ['BAD_REQUEST', 'NOT_FOUND'], responses: { 200: { description: 'The draft at that version.', schema: DraftResponse } },
  });

  router.on('GET', '/v1/drafts/:id/diff', async ({ req, res, params, query }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const q = query();
    sendJson(res, 200, await diffDraft(ctx, p, params['id']!, q.from, q.to));
  }, {
    summary: 'The RFC 6902 patch from one version to another', tags: ['drafts'], access: 'bearer', params: { id: DRAFT_PARAM },
    query: z.object({
      from: versionParam('from', 'Default 0 (the empty draft).').optional(),
      to: versionParam('to', 'Default the head.').optional(),
    }),
    errors: ['BAD_REQUEST', 'NOT_FOUND'], responses: {
      200: { description: 'The patch.', schema: z.object({ from: z.int().min(0), to: z.int().min(0), patch: z.array(Op) }) }
    },
  });

  router.on('GET', '/v1/drafts/:id/versions', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    sendJson(res, 200, { versions: await listVersions(ctx, p, params['id']!) });
  }, {
    summary: 'Snapshots and turn boundaries, oldest first', tags: ['drafts'], access: 'bearer', params: { id: DRAFT_PARAM },
    errors: ['NOT_FOUND'], responses: { 200: { description: 'The versions worth going back to.', schema: z.object({ versions: z.array(VersionEntrySchema) }) } },
  });
}

export function parseVersion(v: string, path: string): number {
  const n = asVersion(v);
  if (n === null) throw new WeftError('BAD_REQUEST', `${path.slice(1)} must be a non-negative integer (digits only, at most ${Number.MAX_SAFE_INTEGER}).`, { path });
  return n;
}
