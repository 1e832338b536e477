import { createHash } from 'node:crypto';
import { readOpsField } from '@weft/protocol';
import type { Ctx } from '../context.ts';
import type { StepResult, SubmitOutcome } from '../rooms/types.ts';
import { WeftError } from './errors.ts';
import { requireScope } from './principal.ts';
import type { Principal } from './principal.ts';
import { mustRoom } from './drafts.ts';

export const OP_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MAX_OPS = 1000;

/** A submission as every door hands it over: the envelope checked, the ops still the pipeline's to judge. */
export interface SubmitBody { opId: string; baseVersion?: number; turnId?: string; sessionId?: string; ops: unknown[] }

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Validates the envelope `{ opId, baseVersion?, turnId?, sessionId?, ops }` (HTTP body, Yjs `submit` message, MCP args). */
export function parseSubmit(body: unknown): SubmitBody {
  if (!isObject(body)) throw new WeftError('BAD_REQUEST', 'Send { "opId": string, "baseVersion"?: number, "turnId"?: string, "ops": [ …JSON Patch ops ] }.');
  const { opId, baseVersion, turnId, sessionId } = body;
  if (typeof opId !== 'string' || !OP_ID.test(opId)) throw new WeftError('BAD_REQUEST', 'opId must be 1–128 characters of [A-Za-z0-9._:-]; reuse it only to retry the same change.', { path: '/opId' });
  if (baseVersion !== undefined && (!Number.isInteger(baseVersion) || (baseVersion as number) < 0)) throw new WeftError('BAD_REQUEST', 'baseVersion must be a non-negative integer.', { path: '/baseVersion' });
  if (turnId !== undefined && (typeof turnId !== 'string' || !OP_ID.test(turnId))) throw new WeftError('BAD_REQUEST', 'turnId must be 1–128 characters of [A-Za-z0-9._:-].', { path: '/turnId' });
  if (sessionId !== undefined && typeof sessionId !== 'string') throw new WeftError('BAD_REQUEST', 'sessionId must be a string.', { path: '/sessionId' });
  // One op object is a step of one op, as the RFC's reader reads it (every door comes through here).
  const list = readOpsField(body['ops']);
  if (list === null || list.length === 0) throw new WeftError('BAD_REQUEST', 'ops must be a non-empty array of JSON Patch operations (or one op object {"op":…,"path":…}).', { path: '/ops' });
  const ops = list;
  if (ops.length > MAX_OPS) throw new WeftError('PAYLOAD_TOO_LARGE', `At most ${MAX_OPS} ops per request.`, { path: '/ops' });
  const out: SubmitBody = { opId, ops };
  if (baseVersion !== undefined) out.baseVersion = baseVersion as number;
  if (turnId !== undefined) out.turnId = turnId as string;
  if (sessionId !== undefined) out.sessionId = sessionId as string;
  return out;
}

/** Same opId + same hash = a retry; same opId + another hash = IDEMPOTENCY_CONFLICT. */
export function bodyHash(ops: unknown[], turnId: string | undefined): string {
  return createHash('sha256').update(JSON.stringify({ ops, turnId: turnId ?? null })).digest('base64url');
}

export function outcomeOrThrow(o: SubmitOutcome): StepResult {
  if (o.ok) return o.value;
  throw WeftError.from(o.error);
}

/**
 * The submit command: scope, the session guard, then the draft's room. Every door that writes ops
 * (HTTP, the Yjs `submit` message, MCP) comes through here, so none can skip a check.
 */
export async function submit(ctx: Ctx, p: Principal, draftId: string, body: SubmitBody): Promise<SubmitOutcome> {
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
