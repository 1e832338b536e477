// Activity routes (docs/api.md "Activity"): thin handlers over commands/activity.ts.
import type { Ctx } from '../context.ts';
import { listActivity, reportActivity } from '../commands/activity.ts';
import { readJson, sendJson } from './respond.ts';
import type { Router } from './router.ts';
import { ACTIVITY_KINDS, ACTIVITY_STATUSES, ActivityLimits, REPORTABLE_KINDS } from '@weft/core';
import { z } from 'zod';
import { DRAFT_PARAM } from './drafts.ts';

/** A report is at most ~2.6 KB of text; anything far past that is not one. */
const MAX_BODY = 8192;

// Documented shapes (OpenAPI); the report itself is checked by core's ajv schema, every problem listed.
const Entry = z.object({
  id: z.string(), kind: z.enum(ACTIVITY_KINDS), status: z.enum(ACTIVITY_STATUSES), label: z.string(), detail: z.string().optional(),
  at: z.number().meta({ description: 'Epoch milliseconds.' }), actor: z.string().meta({ description: 'The token\'s actor id, or "weft" for the system\'s own entries.' }),
}).meta({ id: 'Activity' });
const Report = z.object({
  kind: z.enum(REPORTABLE_KINDS), status: z.enum(ACTIVITY_STATUSES),
  label: z.string().max(ActivityLimits.label), detail: z.string().max(ActivityLimits.detail).optional(),
}).strict().meta({ id: 'ActivityReport', description: 'Unknown fields (e.g. chainOfThought) are refused; a 400 lists every problem in `errors`.' });

export function registerActivity(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/drafts/:id/activity', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    sendJson(res, 201, { activity: await reportActivity(ctx, p, params['id']!, await readJson(req, MAX_BODY)) });
  }, {
    summary: 'Report observable activity (an agent\'s validation, operation or agent entry)', tags: ['activity'], access: 'bearer', params: { id: DRAFT_PARAM },
    description: 'Kept per draft (the newest 120) and streamed to viewers as CUSTOM weft.activity. Needs "write"; rate-limited per actor and draft (WEFT_ACTIVITY_PER_SECOND).',
    body: Report, bodyLimit: MAX_BODY,
    errors: ['BAD_REQUEST', 'MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'FORBIDDEN', 'NOT_FOUND', 'RATE_LIMITED'],
    responses: { 201: { description: 'The entry as stored.', schema: z.object({ activity: Entry }) } },
  });
  router.on('GET', '/v1/drafts/:id/activity', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    sendJson(res, 200, { activities: await listActivity(ctx, p, params['id']!) });
  }, {
    summary: 'The draft\'s activity, oldest first (the newest 120)', tags: ['activity'], access: 'bearer', params: { id: DRAFT_PARAM },
    errors: ['NOT_FOUND'], responses: { 200: { description: 'The entries (no read scope on the draft: 404, as for every read).', schema: z.object({ activities: z.array(Entry) }) } },
  });
}
