// The OpenAPI contract: docs/openapi.json is valid OpenAPI 3.1 (a maintained validator), is what
// GET /openapi.json serves (no stale file, no route without a spec), and every documented route
// answers as documented — each documented status is produced from an empty draft upward and its
// body validated against the document's own schema (4xx error bodies included).
import { readFileSync } from 'node:fs';
import { validate as validateOpenApi, compileErrors } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsExtension } from '../src/actions/extension.ts';
import { collabExtension } from '../src/collab/collab.ts';
import { undocumented } from '../src/http/openapi.ts';
import { mcpExtension } from '../src/mcp/extension.ts';
import { ADMIN, heroSection, startTestSession } from './helpers.ts';
import { contract, DOC_FILE } from './openapi-contract.ts';
import type { CallOptions, Contract, Json } from './openapi-contract.ts';
import type { TestSession } from './helpers.ts';


/** Statuses a route documents that this walk does not produce, and why. */
const NOT_WALKED: Record<string, string> = {
  'GET /healthz 503': 'needs the database down (load-tests/faults/postgres.e2e.test.ts)',
  'GET /readyz 503': 'needs the database or bus down (load-tests/faults)',
  'HEAD /readyz 503': 'needs the database or bus down (load-tests/faults)',
};

describe('OpenAPI document', () => {
  let s: TestSession;
  const doc = JSON.parse(readFileSync(DOC_FILE, 'utf8')) as Json;
  let call: Contract['call'];
  let seen: Set<string>;

  beforeAll(async () => {
    // The service's clock runs a thousand times slower than the wall: the rate limits' one-second
    // windows (ops, reader actions) outlast this walk however loaded the machine is.
    const t0 = Date.now();
    const slow = (): number => t0 + (Date.now() - t0) / 1000;
    s = await startTestSession({ opsPerTurn: 30, opsPerSecond: 20, webhookAllowPrivate: true }, undefined, () => [collabExtension(), mcpExtension(), actionsExtension({ perSecond: 20 })], slow);
    ({ call, seen } = contract(doc, s.url));
  });
  afterAll(async () => {
    await s?.close();
  });

  it('is valid OpenAPI 3.1 (@readme/openapi-parser)', async () => {
    const r = await validateOpenApi(structuredClone(doc) as Parameters<typeof validateOpenApi>[0]);
    expect(r.valid, r.valid ? '' : compileErrors(r)).toBe(true);
    expect(doc['openapi']).toMatch(/^3\.1\./);
  });

  it('is what GET /openapi.json serves, and every route has a spec (npm run docs:openapi rewrites the file)', async () => {
    expect(undocumented(s.app.router.routes())).toEqual([]);
    const served = await fetch(`${s.url}/openapi.json`).then((r) => r.json());
    expect(served, 'docs/openapi.json is stale: run npm run docs:openapi').toEqual(doc);
    // Every registered route is in the document, under its method.
    for (const r of s.app.router.routes()) {
      const path = r.pattern.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      expect(doc['paths'][path]?.[r.method.toLowerCase()], `${r.method} ${r.pattern}`).toBeDefined();
    }
  });

  it('every documented route answers as documented, from an empty draft up, error bodies included', async () => {
    // Tokens: a writer, a second writer, a reader of `page` only.
    const mint = (id: string, scopes: Record<string, string[]>, kind = 'human') => call('POST', '/v1/tokens', { body: { actor: { id, kind }, scopes } });
    const alice = (await mint('alice', { '*': ['write'] })).json.token as string;
    const bob = (await mint('bob', { '*': ['write'] })).json.token as string;
    const reader = (await mint('rita', { page: ['read'] })).json.token as string;
    const doomed = await mint('gone', { page: ['read'] });
    expect(doomed.status).toBe(201);
    expect((await call('POST', '/v1/tokens', { body: { actor: { id: 'a b', kind: 'human' }, scopes: {} } })).json.error.path).toBe('/actor/id');
    // The admin's own actor id is not for minted tokens: they would write and undo as the admin.
    expect((await call('POST', '/v1/tokens', { body: { actor: { id: 'admin', kind: 'agent' }, scopes: { '*': ['write'] } } })).json.error).toMatchObject({ code: 'BAD_REQUEST', path: '/actor/id' });
    expect((await call('POST', '/v1/tokens', { raw: '{"actor":' })).json.error.code).toBe('MALFORMED_JSON');
    expect((await call('POST', '/v1/tokens', { token: alice, body: { actor: { id: 'x', kind: 'human' }, scopes: {} } })).status).toBe(403);
    expect((await call('POST', '/v1/tokens', { raw: JSON.stringify({ pad: 'x'.repeat(17 * 1024) }) })).status).toBe(413);
    expect((await call('DELETE', '/v1/tokens/{id}', { params: { id: doomed.json.id }, token: alice })).status).toBe(403);
    expect((await call('DELETE', '/v1/tokens/{id}', { params: { id: doomed.json.id } })).json).toEqual({ revoked: doomed.json.id });

    // Drafts, from empty.
    expect((await call('POST', '/v1/drafts', { body: { id: 'page' } })).json).toEqual({ id: 'page', version: 0 });
    expect((await call('GET', '/v1/drafts/{id}')).json).toMatchObject({ id: 'page', version: 0, draft: { title: '', order: [], sections: {} } });
    expect((await call('POST', '/v1/drafts', { body: { title: 'Titled' } })).json.version).toBe(1);
    expect((await call('POST', '/v1/drafts', { body: { id: 'page' } })).json.error).toMatchObject({ code: 'VERSION_CONFLICT', currentVersion: 0 });
    expect((await call('POST', '/v1/drafts', { body: { id: 'Bad Id' } })).json.error.path).toBe('/id');
    expect((await call('POST', '/v1/drafts', { raw: '[' })).status).toBe(400);
    expect((await call('POST', '/v1/drafts', { token: reader, body: { id: 'elsewhere' } })).status).toBe(403);
    expect((await call('POST', '/v1/drafts', { raw: JSON.stringify({ title: 'x'.repeat(s.app.ctx.config.maxBodyBytes) }) })).status).toBe(413);
    expect((await call('GET', '/v1/drafts', { token: reader })).json.drafts.map((d: Json) => d['id'])).toEqual(['page']);

    // Ops: applied, repaired and refused; every refusal of the envelope typed.
    const first = await call('POST', '/v1/drafts/{id}/ops', { token: alice, body: { opId: 'o-1', ops: [{ op: 'add', path: '/sections/hero', value: heroSection('hero') }, { op: 'replace', path: '/title', value: 'Page' }] } });
    expect(first.json).toMatchObject({ version: 1 });
    const mixed = await call('POST', '/v1/drafts/{id}/ops', { token: alice, body: { opId: 'o-2', ops: [{ op: 'replace', path: '/sections/hero/components/title/props/level', value: 'huge' }, { op: 'add', path: '/__proto__/x', value: 1 }] } });
    expect(mixed.json.refused.length + mixed.json.repairs.length).toBeGreaterThan(0);
    expect((await call('POST', '/v1/drafts/{id}/ops', { token: alice, body: { opId: 'o-1', ops: [{ op: 'replace', path: '/title', value: 'other' }] } })).json.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await call('POST', '/v1/drafts/{id}/ops', { token: alice, body: { opId: 'o-3', baseVersion: 99, ops: [{ op: 'replace', path: '/title', value: 'x' }] } })).json.error.code).toBe('VERSION_CONFLICT');
    expect((await call('POST', '/v1/drafts/{id}/ops', { body: { opId: 'a b', ops: [{}] } })).json.error.path).toBe('/opId');
    expect((await call('POST', '/v1/drafts/{id}/ops', { raw: '{"opId":' })).json.error.code).toBe('MALFORMED_JSON');
    expect((await call('POST', '/v1/drafts/{id}/ops', { token: reader, body: { opId: 'r-1', ops: [{ op: 'replace', path: '/title', value: 'x' }] } })).status).toBe(403);
    expect((await call('POST', '/v1/drafts/{id}/ops', { params: { id: 'nope' }, body: { opId: 'n-1', ops: [{ op: 'replace', path: '/title', value: 'x' }] } })).status).toBe(404);
    expect((await call('POST', '/v1/drafts/{id}/ops', { body: { opId: 'many', ops: Array.from({ length: 1001 }, () => ({ op: 'test', path: '/title', value: 'x' })) } })).json.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', path: '/ops' });
    const titleOps = (n: number) => Array.from({ length: n }, (_, i) => ({ op: 'replace', path: '/title', value: `t${i}` }));
    expect((await call('POST', '/v1/drafts/{id}/ops', { token: bob, body: { opId: 'b-turn', turnId: 'big', ops: titleOps(31) } })).json.error.code).toBe('BUDGET_EXCEEDED');
    const limited = await call('POST', '/v1/drafts/{id}/ops', { token: bob, body: { opId: 'b-fast', ops: titleOps(21) } });
    expect(limited.json.error.code).toBe('RATE_LIMITED');

    // Sessions and turns.
    const opened = await call('POST', '/v1/drafts/{id}/sessions', { token: alice });
    expect(opened.status).toBe(201);
    expect((await call('POST', '/v1/drafts/{id}/sessions', { token: reader })).status).toBe(403);
    expect((await call('POST', '/v1/drafts/{id}/sessions', { params: { id: 'nope' } })).status).toBe(404);
    expect((await call('POST', '/v1/drafts/{id}/ops', { token: alice, body: { opId: 'o-turn', turnId: 't-1', sessionId: opened.json.sessionId, ops: [{ op: 'replace', path: '/title', value: 'In a turn' }] } })).status).toBe(200);
    expect((await call('POST', '/v1/drafts/{id}/turns/{turnId}/finish', { params: { id: 'page', turnId: 't-1' }, token: alice })).json.summary.ops).toBe(1);
    expect((await call('POST', '/v1/drafts/{id}/turns/{turnId}/finish', { params: { id: 'page', turnId: 'never' }, token: alice })).status).toBe(404);
    expect((await call('POST', '/v1/drafts/{id}/turns/{turnId}/finish', { params: { id: 'page', turnId: 't-1' }, token: reader })).status).toBe(403);
    expect((await call('DELETE', '/v1/sessions/{sid}', { params: { sid: opened.json.sessionId }, token: bob })).status).toBe(403);
    expect((await call('DELETE', '/v1/sessions/{sid}', { params: { sid: opened.json.sessionId }, token: alice })).json).toEqual({ closed: true });
    expect((await call('POST', '/v1/drafts/{id}/ops', { token: alice, body: { opId: 'o-late', sessionId: opened.json.sessionId, ops: [{ op: 'replace', path: '/title', value: 'late' }] } })).status).toBe(410);

    // Undo and redo: someone else's later change to the same place is a conflict.
    expect((await call('POST', '/v1/drafts/{id}/undo', { token: bob })).json.error.code).toBe('NOTHING_TO_UNDO');
    await call('POST', '/v1/drafts/{id}/ops', { body: { opId: 'admin-title', ops: [{ op: 'replace', path: '/title', value: 'Admin' }] } });
    expect((await call('POST', '/v1/drafts/{id}/undo', { token: alice })).json.error.code).toBe('UNDO_CONFLICT');
    await call('POST', '/v1/drafts/{id}/ops', { token: bob, body: { opId: 'b-1', ops: [{ op: 'add', path: '/sections/hero/data/n', value: 1 }] } });
    expect((await call('POST', '/v1/drafts/{id}/undo', { token: bob, body: { scope: 'step' } })).json.undid).toHaveLength(1);
    expect((await call('POST', '/v1/drafts/{id}/redo', { token: bob })).json.undid).toHaveLength(1);
    expect((await call('POST', '/v1/drafts/{id}/redo', { token: bob })).json.error.code).toBe('NOTHING_TO_UNDO');
    for (const mode of ['undo', 'redo']) {
      const t = `/v1/drafts/{id}/${mode}`;
      expect((await call('POST', t, { token: bob, raw: '{' })).status).toBe(400);
      expect((await call('POST', t, { token: reader })).status).toBe(403);
      expect((await call('POST', t, { params: { id: 'nope' } })).status).toBe(404);
      expect((await call('POST', t, { token: bob, raw: JSON.stringify({ pad: 'x'.repeat(5000) }) })).status).toBe(413);
    }

    // Reads: any version, the diff, the versions, the log as pages and as NDJSON.
    const head = (await call('GET', '/v1/drafts/{id}', { token: reader })).json.version as number;
    expect((await call('GET', '/v1/drafts/{id}', { query: '?version=1' })).json.draft.title).toBe('Page');
    expect((await call('GET', '/v1/drafts/{id}', { query: `?minVersion=${head}` })).json.version).toBe(head);
    expect((await call('GET', '/v1/drafts/{id}', { query: '?version=x' })).json.error).toMatchObject({ code: 'BAD_REQUEST', path: '/version' });
    expect((await call('GET', '/v1/drafts/{id}', { params: { id: 'nope' } })).status).toBe(404);
    expect((await call('GET', '/v1/drafts/{id}/diff', { query: '?from=0&to=1' })).json.patch.length).toBeGreaterThan(0);
    expect((await call('GET', '/v1/drafts/{id}/diff', { query: '?from=-1' })).json.error.path).toBe('/from');
    expect((await call('GET', '/v1/drafts/{id}/diff', { query: `?to=${head + 1}` })).status).toBe(404);
    expect((await call('GET', '/v1/drafts/{id}/versions')).json.versions.length).toBeGreaterThan(0);
    expect((await call('GET', '/v1/drafts/{id}/versions', { params: { id: 'nope' } })).status).toBe(404);
    const page = await call('GET', '/v1/drafts/{id}/events', { query: '?after=0&limit=2' });
    expect(page.json).toMatchObject({ next: 2, head });
    const lines = (await call('GET', '/v1/drafts/{id}/events', { query: '?format=ndjson' })).text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(head);
    expect((await call('GET', '/v1/drafts/{id}/events', { query: '?limit=many' })).json.error.path).toBe('/limit');
    expect((await call('GET', '/v1/drafts/{id}/events', { token: bob, params: { id: 'nope' } })).status).toBe(404);

    // The live stream: its first frame is the snapshot.
    expect((await call('GET', '/v1/drafts/{id}/stream', { token: reader })).text).toContain('STATE_SNAPSHOT');
    expect((await call('GET', '/v1/drafts/{id}/stream', { headers: { 'last-event-id': 'x' } })).status).toBe(400);
    expect((await call('GET', '/v1/drafts/{id}/stream', { params: { id: 'nope' } })).status).toBe(404);

    // Reader actions.
    const action = (sourceComponentId: string, extra: Json = {}) => ({ action: { name: 'clicked', surfaceId: 'hero', sourceComponentId, timestamp: new Date().toISOString(), context: {}, ...extra } });
    expect((await call('POST', '/v1/drafts/{id}/actions', { token: reader, body: action('title') })).json).toMatchObject({ written: [] });
    expect((await call('POST', '/v1/drafts/{id}/actions', { token: reader, body: action('nope') })).json.error).toMatchObject({ code: 'VALIDATION_FAILED', path: '/action/sourceComponentId' });
    expect((await call('POST', '/v1/drafts/{id}/actions', { token: reader, body: action('title', { name: 'bad name' }) })).json.error.path).toBe('/action/name');
    expect((await call('POST', '/v1/drafts/{id}/actions', { token: reader, raw: '{"action"' })).json.error.code).toBe('MALFORMED_JSON');
    expect((await call('POST', '/v1/drafts/{id}/actions', { token: reader, raw: JSON.stringify({ pad: 'x'.repeat(17 * 1024) }) })).status).toBe(413);
    expect((await call('POST', '/v1/drafts/{id}/actions', { params: { id: 'nope' }, body: action('title') })).status).toBe(404);
    // 20 a second per draft: the walk above sent 5 on this draft, so the 16th more is refused.
    const burst: number[] = [];
    for (let i = 0; i < 16; i++) burst.push((await call('POST', '/v1/drafts/{id}/actions', { token: reader, body: action('title') })).status);
    expect(burst).toEqual([...Array(15).fill(202), 429]);

    // MCP over streamable HTTP.
    const rpc = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openapi-test', version: '1' } } };
    expect((await call('POST', '/mcp', { headers: rpc, body: init })).status).toBe(200);
    expect((await call('POST', '/mcp', { headers: rpc, body: { jsonrpc: '2.0', method: 'notifications/initialized' } })).status).toBe(202);
    expect((await call('POST', '/mcp', { headers: rpc, body: { not: 'json-rpc' } })).status).toBe(400);
    expect((await call('POST', '/mcp', { headers: { ...rpc, accept: 'text/plain' }, body: init })).status).toBe(406);
    expect((await call('POST', '/mcp', { headers: { ...rpc, 'content-type': 'text/plain' }, raw: JSON.stringify(init) })).status).toBe(415);
    expect((await call('GET', '/mcp')).status).toBe(405);
    expect((await call('DELETE', '/mcp')).status).toBe(405);

    // Operations.
    expect((await call('GET', '/healthz', { token: null })).json).toMatchObject({ ok: true });
    expect((await call('GET', '/readyz', { token: null })).json).toMatchObject({ ok: true });
    expect((await call('HEAD', '/readyz', { token: null })).status).toBe(200);
    expect((await call('GET', '/metrics', { token: null })).text).toContain('weft_');
    expect((await call('GET', '/openapi.json', { token: null })).json.openapi).toMatch(/^3\.1/);

    // Activity: an agent's report, every problem of a bad one listed, read back.
    const activityReport = { kind: 'agent', status: 'active', label: 'Writing the hero' };
    expect((await call('POST', '/v1/drafts/{id}/activity', { token: alice, body: activityReport })).json.activity).toMatchObject({ ...activityReport, actor: 'alice' });
    const bad = await call('POST', '/v1/drafts/{id}/activity', { token: alice, body: { kind: 'mood', status: 'done', label: 'x', chainOfThought: '…' } });
    expect(bad.json.error.errors.length).toBeGreaterThanOrEqual(2);
    expect((await call('POST', '/v1/drafts/{id}/activity', { token: alice, raw: '{"kind"' })).json.error.code).toBe('MALFORMED_JSON');
    expect((await call('POST', '/v1/drafts/{id}/activity', { token: alice, raw: JSON.stringify({ pad: 'x'.repeat(9000) }) })).status).toBe(413);
    expect((await call('POST', '/v1/drafts/{id}/activity', { token: reader, body: activityReport })).status).toBe(403);
    expect((await call('POST', '/v1/drafts/{id}/activity', { params: { id: 'nope' }, body: activityReport })).status).toBe(404);
    expect((await call('GET', '/v1/drafts/{id}/activity', { token: reader })).json.activities.some((a: Json) => a['label'] === activityReport.label)).toBe(true);
    expect((await call('GET', '/v1/drafts/{id}/activity', { params: { id: 'nope' } })).status).toBe(404);
    // The per-actor rate (10 a second by default; the walk's clock is slow, so the window holds).
    const reports: number[] = [];
    for (let i = 0; i < 12; i++) reports.push((await call('POST', '/v1/drafts/{id}/activity', { token: bob, body: { ...activityReport, label: `r${i}` } })).status);
    expect(reports.at(-1)).toBe(429);

    // Webhooks (admin): an endpoint on `page`, a step refused whole queues a delivery for it.
    const hookBody = { url: 'http://127.0.0.1:9/hook', draftId: 'page', eventTypes: ['draft.step.refused'] };
    const hook = await call('POST', '/v1/webhooks', { body: hookBody });
    expect(hook.status).toBe(201);
    expect(hook.json.secret).toMatch(/^whsec_/);
    const hookId = hook.json.endpoint.id as string;
    expect((await call('POST', '/v1/webhooks', { body: { url: 42 } })).json.error.path).toBe('/url');
    expect((await call('POST', '/v1/webhooks', { raw: '{"url"' })).json.error.code).toBe('MALFORMED_JSON');
    expect((await call('POST', '/v1/webhooks', { raw: JSON.stringify({ pad: 'x'.repeat(17 * 1024) }) })).status).toBe(413);
    expect((await call('POST', '/v1/webhooks', { token: alice, body: hookBody })).status).toBe(403);
    expect((await call('POST', '/v1/webhooks', { body: { ...hookBody, draftId: 'nope' } })).status).toBe(404);
    expect((await call('POST', '/v1/webhooks', { body: { url: 'http://user:pw@127.0.0.1:9/' } })).json.error.code).toBe('WEBHOOK_URL_REFUSED');
    expect((await call('GET', '/v1/webhooks')).json.endpoints.map((e: Json) => e['id'])).toContain(hookId);
    expect((await call('GET', '/v1/webhooks', { token: alice })).status).toBe(403);
    expect((await call('GET', '/v1/webhooks/{id}', { params: { id: hookId } })).json.endpoint.url).toBe(hookBody.url);
    expect((await call('GET', '/v1/webhooks/{id}', { params: { id: hookId }, token: alice })).status).toBe(403);
    expect((await call('GET', '/v1/webhooks/{id}', { params: { id: 'nope' } })).status).toBe(404);
    expect((await call('POST', '/v1/webhooks/{id}/enable', { params: { id: hookId } })).json.endpoint.disabledAt).toBeNull();
    expect((await call('POST', '/v1/webhooks/{id}/enable', { params: { id: hookId }, token: alice })).status).toBe(403);
    expect((await call('POST', '/v1/webhooks/{id}/enable', { params: { id: 'nope' } })).status).toBe(404);
    expect((await call('POST', '/v1/webhooks/{id}/rotate', { params: { id: hookId }, body: { overlapSeconds: 60 } })).json.secret).toMatch(/^whsec_/);
    expect((await call('POST', '/v1/webhooks/{id}/rotate', { params: { id: hookId }, body: { overlapSeconds: -1 } })).json.error.path).toBe('/overlapSeconds');
    expect((await call('POST', '/v1/webhooks/{id}/rotate', { params: { id: hookId }, raw: '{' })).json.error.code).toBe('MALFORMED_JSON');
    expect((await call('POST', '/v1/webhooks/{id}/rotate', { params: { id: hookId }, raw: JSON.stringify({ pad: 'x'.repeat(2048) }) })).status).toBe(413);
    expect((await call('POST', '/v1/webhooks/{id}/rotate', { params: { id: hookId }, token: alice, body: {} })).status).toBe(403);
    expect((await call('POST', '/v1/webhooks/{id}/rotate', { params: { id: 'nope' }, body: {} })).status).toBe(404);
    await call('POST', '/v1/drafts/{id}/ops', { body: { opId: 'refused-whole', ops: [{ op: 'add', path: '/__proto__/x', value: 1 }] } });
    let deliveries: Json[] = [];
    for (let i = 0; i < 40 && deliveries.length === 0; i++) {
      deliveries = (await call('GET', '/v1/webhooks/{id}/deliveries', { params: { id: hookId } })).json.deliveries as Json[];
      if (deliveries.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(deliveries.map((d) => d['eventType'])).toEqual(['draft.step.refused']);
    expect((await call('GET', '/v1/webhooks/{id}/deliveries', { params: { id: hookId }, query: '?status=lost' })).json.error.path).toBe('/status');
    expect((await call('GET', '/v1/webhooks/{id}/deliveries', { params: { id: hookId }, token: alice })).status).toBe(403);
    expect((await call('GET', '/v1/webhooks/{id}/deliveries', { params: { id: 'nope' } })).status).toBe(404);
    const retry = { id: hookId, deliveryId: String(deliveries[0]!['id']) };
    expect((await call('POST', '/v1/webhooks/{id}/deliveries/{deliveryId}/retry', { params: retry })).json.delivery.id).toBe(retry.deliveryId);
    expect((await call('POST', '/v1/webhooks/{id}/deliveries/{deliveryId}/retry', { params: retry, token: alice })).status).toBe(403);
    expect((await call('POST', '/v1/webhooks/{id}/deliveries/{deliveryId}/retry', { params: { id: hookId, deliveryId: '999999' } })).status).toBe(404);
    expect((await call('DELETE', '/v1/webhooks/{id}', { params: { id: hookId }, token: alice })).status).toBe(403);
    expect((await call('DELETE', '/v1/webhooks/{id}', { params: { id: hookId } })).json).toEqual({ deleted: hookId });
    expect((await call('DELETE', '/v1/webhooks/{id}', { params: { id: hookId } })).status).toBe(404);
    // Export: the page as a download (html, the default) and React source (JSON).
    expect((await call('GET', '/v1/drafts/{id}/export', { token: reader })).text).toContain('<!doctype html>');
    expect((await call('GET', '/v1/drafts/{id}/export', { query: '?format=react&version=1' })).json).toMatchObject({ draftId: 'page', version: 1, format: 'react' });
    expect((await call('GET', '/v1/drafts/{id}/export', { query: '?format=vue' })).json.error).toMatchObject({ code: 'BAD_REQUEST', path: '/format' });
    expect((await call('GET', '/v1/drafts/{id}/export', { query: '?version=-1' })).json.error).toMatchObject({ code: 'BAD_REQUEST', path: '/version' });
    expect((await call('GET', '/v1/drafts/{id}/export', { query: `?version=${head + 1}` })).status).toBe(404);
    expect((await call('GET', '/v1/drafts/{id}/export', { params: { id: 'nope' } })).status).toBe(404);

    // Agent runs, on a draft of their own: an agent's token opens, reports into and ends them.
    expect((await call('POST', '/v1/drafts', { body: { id: 'crew' } })).status).toBe(201);
    const robo = (await mint('robo', { crew: ['write'] }, 'agent')).json.token as string;
    const watcher = (await mint('wanda', { crew: ['read'] })).json.token as string;
    const onCrew = (o: CallOptions = {}): CallOptions => ({ ...o, params: { id: 'crew', ...o.params } });
    const open = (runId: string, o: CallOptions = {}) => call('POST', '/v1/drafts/{id}/runs', onCrew({ token: robo, body: { runId, brief: 'A bakery' }, ...o }));
    const report = (runId: string, events: unknown[], o: CallOptions = {}) => call('POST', '/v1/drafts/{id}/runs/{runId}/events', onCrew({ token: robo, body: { events }, ...o, params: { runId, ...o.params } }));
    const r1 = await open('r1', { body: { runId: 'r1', brief: ' A bakery ', scope: { sectionId: 'hero' }, model: 'm' } });
    expect(r1.json).toMatchObject({ runId: 'r1', status: 'running', actor: 'robo', brief: 'A bakery', scope: { sectionId: 'hero' }, model: 'm' });
    expect((await open('r1')).json.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await open('x', { body: { runId: '../x', brief: 'x' } })).json.error).toMatchObject({ code: 'BAD_REQUEST', path: '/runId' });
    expect((await open('x', { body: { runId: 'x', brief: 'x', scope: 5 } })).json.error).toMatchObject({ code: 'BAD_REQUEST', path: '/scope/sectionId' });
    expect((await open('x', { raw: '{"runId":' })).json.error.code).toBe('MALFORMED_JSON');
    expect((await open('x', { raw: JSON.stringify({ runId: 'x', brief: 'x', pad: 'x'.repeat(64 * 1024) }) })).status).toBe(413);
    expect((await open('x', { token: watcher })).status).toBe(403);
    expect((await open('x', { token: ADMIN, params: { id: 'nope' } })).status).toBe(404);
    // 8 runs may stream on a draft at once: r1 and 7 more, then the 9th is refused.
    for (let i = 2; i <= 8; i++) expect((await open(`r${i}`)).status).toBe(201);
    expect((await open('r9')).json.error.code).toBe('RATE_LIMITED');
    for (let i = 2; i <= 8; i++) expect((await report(`r${i}`, [{ type: 'RUN_FINISHED' }])).json.summary).not.toBeNull();

    const hello = [{ type: 'TEXT_MESSAGE_START', messageId: 'n1', role: 'assistant' }, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n1', delta: 'Hello' }, { type: 'TEXT_MESSAGE_END', messageId: 'n1' }];
    expect((await report('r1', hello)).json).toMatchObject({ cancel: false, summary: null });
    const refused = await report('r1', [{ type: 'TEXT_MESSAGE_START', messageId: 'n2', role: 'user' }, { type: 'NOPE' }]);
    expect(refused.json.error.errors.map((e: Json) => e['path'])).toEqual(['/events/0/role', '/events/1/type']);
    expect((await report('r1', [], { raw: '{"events":[' })).json.error.code).toBe('MALFORMED_JSON');
    expect((await report('r1', [], { raw: JSON.stringify({ events: [], pad: 'x'.repeat(1024 * 1024) }) })).status).toBe(413);
    expect((await report('r1', [], { token: watcher })).status).toBe(403);
    expect((await report('r1', [], { token: ADMIN })).status).toBe(404); // the admin did not open it
    expect((await call('POST', '/v1/drafts/{id}/runs/{runId}/cancel', onCrew({ token: watcher, params: { runId: 'r1' } }))).status).toBe(403);
    expect((await call('POST', '/v1/drafts/{id}/runs/{runId}/cancel', onCrew({ params: { runId: 'r1' } }))).json).toEqual({ runId: 'r1', cancelRequested: true });
    expect((await call('POST', '/v1/drafts/{id}/runs/{runId}/cancel', onCrew({ params: { runId: 'none' } }))).status).toBe(404);
    expect((await report('r1', [{ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } }])).json.cancel).toBe(true);
    expect((await report('r1', [])).status).toBe(404); // ended: no longer running
    // A report that reached the route while the run was open, and was read after the report that
    // ended it, answers 410: its body is held back until that report is answered.
    expect((await open('r10')).status).toBe(201);
    let release: (() => void) | undefined;
    const held = new ReadableStream<Uint8Array>({
      start: (c) => {
        c.enqueue(new TextEncoder().encode('{"events":')); // fetch sends the request with its first chunk
        release = () => { c.enqueue(new TextEncoder().encode('[]}')); c.close(); };
      },
    });
    const late = report('r10', [], { stream: held });
    await call('GET', '/v1/drafts/{id}/runs/{runId}', onCrew({ token: watcher, params: { runId: 'r10' } })); // a round trip: the late report has reached its route by now
    expect((await report('r10', [{ type: 'RUN_FINISHED' }])).status).toBe(200);
    release!();
    expect((await late).json.error.code).toBe('SESSION_CLOSED');

    const listed = await call('GET', '/v1/drafts/{id}/runs', onCrew({ token: watcher }));
    expect(listed.json.runs.find((r: Json) => r['runId'] === 'r1')).toMatchObject({ status: 'cancelled', cancelRequested: true });
    expect((await call('GET', '/v1/drafts/{id}/runs', { params: { id: 'nope' } })).status).toBe(404);
    expect((await call('GET', '/v1/drafts/{id}/runs/{runId}', onCrew({ token: watcher, params: { runId: 'r1' } }))).json.events.map((e: Json) => e['type']))
      .toEqual(['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'RUN_FINISHED']);
    expect((await call('GET', '/v1/drafts/{id}/runs/{runId}', onCrew({ params: { runId: 'none' } }))).status).toBe(404);
    expect((await call('GET', '/v1/drafts/{id}/runs/{runId}/stream', onCrew({ token: watcher, params: { runId: 'r1' } }))).text).toContain('event: delta');
    expect((await call('GET', '/v1/drafts/{id}/runs/{runId}/stream', onCrew({ params: { runId: 'none' } }))).status).toBe(404);

    // Deletion last (admin only), then the draft is gone.
    expect((await call('DELETE', '/v1/drafts/{id}', { token: alice })).status).toBe(403);
    expect((await call('DELETE', '/v1/drafts/{id}')).json).toEqual({ deleted: 'page' });
    expect((await call('DELETE', '/v1/drafts/{id}')).status).toBe(404);

    // Without a token, every route that needs one answers the documented 401.
    for (const [template, ops] of Object.entries(doc['paths'] as Record<string, Json>)) {
      for (const [method, op] of Object.entries(ops)) {
        if ((op['security'] as unknown[]).length === 0) continue;
        expect((await call(method.toUpperCase(), template, { token: null, ...(method === 'post' ? { body: {} } : {}) })).status, `${method} ${template}`).toBe(401);
      }
    }

    // Coverage: every status every route documents was produced above (or is listed, with why not).
    const missing: string[] = [];
    for (const [template, ops] of Object.entries(doc['paths'] as Record<string, Json>)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const status of Object.keys(op['responses'] as Json)) {
          const key = `${method.toUpperCase()} ${template} ${status}`;
          if (status !== 'default' && !seen.has(key) && !(key in NOT_WALKED)) missing.push(key);
        }
      }
    }
    expect(missing).toEqual([]);
  }, 120_000);

  it('unknown paths answer 404 and known paths with another method 400, typed', async () => {
    const miss = await fetch(`${s.url}/v1/nothing`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect([miss.status, ((await miss.json()) as Json)['error']['code']]).toEqual([404, 'NOT_FOUND']);
    const wrong = await fetch(`${s.url}/v1/drafts`, { method: 'PUT', headers: { authorization: `Bearer ${ADMIN}` } });
    expect([wrong.status, ((await wrong.json()) as Json)['error']]).toEqual([400, { code: 'BAD_REQUEST', message: 'Method PUT is not allowed on /v1/drafts.' }]);
    // The old router's segment matching: a trailing or doubled slash reaches the same route.
    expect((await fetch(`${s.url}/v1//drafts/`, { headers: { authorization: `Bearer ${ADMIN}` } })).status).toBe(200);
  });
});
