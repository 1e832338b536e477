import { randomUUID } from 'node:crypto';
import type { StepView } from '@weft/protocol';
import type { StoredStep } from '@weft/store';
import type { Ctx } from '../context.ts';
import { mustRoom } from '../commands/drafts.ts';
import { requireScope } from '../commands/principal.ts';
import { OP_ID, outcomeOrThrow, parseSubmit, submit } from '../commands/submit.ts';
import { undoRedo } from '../commands/undo.ts';
import { parseVersion } from './drafts.ts';
import { isObject, readJson, sendJson } from './respond.ts';
import type { Router } from './router.ts';

export function registerOps(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/drafts/:id/ops', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const body = parseSubmit(await readJson(req, ctx.config.maxBodyBytes));
    const value = outcomeOrThrow(await submit(ctx, p, params['id']!, body));
    sendJson(res, 200, value);
  });

  router.on('GET', '/v1/drafts/:id/events', async ({ req, res, params, url }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'read');
    const room = await mustRoom(ctx, id);
    const after = parseVersion(url.searchParams.get('after') ?? '0', '/after');
    const limit = Math.min(1000, Math.max(1, parseVersion(url.searchParams.get('limit') ?? '100', '/limit')));
    const steps = await ctx.store.readSteps(id, { after, limit, upTo: room.committedVersion });
    const last = steps[steps.length - 1];
    sendJson(res, 200, { steps: steps.map(stepView), next: last && last.version < room.committedVersion ? last.version : null, head: room.committedVersion });
  });

  for (const mode of ['undo', 'redo'] as const) {
    router.on('POST', `/v1/drafts/:id/${mode}`, async ({ req, res, params }) => {
      const p = await ctx.auth.fromHeader(req.headers.authorization);
      const id = params['id']!;
      requireScope(p, id, 'write');
      const body = await readJson(req, 4096);
      const scope = isObject(body) && body['scope'] === 'turn' ? 'turn' : 'step';
      const opId = isObject(body) && typeof body['opId'] === 'string' && OP_ID.test(body['opId']) ? body['opId'] : `${mode}-${randomUUID()}`;
      sendJson(res, 200, await undoRedo(ctx, p, id, mode, scope, opId));
    });
  }
}

export function stepView(s: StoredStep): StepView {
  return {
    version: s.version, opId: s.opId, actor: s.actor, actorKind: s.actorKind as StepView['actorKind'], sessionId: s.sessionId, turnId: s.turnId,
    ops: s.ops, notes: s.notes, refused: s.refused, createdAt: s.createdAt.toISOString(),
  };
}
