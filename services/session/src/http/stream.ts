import { stateSnapshot, stepEvents } from '@weft/protocol';
import type { Json } from '@weft/core';
import type { Ctx } from '../context.ts';
import { formatEvents } from '../live/sse.ts';
import { mustRoom } from '../commands/drafts.ts';
import { requireScope } from '../commands/principal.ts';
import { parseVersion } from './drafts.ts';
import type { Router } from './router.ts';

/**
 * `GET /v1/drafts/:id/stream`: STATE_SNAPSHOT, then a STATE_DELTA per committed version. With
 * Last-Event-ID (or ?after=N) the missed versions are replayed from the log first: the client is
 * registered in buffering mode before the backlog is read, so nothing committed meanwhile is
 * lost, and the hub skips versions the backlog already sent.
 */
export function registerStream(router: Router, ctx: Ctx): void {
  router.on('GET', '/v1/drafts/:id/stream', async ({ req, res, params, url }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'read');
    const room = await mustRoom(ctx, id);
    const resumeRaw = req.headers['last-event-id'] ?? url.searchParams.get('after');
    const resume = typeof resumeRaw === 'string' && resumeRaw !== '' ? parseVersion(resumeRaw, '/Last-Event-ID') : null;
    ctx.sse.open(res);
    if (resume === null) {
      const snap = room.committedView();
      const ev = stateSnapshot(snap.draft as unknown as Json, { version: snap.version }, ctx.now());
      res.write(formatEvents(snap.version, [ev]));
      ctx.sse.add(id, res, snap.version);
      return;
    }
    const handle = ctx.sse.add(id, res, resume, true);
    let sent = resume;
    const head = room.committedVersion;
    while (sent < head && !res.destroyed) {
      const steps = await ctx.store.readSteps(id, { after: sent, limit: 1000, upTo: head });
      if (steps.length === 0) break;
      for (const s of steps) res.write(formatEvents(s.version, stepEvents({ ...s, createdAt: s.createdAt.getTime() })));
      sent = steps[steps.length - 1]!.version;
    }
    handle.release(sent);
  });
}
