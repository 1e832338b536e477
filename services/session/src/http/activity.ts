// Activity routes (docs/api.md "Activity"): thin handlers over commands/activity.ts.
import type { Ctx } from '../context.ts';
import { listActivity, reportActivity } from '../commands/activity.ts';
import { readJson, sendJson } from './respond.ts';
import type { Router } from './router.ts';

/** A report is at most ~2.6 KB of text; anything far past that is not one. */
const MAX_BODY = 8192;

export function registerActivity(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/drafts/:id/activity', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    sendJson(res, 201, { activity: await reportActivity(ctx, p, params['id']!, await readJson(req, MAX_BODY)) });
  });
  router.on('GET', '/v1/drafts/:id/activity', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    sendJson(res, 200, { activities: await listActivity(ctx, p, params['id']!) });
  });
}
