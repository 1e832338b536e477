import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import type { HTTPMethod } from 'find-my-way';
import type { ErrorCode } from '@weft/core';
import type { z } from 'zod';
import { readJson } from './respond.ts';
import { parseWith } from '../commands/validate.ts';

/** What every handler gets: node's own req/res (SSE, MCP and proxies write to them directly). */
export interface RequestContext<B = unknown, Q = Record<string, string>> {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  url: URL;
  /** Reads the JSON body (size-capped) and validates it with the route's `body` schema: a typed 400 otherwise. */
  body(): Promise<B>;
  /** The query string validated with the route's `query` schema (without one: the raw first values). */
  query(): Q;
}
export type Handler<B = unknown, Q = Record<string, string>> = (ctx: RequestContext<B, Q>) => Promise<void>;

/** Who may call a route, as the OpenAPI document states it (the handler still checks). */
export type Access = 'public' | 'bearer' | 'admin' | 'bearer-or-ticket';

/** One response of a route: a JSON body's schema and/or other media types (SSE, NDJSON, Prometheus text; null: text the description explains). */
export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  media?: Record<string, z.ZodType | null>;
}

/**
 * A route's contract: validation (body, query) and the OpenAPI document come from these schemas
 * alone. `errors` are the codes the handler throws; the document adds UNAUTHORIZED for routes
 * with a token, and the body reader's (BAD_REQUEST, MALFORMED_JSON, PAYLOAD_TOO_LARGE) for bodies.
 */
export interface RouteSpec<B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType> {
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  /** Path parameters' documentation (matching stays plain strings: a bad id answers 404 as before). */
  params?: Record<string, { description: string; pattern?: string }>;
  query?: Q;
  body?: B;
  /** The body's size cap in bytes (default: the router's, `WEFT_MAX_BODY_BYTES`). */
  bodyLimit?: number;
  /** Successes, and answers that are not the error envelope (MCP's JSON-RPC errors, a 503 health body). */
  responses: Record<number, ResponseSpec>;
  errors?: ErrorCode[];
}

export interface RouteEntry {
  method: string;
  pattern: string;
  handler: Handler<never, never>;
  spec: RouteSpec | undefined;
}

export type Match = { route: RouteEntry; params: Record<string, string> };

/**
 * The session's HTTP routes on find-my-way (Fastify's radix router) with node's req/res kept.
 * `on(method, pattern, handler, spec?)` is the whole registration API; a route registered
 * without a spec works, but the OpenAPI drift test fails until it is documented.
 */
export class Router {
  private readonly fmw = FindMyWay({
    // The hand-written router matched on non-empty segments: `/v1/drafts/` and `/v1//drafts` too.
    // (Registering the same method and path twice throws here, where the old one kept the first.)
    ignoreTrailingSlash: true,
    ignoreDuplicateSlashes: true,
    // Ids in paths are bounded by their own rules (404 when not found), not by the router.
    maxParamLength: 8192,
  });
  private readonly entries: RouteEntry[] = [];
  private readonly methods = new Set<string>();

  private readonly maxBodyBytes: number;

  /** `maxBodyBytes`: the body cap of routes that set none (`WEFT_MAX_BODY_BYTES`). */
  constructor(maxBodyBytes = 1024 * 1024) {
    this.maxBodyBytes = maxBodyBytes;
  }

  on<B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodType<Record<string, string>>>(
    method: string, pattern: string, handler: Handler<z.output<B>, z.output<Q>>, spec?: RouteSpec<B, Q>,
  ): this {
    const entry: RouteEntry = { method, pattern, handler: handler as Handler<never, never>, spec };
    this.fmw.on(method as HTTPMethod, pattern, () => undefined, entry);
    this.entries.push(entry);
    this.methods.add(method);
    return this;
  }

  /** The route for a request; 'method' when the path exists under other methods only. */
  match(method: string, pathname: string): Match | 'method' | null {
    const found = this.fmw.find(method as HTTPMethod, pathname);
    if (found) return { route: found.store as RouteEntry, params: found.params as Record<string, string> };
    for (const m of this.methods) if (m !== method && this.fmw.find(m as HTTPMethod, pathname)) return 'method';
    return null;
  }

  /** Runs a matched route with its validation helpers. */
  run(m: Match, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const spec = m.route.spec;
    const limit = spec?.bodyLimit ?? this.maxBodyBytes;
    const ctx: RequestContext<unknown, unknown> = {
      req, res, params: m.params, url,
      body: async () => {
        const raw = await readJson(req, limit);
        return spec?.body ? parseWith(spec.body, raw) : raw;
      },
      query: () => {
        // Own keys only (a `__proto__` parameter is a key like any other); the first value wins.
        const raw = Object.create(null) as Record<string, string>;
        for (const [k, v] of url.searchParams) if (!Object.hasOwn(raw, k)) raw[k] = v;
        return spec?.query ? parseWith(spec.query, raw) : raw;
      },
    };
    return (m.route.handler as Handler<unknown, unknown>)(ctx);
  }

  /** Every registered route, in registration order (the OpenAPI builder and its drift test). */
  routes(): readonly RouteEntry[] {
    return this.entries;
  }
}
