// Webhook endpoints and their delivery log (docs/api.md "Webhooks"), admin token only. The session
// registers and lists; the webhook dispatcher (services/webhooks) sends. A URL is checked here
// (shape and every address it resolves to) so a bad one is refused at once, and again at every
// connection by the dispatcher.
import type { IncomingMessage } from 'node:http';
import { checkEgressUrl, EgressRefused } from '@weft/ops';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from '@weft/protocol';
import type { WebhookDeliveryView, WebhookEndpointView, WebhookEventType } from '@weft/protocol';
import type { DeliveryStatus, WebhookDelivery, WebhookEndpoint } from '@weft/store';
import type { Ctx } from '../context.ts';
import { WeftError } from '../commands/errors.ts';
import { isObject, readJson, sendJson } from './respond.ts';
import type { Handler, Router, RouteSpec } from './router.ts';
import { z } from 'zod';

const DRAFT_ID = /^[a-z][a-z0-9-]{0,40}$/;
const STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

// The documented shapes (OpenAPI); the handlers check their input by hand, with the messages and
// JSON Pointers docs/api.md "Webhooks" lists.
const EventType = z.enum(WEBHOOK_EVENT_TYPES as unknown as [WebhookEventType, ...WebhookEventType[]]);
const Stamp = z.string().meta({ description: 'An ISO 8601 time.' });
const EndpointView = z.object({
  id: z.string(), url: z.string(), draftId: z.string().nullable().meta({ description: 'null: every draft.' }), eventTypes: z.array(EventType),
  description: z.string(), createdAt: Stamp, disabledAt: Stamp.nullable().meta({ description: 'Set when the receiver answered 410 Gone.' }),
  disabledReason: z.string().nullable(), previousSecretUntil: Stamp.nullable().meta({ description: 'After a rotation: until when the old secret also signs.' }),
}).meta({ id: 'WebhookEndpoint' });
const DeliveryView = z.object({
  id: z.string(), endpointId: z.string(), eventId: z.string(), eventType: z.string(), draftId: z.string(), status: z.enum(STATUSES as unknown as [DeliveryStatus, ...DeliveryStatus[]]),
  attempts: z.int().min(0), nextAttemptAt: Stamp.nullable(), lastAttemptAt: Stamp.nullable(), lastStatus: z.int().nullable(), lastError: z.string().nullable(),
  deliveredAt: Stamp.nullable(), createdAt: Stamp,
  attemptLog: z.array(z.object({ attempt: z.int(), at: Stamp, ms: z.number(), status: z.int().optional(), error: z.string().optional() })).meta({ description: 'The newest 20 attempts.' }),
}).meta({ id: 'WebhookDelivery' });
const WithSecret = z.object({ endpoint: EndpointView, secret: z.string().meta({ description: 'The signing secret (`whsec_…`), shown only in this answer.' }) });
const ENDPOINT_PARAM = { id: { description: 'The endpoint id `POST /v1/webhooks` answered.' } };
/** Documentation only: the handlers read their body and query themselves (hence the plain handler types). */
const webhookSpec = (summary: string, rest: Omit<RouteSpec, 'summary' | 'tags' | 'access'>): RouteSpec<z.ZodUnknown, z.ZodType<Record<string, string>>> =>
  ({ summary, tags: ['webhooks'], access: 'admin', ...rest }) as unknown as RouteSpec<z.ZodUnknown, z.ZodType<Record<string, string>>>;

export function registerWebhooks(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/webhooks', createEndpoint(ctx), webhookSpec('Register a webhook endpoint (admin)', {
    description: 'Signed deliveries (Standard Webhooks) of a draft\'s events, or every draft\'s. The URL is checked at once (scheme, no credentials, every address it resolves to public unless WEFT_WEBHOOK_ALLOW_PRIVATE) and again at every connection.',
    body: z.object({ url: z.string(), draftId: z.string().optional(), eventTypes: z.array(EventType).min(1).optional(), description: z.string().max(500).optional() }), bodyLimit: 16 * 1024,
    errors: ['BAD_REQUEST', 'MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'FORBIDDEN', 'NOT_FOUND', 'WEBHOOK_URL_REFUSED'],
    responses: { 201: { description: 'The endpoint and its secret, shown once.', schema: WithSecret } },
  }));
  router.on('GET', '/v1/webhooks', listEndpoints(ctx), webhookSpec('List webhook endpoints (admin)', {
    query: z.object({ draftId: z.string().optional().meta({ description: 'Only this draft\'s endpoints.' }) }),
    errors: ['FORBIDDEN'], responses: { 200: { description: 'The endpoints (no secrets).', schema: z.object({ endpoints: z.array(EndpointView) }) } },
  }));
  router.on('GET', '/v1/webhooks/:id', getEndpoint(ctx), webhookSpec('One webhook endpoint (admin)', {
    params: ENDPOINT_PARAM, errors: ['FORBIDDEN', 'NOT_FOUND'], responses: { 200: { description: 'The endpoint.', schema: z.object({ endpoint: EndpointView }) } },
  }));
  router.on('DELETE', '/v1/webhooks/:id', deleteEndpoint(ctx), webhookSpec('Delete a webhook endpoint and its delivery log (admin)', {
    params: ENDPOINT_PARAM, errors: ['FORBIDDEN', 'NOT_FOUND'], responses: { 200: { description: 'Deleted.', schema: z.object({ deleted: z.string() }) } },
  }));
  router.on('POST', '/v1/webhooks/:id/enable', enableEndpoint(ctx), webhookSpec('Enable an endpoint a 410 Gone disabled (admin)', {
    params: ENDPOINT_PARAM, errors: ['FORBIDDEN', 'NOT_FOUND'], responses: { 200: { description: 'The endpoint, enabled.', schema: z.object({ endpoint: EndpointView }) } },
  }));
  router.on('POST', '/v1/webhooks/:id/rotate', rotateSecret(ctx), webhookSpec('Rotate an endpoint\'s secret (admin)', {
    params: ENDPOINT_PARAM, body: z.object({ overlapSeconds: z.int().min(0).max(7 * 86_400).optional().meta({ description: 'How long the old secret keeps signing too (default 86400).' }) }), bodyLimit: 1024,
    errors: ['BAD_REQUEST', 'MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'FORBIDDEN', 'NOT_FOUND'], responses: { 200: { description: 'The endpoint and its new secret, shown once.', schema: WithSecret } },
  }));
  router.on('GET', '/v1/webhooks/:id/deliveries', listDeliveries(ctx), webhookSpec('An endpoint\'s delivery log, newest first (admin)', {
    params: ENDPOINT_PARAM,
    query: z.object({
      status: z.enum(STATUSES as unknown as [DeliveryStatus, ...DeliveryStatus[]]).optional(), limit: z.string().optional().meta({ description: '1..500, default 50.' }),
      before: z.string().optional().meta({ description: 'The `next` of the previous page.' }),
    }),
    errors: ['BAD_REQUEST', 'FORBIDDEN', 'NOT_FOUND'], responses: { 200: { description: 'A page of deliveries.', schema: z.object({ deliveries: z.array(DeliveryView), next: z.string().nullable() }) } },
  }));
  router.on('POST', '/v1/webhooks/:id/deliveries/:deliveryId/retry', retryDelivery(ctx), webhookSpec('Send a delivery again now (admin)', {
    params: { ...ENDPOINT_PARAM, deliveryId: { description: 'A delivery id from the log.' } },
    errors: ['FORBIDDEN', 'NOT_FOUND'], responses: { 202: { description: 'Queued to be sent at once.', schema: z.object({ delivery: DeliveryView }) } },
  }));
}

async function admin(ctx: Ctx, req: IncomingMessage): Promise<void> {
  const p = await ctx.auth.fromHeader(req.headers.authorization);
  if (!p.admin) throw new WeftError('FORBIDDEN', 'Only the admin token manages webhooks.');
}

const createEndpoint = (ctx: Ctx): Handler => async ({ req, res }) => {
  await admin(ctx, req);
  const body = await readJson(req, 16 * 1024);
  if (!isObject(body)) throw new WeftError('BAD_REQUEST', 'Send { "url": "https://…", "draftId"?: string, "eventTypes"?: [...], "description"?: string }.');
  const { url, draftId = null, eventTypes = WEBHOOK_EVENT_TYPES, description = '' } = body;
  if (typeof url !== 'string') throw new WeftError('BAD_REQUEST', 'url must be a string (an https:// URL).', { path: '/url' });
  if (draftId !== null && (typeof draftId !== 'string' || !DRAFT_ID.test(draftId))) throw new WeftError('BAD_REQUEST', 'draftId must be a draft id, or absent for every draft.', { path: '/draftId' });
  if (!Array.isArray(eventTypes) || eventTypes.length === 0 || !eventTypes.every(isWebhookEventType)) {
    throw new WeftError('BAD_REQUEST', `eventTypes must be a non-empty list of ${WEBHOOK_EVENT_TYPES.join(', ')}.`, { path: '/eventTypes' });
  }
  if (typeof description !== 'string' || description.length > 500) throw new WeftError('BAD_REQUEST', 'description must be a string of at most 500 characters.', { path: '/description' });
  try {
    await checkEgressUrl(url, { allowPrivate: ctx.config.webhookAllowPrivate });
  } catch (e) {
    if (e instanceof EgressRefused) throw new WeftError('WEBHOOK_URL_REFUSED', e.message, { path: '/url', reason: e.reason });
    throw e;
  }
  if (draftId !== null && !(await ctx.store.getDraft(draftId))) throw new WeftError('NOT_FOUND', `No draft "${draftId}".`, { path: '/draftId' });
  const { endpoint, secret } = await ctx.webhooks.createEndpoint({ url, draftId, eventTypes: [...new Set(eventTypes as WebhookEventType[])], description });
  // The secret is shown once, here; it is never listed or logged.
  sendJson(res, 201, { endpoint: endpointView(endpoint), secret });
};

const listEndpoints = (ctx: Ctx): Handler => async ({ req, res, url }) => {
  await admin(ctx, req);
  const draftId = url.searchParams.get('draftId');
  const endpoints = await ctx.webhooks.listEndpoints(draftId === null ? {} : { draftId });
  sendJson(res, 200, { endpoints: endpoints.map(endpointView) });
};

const getEndpoint = (ctx: Ctx): Handler => async ({ req, res, params }) => {
  await admin(ctx, req);
  sendJson(res, 200, { endpoint: endpointView(await mustEndpoint(ctx, params['id']!)) });
};

const deleteEndpoint = (ctx: Ctx): Handler => async ({ req, res, params }) => {
  await admin(ctx, req);
  if (!(await ctx.webhooks.deleteEndpoint(params['id']!))) throw new WeftError('NOT_FOUND', `No webhook endpoint "${params['id']}".`);
  sendJson(res, 200, { deleted: params['id'] });
};

const enableEndpoint = (ctx: Ctx): Handler => async ({ req, res, params }) => {
  await admin(ctx, req);
  const e = await ctx.webhooks.enableEndpoint(params['id']!);
  if (!e) throw new WeftError('NOT_FOUND', `No webhook endpoint "${params['id']}".`);
  sendJson(res, 200, { endpoint: endpointView(e) });
};

const rotateSecret = (ctx: Ctx): Handler => async ({ req, res, params }) => {
  await admin(ctx, req);
  const body = await readJson(req, 1024);
  const overlap = isObject(body) ? body['overlapSeconds'] ?? 86_400 : undefined;
  if (!Number.isInteger(overlap) || (overlap as number) < 0 || (overlap as number) > 7 * 86_400) {
    throw new WeftError('BAD_REQUEST', 'overlapSeconds: how long the old secret keeps signing, an integer from 0 to 604800 (default 86400).', { path: '/overlapSeconds' });
  }
  const r = await ctx.webhooks.rotateSecret(params['id']!, overlap as number);
  if (!r) throw new WeftError('NOT_FOUND', `No webhook endpoint "${params['id']}".`);
  sendJson(res, 200, { endpoint: endpointView(r.endpoint), secret: r.secret });
};

const listDeliveries = (ctx: Ctx): Handler => async ({ req, res, params, url }) => {
  await admin(ctx, req);
  const endpoint = await mustEndpoint(ctx, params['id']!);
  const status = url.searchParams.get('status');
  if (status !== null && !(STATUSES as readonly string[]).includes(status)) throw new WeftError('BAD_REQUEST', `status must be one of ${STATUSES.join(', ')}.`, { path: '/status' });
  const limitText = url.searchParams.get('limit') ?? '50';
  const limit = /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= 500)) throw new WeftError('BAD_REQUEST', 'limit must be an integer from 1 to 500.', { path: '/limit' });
  const before = url.searchParams.get('before');
  const deliveries = await ctx.webhooks.listDeliveries({
    endpointId: endpoint.id, limit, ...(status !== null ? { status: status as DeliveryStatus } : {}), ...(before !== null ? { before } : {}),
  });
  sendJson(res, 200, { deliveries: deliveries.map(deliveryView), next: deliveries.length === limit ? deliveries.at(-1)!.id : null });
};

const retryDelivery = (ctx: Ctx): Handler => async ({ req, res, params }) => {
  await admin(ctx, req);
  const endpoint = await mustEndpoint(ctx, params['id']!);
  const found = await ctx.webhooks.getDelivery(params['deliveryId']!);
  if (!found || found.endpointId !== endpoint.id) throw new WeftError('NOT_FOUND', `No delivery "${params['deliveryId']}" of endpoint "${endpoint.id}".`);
  const d = await ctx.webhooks.retryDelivery(found.id);
  if (!d) throw new WeftError('NOT_FOUND', `No delivery "${params['deliveryId']}".`);
  sendJson(res, 202, { delivery: deliveryView(d) });
};

async function mustEndpoint(ctx: Ctx, id: string): Promise<WebhookEndpoint> {
  const e = await ctx.webhooks.getEndpoint(id);
  if (!e) throw new WeftError('NOT_FOUND', `No webhook endpoint "${id}".`);
  return e;
}

const iso = (d: Date | null): string | null => d === null ? null : d.toISOString();

function endpointView(e: WebhookEndpoint): WebhookEndpointView {
  return { id: e.id, url: e.url, draftId: e.draftId, eventTypes: e.eventTypes, description: e.description, createdAt: e.createdAt.toISOString(), disabledAt: iso(e.disabledAt), disabledReason: e.disabledReason, previousSecretUntil: iso(e.previousSecretUntil) };
}

function deliveryView(d: WebhookDelivery): WebhookDeliveryView {
  return {
    id: d.id, endpointId: d.endpointId, eventId: d.eventId, eventType: d.eventType, draftId: d.draftId, status: d.status,
    attempts: d.attempts, nextAttemptAt: iso(d.nextAttemptAt), lastAttemptAt: iso(d.lastAttemptAt), lastStatus: d.lastStatus,
    lastError: d.lastError, deliveredAt: iso(d.deliveredAt), createdAt: d.createdAt.toISOString(), attemptLog: d.attemptLog,
  };
}
