// The activity commands (docs/api.md "Activity"): an agent reports what it observably does; the
// system records its own `request` (a turn of work asked of the draft: opened, then finished with
// its counts) and `persistence` (the draft restored from the log, compacted, or its log not
// confirming a commit) entries. Kept per draft in Postgres (the newest 120), streamed to the
// draft's viewers as a CUSTOM weft.activity event. Never on the per-op path: at most one entry
// per turn boundary or room lifecycle event, written after the fact and never awaited by a write.
import { clipActivityText, parseActivityInput, ActivityLimits } from '@weft/core';
import type { Activity, ActivityKind, ActivityStatus } from '@weft/core';
import { activityEvent } from '@weft/protocol';
import type { Ctx } from '../context.ts';
import { TokenBucket } from '../rooms/rate-limit.ts';
import { WeftError } from './errors.ts';
import { requireScope } from './principal.ts';
import type { Principal } from './principal.ts';

/** The actor of the system's own entries. */
export const SYSTEM_ACTOR = 'weft';

function publish(ctx: Ctx, draftId: string, a: Activity): void {
  // No version: an entry changes nothing in the draft (the SSE hub sends it to every viewer).
  ctx.sse.publish(draftId, null, [activityEvent(a, a.at)]);
}

/** Token buckets per actor and draft, per service instance (a report is a write and a broadcast). */
const buckets = new WeakMap<Ctx, Map<string, TokenBucket>>();
function throttle(ctx: Ctx, p: Principal, draftId: string): void {
  let m = buckets.get(ctx);
  if (!m) buckets.set(ctx, (m = new Map()));
  if (m.size > 10_000) m.clear(); // bounded: a full map only forgets who was recently busy
  const key = `${draftId}\u0000${p.actor.id}`;
  let b = m.get(key);
  if (!b) m.set(key, (b = new TokenBucket(ctx.config.activityPerSecond, ctx.now())));
  const wait = b.take(1, ctx.now());
  if (wait > 0) throw new WeftError('RATE_LIMITED', `More than ${ctx.config.activityPerSecond} activity reports a second on this draft; report less often (retry after ${wait} ms).`, { retryAfterMs: wait });
}

/** An agent's report: write scope, the rate, the strict check (every problem listed), stored, streamed. */
export async function reportActivity(ctx: Ctx, p: Principal, draftId: string, body: unknown): Promise<Activity> {
  requireScope(p, draftId, 'write');
  throttle(ctx, p, draftId);
  const r = parseActivityInput(body);
  if (!r.ok) {
    throw new WeftError('BAD_REQUEST', `The activity report was not recorded: ${r.errors.map((e) => `${e.path || '(body)'} ${e.message}`).join('; ')}.`, { path: r.errors[0]!.path, errors: r.errors });
  }
  const a = await ctx.activity.append(draftId, { ...r.value, actor: p.actor.id, at: Math.floor(ctx.now()) });
  if (!a) throw new WeftError('NOT_FOUND', `No draft "${draftId}" (or no access to it).`);
  publish(ctx, draftId, a);
  return a;
}

/** The draft's entries, oldest first (the newest 120). */
export async function listActivity(ctx: Ctx, p: Principal, draftId: string): Promise<Activity[]> {
  requireScope(p, draftId, 'read');
  if (!(await ctx.store.getDraft(draftId))) throw new WeftError('NOT_FOUND', `No draft "${draftId}" (or no access to it).`);
  return ctx.activity.list(draftId);
}

/** What the system records about itself (its actor is SYSTEM_ACTOR, its time now). */
export interface SystemEntry { kind: ActivityKind; status: ActivityStatus; label: string; detail?: string }

/** A system entry, fire and forget: a failure is logged, never felt by the write it describes. */
export function recordActivity(ctx: Ctx, draftId: string, e: SystemEntry): void {
  const entry = {
    kind: e.kind, status: e.status, label: clipActivityText(e.label, ActivityLimits.label),
    ...(e.detail ? { detail: clipActivityText(e.detail, ActivityLimits.detail) } : {}), actor: SYSTEM_ACTOR, at: Math.floor(ctx.now()), // the column is bigint milliseconds
  };
  ctx.activity.append(draftId, entry).then((a) => { if (a) publish(ctx, draftId, a); }, (err: unknown) => ctx.log.warn('activity not recorded', { draftId, kind: e.kind, error: String(err) }));
}
