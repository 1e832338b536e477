import { createHash, randomUUID } from 'node:crypto';
import type { StepView } from '@weft/protocol';
import type { StoredStep } from '@weft/store';
import type { Ctx } from '../context.ts';
import { planUndo } from '../rooms/undo.ts';
import type { RoomError, SubmitOutcome } from '../rooms/types.ts';
import { requireScope } from './auth.ts';
import type { Principal } from './auth.ts';
import { mustRoom, parseVersion } from './drafts.ts';
import { HttpError, isObject, readJson, sendJson } from './respond.ts';
import type { Router } from './router.ts';

const OP_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MAX_OPS = 1000;

/** Validates the envelope of `POST /ops`; the ops themselves are the pipeline's to judge. */
export function parseSubmit(body: unknown): { opId: string; baseVersion?: number; turnId?: string; sessionId?: string; ops: unknown[] } {
  if (!isObject(body)) throw new HttpError('BAD_REQUEST', 'Send { "opId": string, "baseVersion"?: number, "turnId"?: string, "ops": [ …JSON Patch ops ] }.');
  const { opId, baseVersion, turnId, sessionId, ops } = body;
  if (typeof opId !== 'string' || !OP_ID.test(opId)) throw new HttpError('BAD_REQUEST', 'opId must be 1–128 characters of [A-Za-z0-9._:-]; reuse it only to retry the same change.', { path: '/opId' });
  if (baseVersion !== undefined && (!Number.isInteger(baseVersion) || (baseVersion as number) < 0)) throw new HttpError('BAD_REQUEST', 'baseVersion must be a non-negative integer.', { path: '/baseVersion' });
  if (turnId !== undefined && (typeof turnId !== 'string' || !OP_ID.test(turnId))) throw new HttpError('BAD_REQUEST', 'turnId must be 1–128 characters of [A-Za-z0-9._:-].', { path: '/turnId' });
  if (sessionId !== undefined && typeof sessionId !== 'string') throw new HttpError('BAD_REQUEST', 'sessionId must be a string.', { path: '/sessionId' });
  if (!Array.isArray(ops) || ops.length === 0) throw new HttpError('BAD_REQUEST', 'ops must be a non-empty array of JSON Patch operations.', { path: '/ops' });
  if (ops.length > MAX_OPS) throw new HttpError('PAYLOAD_TOO_LARGE', `At most ${MAX_OPS} ops per request.`, { path: '/ops' });
  const out: { opId: string; baseVersion?: number; turnId?: string; sessionId?: string; ops: unknown[] } = { opId, ops };
  if (baseVersion !== undefined) out.baseVersion = baseVersion as number;
  if (turnId !== undefined) out.turnId = turnId as string;
  if (sessionId !== undefined) out.sessionId = sessionId as string;
  return out;
}

export function bodyHash(ops: unknown[], turnId: string | undefined): string {
  return createHash('sha256').update(JSON.stringify({ ops, turnId: turnId ?? null })).digest('base64url');
}

export function outcomeOrThrow(o: SubmitOutcome): NonNullable<Extract<SubmitOutcome, { ok: true }>['value']> {
  if (o.ok) return o.value;
  throw roomError(o.error);
}

export function roomError(e: RoomError): HttpError {
  const { code, message, ...extra } = e;
  return new HttpError(code, message, extra);
}

export async function submitAs(ctx: Ctx, p: Principal, draftId: string, body: ReturnType<typeof parseSubmit>): Promise<SubmitOutcome> {
  requireScope(p, draftId, 'write');
  if (body.sessionId) await ctx.sessions.guard(body.sessionId, draftId, p, body.turnId ?? null);
  const room = await mustRoom(ctx, draftId);
  const t0 = performance.now();
  const out = await room.submit({
    opId: body.opId,
    bodyHash: bodyHash(body.ops, body.turnId),
    baseVersion: body.baseVersion,
    turnId: body.turnId ?? null,
    sessionId: body.sessionId ?? null,
    ops: body.ops,
    actor: p.actor,
  });
  ctx.metrics.ackSeconds.observe({ outcome: out.ok ? 'ok' : out.error.code }, (performance.now() - t0) / 1000);
  return out;
}

export function registerOps(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/drafts/:id/ops', async ({ req, res, params }) => {
    const p = await ctx.auth.fromRequest(req);
    const body = parseSubmit(await readJson(req, ctx.config.maxBodyBytes));
    const value = outcomeOrThrow(await submitAs(ctx, p, params['id']!, body));
    sendJson(res, 200, value);
  });

  router.on('GET', '/v1/drafts/:id/events', async ({ req, res, params, url }) => {
    const p = await ctx.auth.fromRequest(req);
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
      const p = await ctx.auth.fromRequest(req);
      const id = params['id']!;
      requireScope(p, id, 'write');
      const body = await readJson(req, 4096);
      const scope = isObject(body) && body['scope'] === 'turn' ? 'turn' : 'step';
      const opId = isObject(body) && typeof body['opId'] === 'string' && OP_ID.test(body['opId']) ? body['opId'] : `${mode}-${randomUUID()}`;
      sendJson(res, 200, await undoRedo(ctx, p, id, mode, scope, opId));
    });
  }
}

/** Plans from the log and submits atomically at the version it planned against (retried on a race). */
export async function undoRedo(ctx: Ctx, p: Principal, draftId: string, mode: 'undo' | 'redo', scope: 'step' | 'turn', opId: string): Promise<unknown> {
  const room = await mustRoom(ctx, draftId);
  for (let attempt = 0; attempt < 5; attempt++) {
    const base = room.version;
    await room.drain();
    if (room.version !== base) continue;
    const history = await ctx.store.readSteps(draftId, { after: 0, upTo: base });
    const plan = planUndo(history, p.actor.id, scope, mode);
    if (!plan.ok) {
      const { ok: _ok, code, message, ...extra } = plan;
      throw new HttpError(code, message, extra);
    }
    const out = await room.submit({
      opId, bodyHash: `${mode}:${plan.undoOf.join(',')}`, baseVersion: base, ops: plan.ops, actor: p.actor,
      kind: plan.kind, undoOf: plan.undoOf, atomic: true,
    });
    if (!out.ok && out.error.code === 'VERSION_CONFLICT') continue;
    if (!out.ok && out.error.code === 'VALIDATION_FAILED') {
      throw new HttpError('UNDO_CONFLICT', `The ${mode} no longer applies to the current draft: ${out.error.message}`, { path: out.error.path });
    }
    return { ...outcomeOrThrow(out), undid: plan.undoOf };
  }
  throw new HttpError('UNDO_CONFLICT', 'The draft kept changing; try the undo again.');
}

export function stepView(s: StoredStep): StepView {
  return {
    version: s.version, opId: s.opId, actor: s.actor, actorKind: s.actorKind as StepView['actorKind'], sessionId: s.sessionId, turnId: s.turnId,
    ops: s.ops, notes: s.notes, refused: s.refused, createdAt: s.createdAt.toISOString(),
  };
}
