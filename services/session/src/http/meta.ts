import type { Probes } from '@weft/ops';
import { z } from 'zod';
import { openApiDocument } from './openapi.ts';
import { sendJsonText } from './respond.ts';
import type { Router } from './router.ts';
import { Readiness } from './schemas.ts';

/** `GET|HEAD /readyz`: the database and the bus answer (compose's health checks use it). */
export function registerProbes(router: Router, probe: Probes): void {
  for (const method of ['GET', 'HEAD'] as const) {
    router.on(method, '/readyz', async ({ req, res }) => {
      probe.handle(req, res);
    }, {
      summary: 'Readiness: the database and the bus answer', tags: ['operations'], access: 'public',
      responses: { 200: { description: 'Ready.', schema: Readiness }, 503: { description: 'A check failed (it is false).', schema: Readiness } },
    });
  }
}

/** `GET /openapi.json`: this API's OpenAPI 3.1 document, built once from the routes' specs. */
export function registerOpenApi(router: Router): void {
  let text: string | undefined;
  router.on('GET', '/openapi.json', async ({ res }) => {
    text ??= JSON.stringify(openApiDocument(router.routes()));
    sendJsonText(res, 200, text);
  }, {
    summary: 'This OpenAPI 3.1 document (also docs/openapi.json)', tags: ['operations'], access: 'public',
    responses: { 200: { description: 'The document.', schema: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }) } },
  });
}
