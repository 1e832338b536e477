// POST /v1/drafts/:id/actions — reader actions reach agents (issue 16). A reader (a token with
// read scope, or a preview ticket the launcher lets us verify) sends an A2UI v0.9 `action`. The
// server writes the bound value first (bound-write.ts; an ordinary step through the pipeline,
// so it is in the log and on every peer), then puts the action on the draft's stream and bus as
// a CUSTOM `weft.action` AG-UI event; an agent following the draft answers with ops through the
// normal doors. Bounded: 16 KB bodies, 30 actions a second per draft.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { readerActionEvent } from '@weft/protocol';
import type { Extension } from '../app.ts';
import type { Ctx } from '../context.ts';
import { mustRoom } from '../commands/drafts.ts';
import { WeftError } from '../commands/errors.ts';
import { requireScope } from '../commands/principal.ts';
import { outcomeOrThrow } from '../commands/submit.ts';
import { sendJson } from '../http/respond.ts';
import { DRAFT_PARAM } from '../http/drafts.ts';
import { z } from 'zod';
import { boundWrite } from './bound-write.ts';
import { ReaderActionBody, toReaderAction } from './reader-action.ts';

export interface ActionsOptions {
  /** A preview page cannot send a bearer token; the launcher passes the preview's ticket check. */
  verifyTicket?: (ticket: string, draftId: string) => boolean;
  /** Actions a second per draft (default 30). */
  perSecond?: number;
}

export const ACTIONS_PATH = '/v1/drafts/:id/actions';
const MAX_BODY = 16 * 1024;

export function actionsExtension(o: ActionsOptions = {}): Extension {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    name: 'actions',
    register({ ctx, router }) {
      router.on('POST', ACTIONS_PATH, async ({ req, res, params, url, body }) => {
        const draftId = params['id']!;
        const actor = await reader(ctx, req, url, draftId, o);
        limit(windows, draftId, ctx.now(), o.perSecond ?? 30);
        const action = toReaderAction(await body());
        const room = await mustRoom(ctx, draftId);
        const w = boundWrite(room.committedView().draft, action);
        if (!w.ok) throw new WeftError('VALIDATION_FAILED', w.message, { path: w.path, rule: 'invalid_props' });
        let version = room.committedView().version;
        if (w.ops.length > 0) {
          const body = JSON.stringify(w.ops);
          const out = outcomeOrThrow(await room.submit({ opId: `action-${randomUUID()}`, bodyHash: createHash('sha256').update(body).digest('base64url'), ops: w.ops, actor }));
          if (out.refused.length > 0) throw new WeftError('VALIDATION_FAILED', out.refused[0]!.message, { path: out.refused[0]!.path, rule: out.refused[0]!.rule });
          version = out.version;
        }
        const event = readerActionEvent(action, w.written, { version, actor: actor.id }, ctx.now());
        // Not a new version: an SSE frame without an id, like RUN_FINISHED.
        ctx.notify(draftId, version, [event]);
        ctx.metrics.readerActions.inc();
        sendJson(res, 202, { version, written: w.written });
      }, {
        summary: 'A reader action from a live page (A2UI v0.9)', tags: ['actions'], access: 'bearer-or-ticket',
        params: { id: DRAFT_PARAM }, body: ReaderActionBody, bodyLimit: MAX_BODY,
        description: 'With a read token, or `?ticket=` (a preview ticket). When the source control binds a `{path}` that `context` holds, the value is written first (if the control could have produced it), then the action is published on the stream and the bus as CUSTOM `weft.action`.',
        errors: ['BAD_REQUEST', 'MALFORMED_JSON', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'VALIDATION_FAILED', 'RATE_LIMITED'], responses: {
          202: { description: 'Published; `written` lists the data paths the server set.', schema: z.object({ version: z.int().min(0), written: z.array(z.string()) }) }
        },
      });
    },
  };
}

/** Who sends the action: a token that may read the draft, or a valid preview ticket. */
async function reader(ctx: Ctx, req: IncomingMessage, url: URL, draftId: string, o: ActionsOptions): Promise<{ id: string; kind: 'human' | 'agent' | 'admin' }> {
  const ticket = url.searchParams.get('ticket');
  if (req.headers.authorization === undefined && ticket !== null && o.verifyTicket !== undefined) {
    if (!o.verifyTicket(ticket, draftId)) throw new WeftError('NOT_FOUND', `No draft "${draftId}" (or the preview ticket is missing, expired or for another draft).`);
    return { id: 'reader', kind: 'human' };
  }
  const p = await ctx.auth.fromHeader(req.headers.authorization);
  requireScope(p, draftId, 'read');
  return p.actor;
}

function limit(windows: Map<string, { start: number; count: number }>, draftId: string, now: number, perSecond: number): void {
  const w = windows.get(draftId);
  if (w === undefined || now - w.start >= 1000) {
    if (windows.size > 10_000) windows.clear();
    windows.set(draftId, { start: now, count: 1 });
    return;
  }
  if (++w.count > perSecond) throw new WeftError('RATE_LIMITED', `More than ${perSecond} reader actions a second on this draft; send one per change.`);
}
