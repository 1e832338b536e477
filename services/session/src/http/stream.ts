import { randomUUID } from 'node:crypto';
import { asOneRun, followRunStarted, stateSnapshot, stepEvents } from '@weft/protocol';
import type { Json } from '@weft/core';
import type { Ctx } from '../context.ts';
import type { ServerResponse } from 'node:http';
import { formatEvents, SseHub } from '../live/sse.ts';
import { WeftError } from '../commands/errors.ts';
import { mustView } from '../commands/drafts.ts';
import { can, requireScope } from '../commands/principal.ts';
import { z } from 'zod';
import { DRAFT_PARAM, parseVersion } from './drafts.ts';
import type { Router } from './router.ts';

/**
 * `GET /v1/drafts/:id/stream`: STATE_SNAPSHOT, then a STATE_DELTA per committed version (with
 * `?as=run`, inside one open-ended AG-UI run: asOneRun in @weft/protocol). With
 * Last-Event-ID (or ?after=N) the missed versions are replayed from the log first: the client is
 * registered in buffering mode before the backlog is read, so nothing committed meanwhile is
 * lost, and the hub skips versions the backlog already sent.
 */
export function registerStream(router: Router, ctx: Ctx): void {
  router.on('GET', '/v1/drafts/:id/stream', async ({ req, res, params, query }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'read');
    const room = await mustView(ctx, id);
    const q = query();
    const asRun = q.as === 'run';
    const resumeRaw = req.headers['last-event-id'] ?? q.after;
    let resume = typeof resumeRaw === 'string' && resumeRaw !== '' ? parseVersion(resumeRaw, '/Last-Event-ID') : null;
    // A resume point past the head (a stale client, a draft recreated since): a fresh snapshot.
    if (resume !== null && resume > room.committedVersion) resume = null;
    ctx.sse.open(res);
    if (asRun) res.write(formatEvents(null, [followRunStarted(id, `follow-${randomUUID()}`, ctx.now())]));
    const token = (req.headers.authorization ?? '').slice(7).trim();
    // Live doors re-check who they serve: a revoked or expired token ends the stream with an error event.
    const stillValid = (): Promise<boolean> => ctx.auth.fromToken(token).then((q) => can(q, id, 'read'), (e: unknown) => !(e instanceof WeftError));
    if (resume === null) {
      const snap = room.committedView();
      const ev = stateSnapshot(snap.draft as unknown as Json, { version: snap.version }, ctx.now());
      res.write(formatEvents(snap.version, [ev]));
      ctx.sse.add(id, res, { lastVersion: snap.version, stillValid, asRun });
      return;
    }
    const handle = ctx.sse.add(id, res, { lastVersion: resume, buffering: true, stillValid, asRun });
    let sent = resume;
    const head = room.committedVersion;
    while (sent < head && !res.destroyed) {
      const steps = await ctx.store.readSteps(id, { after: sent, limit: BACKLOG_PAGE, upTo: head });
      if (steps.length === 0) break;
      for (const s of steps) {
        const events = stepEvents({ ...s, createdAt: s.createdAt.getTime() });
        res.write(formatEvents(s.version, asRun ? asOneRun(events) : events));
      }
      sent = steps[steps.length - 1]!.version;
      // The backlog honours the slow-client bound like live frames: wait for the client to read,
      // and drop it (it resumes with Last-Event-ID) if it does not.
      if (!(await drained(res, SseHub.MAX_BUFFER, BACKLOG_STALL_MS))) {
        res.destroy();
        return;
      }
    }
    handle.release(sent);
  }, {
    summary: 'The live AG-UI stream (SSE)', tags: ['stream'], access: 'bearer', params: { id: DRAFT_PARAM },
    description: 'STATE_SNAPSHOT first, then per committed version STATE_DELTA and CUSTOM weft.repairs / weft.refused; RUN_STARTED / RUN_FINISHED around agent turns (`?as=run`: the whole stream as one AG-UI run, those inside CUSTOM weft.run.event). The SSE `id:` is the version (from its STATE_DELTA on): reconnect with `Last-Event-ID: N` (or `?after=N`) to get the versions after N from the log, then live.',
    query: z.object({
      after: z.string().optional().meta({ description: 'Resume after this version (as Last-Event-ID); a non-negative integer.', pattern: '^[0-9]+$' }),
      as: z.enum(['run'], { error: 'as must be "run" (the stream as one AG-UI run), or left out.' }).optional().meta({ description: '`run`: the stream as ONE open-ended AG-UI run (RUN_STARTED first, thread = the draft), for clients that check the run lifecycle (@ag-ui/client); the events of the runs on the draft ride in CUSTOM `weft.run.event`.' }),
    }),
    errors: ['BAD_REQUEST', 'NOT_FOUND'], responses: { 200: { description: 'text/event-stream of AG-UI 1.0 events (docs/api.md, "Live stream").', media: { 'text/event-stream': null } } },
  });
}

/** Pages of the backlog read from the log at a time. */
const BACKLOG_PAGE = 200;
/** How long a resuming client may leave a full buffer unread before it is dropped. */
const BACKLOG_STALL_MS = 30_000;

/** Resolves true once the response's buffer is under `max` (false after `ms`, or if it closed). */
function drained(res: ServerResponse, max: number, ms: number): Promise<boolean> {
  if (res.writableLength <= max) return Promise.resolve(!res.destroyed);
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = (): void => { if (res.writableLength <= max) done(true); };
    const onClose = (): void => done(false);
    const timer = setTimeout(() => done(false), ms);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}
