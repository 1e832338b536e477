// The OpenAPI 3.1 document of the session's HTTP API, built from the routes' own specs (the zod
// schemas that validate requests), never written by hand. docs/openapi.json is this output;
// test/openapi.int.test.ts fails when it is stale or a route has no spec.
import { z } from 'zod';
import { ErrorCode } from '@weft/core';
import type { Access, ResponseSpec, RouteEntry, RouteSpec } from './router.ts';
import { RefusalKind, RuleName } from './schemas.ts';

type Json = Record<string, unknown>;

const SECURITY: Record<Access, Json[]> = {
  public: [],
  bearer: [{ bearer: [] }],
  admin: [{ bearer: [] }],
  'bearer-or-ticket': [{ bearer: [] }, { ticket: [] }],
};

const TAGS: Record<string, string> = {
  drafts: 'Drafts: create, read (any version), diff, delete.',
  ops: 'JSON Patch ops through the validation pipeline, the log, undo and redo.',
  sessions: 'Build sessions and agent turns.',
  stream: 'The live AG-UI stream over SSE.',
  runs: 'Agent runs: a model-driven turn as one AG-UI run, its transcript kept.',
  actions: 'Reader actions from live pages (A2UI v0.9 client→server messages).',
  tokens: 'Bearer tokens and their scopes.',
  mcp: 'The Model Context Protocol over streamable HTTP.',
  operations: 'Liveness, readiness, metrics and this document.',
};

/** `/v1/drafts/:id` → `/v1/drafts/{id}` and the parameter names. */
export function openApiPath(pattern: string): { path: string; names: string[] } {
  const names: string[] = [];
  const path = pattern.replace(/:([A-Za-z0-9_]+)/g, (_, n: string) => { names.push(n); return `{${n}}`; });
  return { path, names };
}

/** Routes registered without a spec: absent from the document (the drift test lists them). */
export function undocumented(routes: readonly RouteEntry[]): string[] {
  return routes.filter((r) => r.spec === undefined).map((r) => `${r.method} ${r.pattern}`);
}

export function openApiDocument(routes: readonly RouteEntry[]): Json {
  const schemas: Record<string, unknown> = {};
  const toSchema = (s: z.ZodType, io: 'input' | 'output'): Json => {
    const js = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
    const { $schema: _s, $defs, ...rest } = js;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
      // zod names a recursive schema without an id `__schemaN`, per call: name it (`.meta({ id })`).
      if (id.startsWith('__schema')) throw new Error(`OpenAPI: a recursive schema without a name (${JSON.stringify(def).slice(0, 120)})`);
      const d = refs(def);
      const seen = schemas[id];
      if (seen !== undefined && JSON.stringify(seen) !== JSON.stringify(d)) throw new Error(`OpenAPI: two different schemas are named ${id}`);
      schemas[id] = d;
    }
    return refs(rest) as Json;
  };

  toSchema(ErrorBody, 'output'); // a component: every `default` response points at it
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (!r.spec) continue;
    const { path, names } = openApiPath(r.pattern);
    (paths[path] ??= {})[r.method.toLowerCase()] = operation(r, r.spec, names, toSchema);
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.1',
    info: {
      title: 'Weft session API',
      version: '1',
      description: 'Every error is `{ "error": { "code", "message", "path"?, … } }` with the status of its code (docs/errors.md). '
        + 'An unknown path answers 404 NOT_FOUND, a known path with another method 400 BAD_REQUEST. '
        + 'The Yjs WebSocket (`/collab`) is described in docs/api.md.',
    },
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths: sorted,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A token from POST /v1/tokens (or the admin token); never in a URL.' },
        ticket: { type: 'apiKey', in: 'query', name: 'ticket', description: 'A preview ticket (live pages send reader actions with it).' },
      },
    },
  };
}

function operation(r: RouteEntry, spec: RouteSpec, names: string[], toSchema: (s: z.ZodType, io: 'input' | 'output') => Json): Json {
  const parameters: Json[] = names.map((n) => ({
    name: n, in: 'path', required: true,
    ...(spec.params?.[n] ? { description: spec.params[n].description } : {}),
    schema: { type: 'string', ...(spec.params?.[n]?.pattern ? { pattern: spec.params[n].pattern } : {}) },
  }));
  if (spec.query) {
    const q = toSchema(spec.query, 'input');
    const required = new Set((q['required'] ?? []) as string[]);
    for (const [name, schema] of Object.entries((q['properties'] ?? {}) as Record<string, Json>)) {
      const { description, ...rest } = schema;
      parameters.push({ name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema: rest });
    }
  }
  const responses: Record<string, Json> = {};
  const codes = new Set<ErrorCode>([...(spec.access !== 'public' ? ['UNAUTHORIZED' as const] : []), ...(spec.body ? BODY_ERRORS : []), ...(spec.errors ?? [])]);
  const all = { ...errorResponses([...codes]), ...spec.responses };
  for (const [status, res] of Object.entries(all).sort(([a], [b]) => Number(a) - Number(b))) {
    const content: Record<string, Json> = {};
    if (res.schema) content['application/json'] = { schema: toSchema(res.schema, 'output') };
    for (const [type, s] of Object.entries(res.media ?? {})) content[type] = s ? { schema: toSchema(s, 'output') } : {};
    responses[status] = { description: res.description, ...(Object.keys(content).length > 0 ? { content } : {}) };
  }
  responses['default'] = { description: 'INTERNAL (500) or UNAVAILABLE (503, retry with the same opId).', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };
  return {
    operationId: operationId(r),
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: spec.tags,
    security: SECURITY[spec.access],
    'x-weft-access': spec.access,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.body ? { requestBody: { required: false, content: { 'application/json': { schema: toSchema(spec.body, 'input') } } } } : {}),
    responses,
  };
}

const BasePayload = z.looseObject({
  code: z.enum(Object.keys(ErrorCode) as [ErrorCode, ...ErrorCode[]]),
  message: z.string().meta({ description: 'What went wrong and what to do, for a person or a model.' }),
  path: z.string().optional().meta({ description: 'JSON Pointer of the offending value (request body, query parameter or draft path).' }),
});
/** A VALIDATION_FAILED payload may name its rule, and then always its kind (WeftError derives it). */
const RULE_FIELDS = {
  rule: RuleName.optional(),
  kind: RefusalKind.optional().meta({ description: 'Present with `rule`: `RULE_KIND[rule]`.' }),
};
const WITH_RULE = { dependentRequired: { rule: ['kind'] } };
const ErrorPayload = BasePayload.extend(RULE_FIELDS)
  .meta({ id: 'ErrorPayload', description: 'The code of docs/errors.md and its fields (`currentVersion`, `limit`, `rule` with its `kind`, `retryAfterMs`, …).', ...WITH_RULE });
const ErrorBody = z.object({ error: ErrorPayload }).meta({ id: 'ErrorBody' });

/** What reading a JSON body can answer before the route's schema sees it (and the schema's own 400). */
const BODY_ERRORS: ErrorCode[] = ['BAD_REQUEST', 'MALFORMED_JSON', 'PAYLOAD_TOO_LARGE'];

/** Error responses grouped by HTTP status, each body's code pinned to the codes of its group. */
function errorResponses(codes: ErrorCode[]): Record<number, ResponseSpec> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of Object.keys(ErrorCode) as ErrorCode[]) {
    if (codes.includes(c)) byStatus.set(ErrorCode[c].status, [...(byStatus.get(ErrorCode[c].status) ?? []), c]);
  }
  const out: Record<number, ResponseSpec> = {};
  for (const [status, list] of byStatus) {
    out[status] = {
      description: list.map((c) => `${c}: ${ErrorCode[c].message}`).join(' '),
      schema: z.object({
        error: list.includes('VALIDATION_FAILED')
          ? BasePayload.extend({ code: z.enum(list as [ErrorCode, ...ErrorCode[]]), ...RULE_FIELDS }).meta(WITH_RULE)
          : BasePayload.extend({ code: z.enum(list as [ErrorCode, ...ErrorCode[]]) }),
      }),
    };
  }
  return out;
}

/** `POST /v1/drafts/:id/ops` → `postV1DraftsIdOps`. */
function operationId(r: RouteEntry): string {
  const words = r.pattern.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return r.method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** `#/$defs/X` (zod's per-schema definitions) → `#/components/schemas/X`. */
function refs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(refs);
  if (typeof v !== 'object' || v === null) return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) {
    out[k] = k === '$ref' && typeof x === 'string' ? x.replace('#/$defs/', '#/components/schemas/') : refs(x);
  }
  return out;
}
