// Every documented request body, fuzzed over HTTP (fast-check): JSON of any shape, near-valid
// bodies, broken and deeply nested text. Each answer is a status the route documents with a body
// that passes the document's schema (typed 4xx, never a 5xx), and the server stays up.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsExtension } from '../src/actions/extension.ts';
import { collabExtension } from '../src/collab/collab.ts';
import { mcpExtension } from '../src/mcp/extension.ts';
import { heroSection, startTestSession } from './helpers.ts';
import type { TestSession } from './helpers.ts';
import { contract, DOC_FILE } from './openapi-contract.ts';
import type { Json } from './openapi-contract.ts';

const doc = JSON.parse(readFileSync(DOC_FILE, 'utf8')) as Json;
const withBodies = Object.entries(doc['paths'] as Record<string, Json>)
  .flatMap(([template, ops]) => Object.entries(ops).filter(([, op]) => op['requestBody']).map(([method]) => [method.toUpperCase(), template] as const));

const KEYS = ['opId', 'ops', 'op', 'path', 'value', 'id', 'title', 'actor', 'kind', 'scopes', 'ttlSeconds', 'scope', 'action', 'name', 'surfaceId', 'sourceComponentId', 'timestamp', 'context', '__proto__', 'constructor'];
const json = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('human', 'hero', 'title', 'read', 'p-1', '2026-12-01T15:00:00Z')), { maxKeys: 5 }),
).map((v) => JSON.stringify(v) ?? 'null');
const raw = fc.oneof(
  fc.string({ maxLength: 200 }),
  json.chain((t) => fc.nat({ max: t.length }).map((n) => t.slice(0, n))),
  fc.nat({ max: 400 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.constantFrom('{"__proto__":{"admin":true}}', '{"opId":"x","ops":[{"op":"add","path":"/__proto__/a","value":1}]}', '\u0000', '{"title":"\\ud800"}'),
);

describe('request bodies under fuzz', () => {
  let s: TestSession;
  beforeAll(async () => {
    s = await startTestSession({ opsPerSecond: 100_000 }, undefined, () => [collabExtension(), mcpExtension(), actionsExtension({ perSecond: 100_000 })]);
    await s.admin.createDraft('page');
    await s.admin.submit('page', { opId: 'seed', ops: [{ op: 'add', path: '/sections/hero', value: heroSection('hero') }] });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('covers the routes that take a body', () => {
    expect(withBodies.map(([m, t]) => `${m} ${t}`)).toEqual(expect.arrayContaining(['POST /v1/drafts', 'POST /v1/drafts/{id}/ops', 'POST /v1/tokens', 'POST /v1/drafts/{id}/actions']));
  });

  for (const [method, template] of withBodies) {
    it(`${method} ${template}: a documented answer for any body, never a 5xx`, async () => {
      const { call } = contract(doc, s.url);
      await fc.assert(fc.asyncProperty(fc.oneof(json, raw), async (body) => {
        const a = await call(method, template, { raw: body, params: { id: 'page', turnId: 't' } });
        expect(a.status, body).toBeLessThan(500);
      }), { numRuns: 60 });
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    }, 60_000);
  }
});
