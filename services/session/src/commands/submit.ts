import { createHash } from 'node:crypto';
import stableStringify from 'safe-stable-stringify';
import { readOpsField } from '@weft/protocol';
import type { Ctx } from '../context.ts';
import type { StepResult, SubmitOutcome } from '../rooms/types.ts';
import { z } from 'zod';
import { parseWith } from './validate.ts';
import { WeftError } from './errors.ts';
import { requireScope } from './principal.ts';
import type { Principal } from './principal.ts';
import { mustRoom } from './drafts.ts';

export const OP_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MAX_OPS = 1000;

const OP_ID_MESSAGE = 'opId must be 1–128 characters of [A-Za-z0-9._:-]; reuse it only to retry the same change.';
const TURN_ID_MESSAGE = 'turnId must be 1–128 characters of [A-Za-z0-9._:-].';
const OPS_MESSAGE = 'ops must be a non-empty array of JSON Patch operations (or one op object {"op":…,"path":…}).';

/**
 * The envelope `{ opId, baseVersion?, turnId?, sessionId?, ops }` every door hands over (HTTP body,
 * Yjs `submit` message, MCP args): checked here, the ops still the pipeline's to judge one by one.
 */
export const SubmitBody = z.strictObject({
  opId: z.string({ error: OP_ID_MESSAGE }).regex(OP_ID, { error: OP_ID_MESSAGE })
    .meta({ description: 'The idempotency key: the same opId and body answer the original result (`replayed: true`); another body, 409.' }),
  baseVersion: z.number({ error: 'baseVersion must be a non-negative integer.' }).int({ error: 'baseVersion must be a non-negative integer.' }).min(0, { error: 'baseVersion must be a non-negative integer.' }).optional()
    .meta({ description: 'When given, must equal the head version (409 VERSION_CONFLICT otherwise).' }),
  turnId: z.string({ error: TURN_ID_MESSAGE }).regex(OP_ID, { error: TURN_ID_MESSAGE }).optional(),
  sessionId: z.string({ error: 'sessionId must be a string.' }).optional(),
  // One op object is a step of one op, as the RFC's reader reads it (every door comes through here).
  ops: z.preprocess((v) => readOpsField(v) ?? v, z.array(z.unknown().meta({ description: 'A JSON Patch op (RFC 6902). Each is repaired or refused on its own (`refused`), never a 400. One op object is read as a list of that op.' }), { error: OPS_MESSAGE })
    .min(1, { error: OPS_MESSAGE }).max(MAX_OPS, { error: `At most ${MAX_OPS} ops per request.` })),
}, { error: 'Send { "opId": string, "baseVersion"?: number, "turnId"?: string, "sessionId"?: string, "ops": [ …JSON Patch ops ] }.' }).meta({ id: 'SubmitBody' });
export type SubmitBody = z.output<typeof SubmitBody>;

/** Validates the envelope; a typed BAD_REQUEST (413 for too many ops) with the field's JSON Pointer. */
export function parseSubmit(body: unknown): SubmitBody {
  return parseWith(SubmitBody, body);
}

/**
 * Same opId + same hash = a retry; same opId + another hash = IDEMPOTENCY_CONFLICT. Keys are
 * sorted first: a client that re-serialises the same ops on a retry (another key order) is retrying.
 */
export function bodyHash(ops: unknown[], turnId: string | undefined): string {
  return createHash('sha256').update(stableStringify({ ops, turnId: turnId ?? null }) ?? '').digest('base64url');
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
