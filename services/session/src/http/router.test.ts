// The router keeps the hand-written one's matching (what clients and tests relied on) and adds
// validation helpers; the OpenAPI builder documents exactly the routes that have a spec.
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WeftError } from '../commands/errors.ts';
import { openApiDocument, undocumented } from './openapi.ts';
import { Router } from './router.ts';
import type { Match } from './router.ts';

const noop = async (): Promise<void> => {};

describe('Router', () => {
  const r = new Router()
    .on('GET', '/v1/drafts', noop)
    .on('GET', '/v1/drafts/:id', noop)
    .on('POST', '/v1/drafts/:id/turns/:turnId/finish', noop);
  const params = (m: ReturnType<Router['match']>): Record<string, string> | string | null => (m === null || m === 'method' ? m : { ...m.params });

  it('matches segments as the hand-written router did', () => {
    expect(params(r.match('GET', '/v1/drafts/home'))).toEqual({ id: 'home' });
    expect(params(r.match('GET', '/v1/drafts/'))).toEqual({});
    expect(params(r.match('GET', '/v1//drafts'))).toEqual({});
    expect(params(r.match('GET', '/v1/drafts/a%2Fb'))).toEqual({ id: 'a/b' });
    expect(params(r.match('POST', '/v1/drafts/d/turns/t-1/finish'))).toEqual({ id: 'd', turnId: 't-1' });
    expect(params(r.match('GET', `/v1/drafts/${'x'.repeat(300)}`))).toEqual({ id: 'x'.repeat(300) });
  });

  it('answers null for an unknown path (404) and "method" for a known one under another method (400)', () => {
    expect(r.match('GET', '/v1/nothing')).toBeNull();
    expect(r.match('GET', '/v1/drafts/%E0%A4%A')).toBeNull();
    expect(r.match('DELETE', '/v1/drafts/home')).toBe('method');
    expect(r.match('HEAD', '/v1/drafts')).toBe('method');
  });

  it('validates the body and the query with the route schema where the handler reads them', async () => {
    let seen: unknown;
    const v = new Router().on('POST', '/t', async ({ body, query }) => {
      seen = { q: query(), b: await body() };
    }, {
      summary: 's', tags: ['t'], access: 'public', query: z.object({ n: z.string().regex(/^\d+$/, { error: 'n must be digits.' }).optional() }),
      body: z.object({ name: z.string({ error: 'name must be a string.' }) }), responses: { 200: { description: 'ok' } },
    });
    const run = (url: string, text: string) => {
      const req = Object.assign([Buffer.from(text)], { headers: { 'content-length': String(text.length) }, resume() {} });
      return v.run(v.match('POST', '/t') as Match, req as never, {} as never, new URL(url, 'http://x'));
    };
    await run('/t?n=1&n=2&__proto__=3', '{"name":"a","extra":1}');
    expect(seen).toEqual({ q: { n: '1' }, b: { name: 'a' } });
    const refused = await run('/t', '{"name":5}').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WeftError);
    expect((refused as WeftError).toPayload()).toEqual({ code: 'BAD_REQUEST', message: 'name must be a string.', path: '/name' });
    expect(((await run('/t?n=x', '{}').catch((e: unknown) => e)) as WeftError).toPayload()).toMatchObject({ path: '/n' });
  });
});

describe('openApiDocument', () => {
  const r = new Router()
    .on('POST', '/v1/things/:id', noop, {
      summary: 'Make a thing', tags: ['things'], access: 'bearer', body: z.object({ n: z.int() }),
      errors: ['NOT_FOUND', 'VERSION_CONFLICT', 'IDEMPOTENCY_CONFLICT'], responses: { 201: { description: 'Made.', schema: z.object({ id: z.string() }) } },
    })
    .on('GET', '/public', noop, { summary: 'Public', tags: ['things'], access: 'public', responses: { 200: { description: 'ok', media: { 'text/plain': null } } } })
    .on('GET', '/v1/forgotten', noop);

  it('lists the routes without a spec (the drift test fails on them) and leaves them out', () => {
    expect(undocumented(r.routes())).toEqual(['GET /v1/forgotten']);
    expect(Object.keys(openApiDocument(r.routes())['paths'] as object)).toEqual(['/public', '/v1/things/{id}']);
  });

  it('adds 401 for token routes and the body reader\'s errors, grouped by status with the codes pinned', async () => {
    const doc = openApiDocument(r.routes()) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { properties: { error: { properties: { code: { enum: string[] } } } } } }> }>; parameters: unknown[] }>> };
    const op = doc.paths['/v1/things/{id}']!['post']!;
    const codes = (status: string) => op.responses[status]!.content!['application/json']!.schema.properties.error.properties.code.enum;
    expect(Object.keys(op.responses)).toEqual(['201', '400', '401', '404', '409', '413', 'default']);
    expect(codes('400')).toEqual(['BAD_REQUEST', 'MALFORMED_JSON']);
    expect(codes('409')).toEqual(['VERSION_CONFLICT', 'IDEMPOTENCY_CONFLICT']);
    expect(op.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(Object.keys(doc.paths['/public']!['get']!.responses)).toEqual(['200', 'default']);
    const checked = await validate(structuredClone(doc) as never);
    expect(checked.valid).toBe(true);
  });

  it('refuses a recursive schema without a name (zod would call it __schemaN, differently per route)', () => {
    const Tree: z.ZodType<{ kids: unknown[] }> = z.object({ kids: z.array(z.lazy(() => Tree)) });
    const twice = new Router().on('GET', '/x', noop, { summary: 's', tags: [], access: 'public', responses: { 200: { description: 'd', schema: z.object({ tree: Tree }) } } });
    expect(() => openApiDocument(twice.routes())).toThrow(/without a name/);
  });
});
