// Calls routes of a running session the way the OpenAPI document says and checks each answer
// against it: the status is documented for the route, the media type too, and a JSON body passes
// the document's own schema (ajv, draft 2020-12). Records "METHOD /template status" seen.
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { expect } from 'vitest';
import { ADMIN } from './helpers.ts';

export const DOC_FILE = new URL('../../../docs/openapi.json', import.meta.url);
export type Json = Record<string, any>;
export type Answer = { status: number; type: string; text: string; json: any };
export interface CallOptions {
  params?: Record<string, string>; token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string>; query?: string;
  /** A body sent as it is written (the request reaches the route before its body ends). */
  stream?: ReadableStream<Uint8Array>;
}
export interface Contract {
  call(method: string, template: string, o?: CallOptions): Promise<Answer>;
  seen: Set<string>;
}

export function contract(doc: Json, baseUrl: string): Contract {
  const seen = new Set<string>();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: under Node's ESM its plugin is the default export's `default`.
  (formats as unknown as { default: (a: Ajv2020) => void }).default(ajv);
  ajv.addSchema(doc, 'openapi');

  /** Calls a documented route and checks the answer against the document; records what was seen. */
  async function call(method: string, template: string, o: CallOptions = {}): Promise<Answer> {
    const path = template.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(o.params?.[n] ?? 'page'));
    const headers: Record<string, string> = { ...o.headers };
    const token = o.token === undefined ? ADMIN : o.token;
    if (token !== null) headers['authorization'] = `Bearer ${token}`;
    const body = o.stream ?? o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const ac = new AbortController();
    const res = await fetch(`${baseUrl}${path}${o.query ?? ''}`, { method, headers, body: body ?? null, signal: ac.signal, ...(o.stream ? { duplex: 'half' } : {}) } as RequestInit);
    const type = res.headers.get('content-type') ?? '';
    let text = '';
    if (type.startsWith('text/event-stream')) {
      // A live stream: its first frame is enough.
      const reader = res.body!.getReader();
      text = new TextDecoder().decode((await reader.read()).value);
      ac.abort();
    } else {
      text = await res.text();
    }
    const answer: Answer = { status: res.status, type, text, json: type.startsWith('application/json') && text ? JSON.parse(text) : undefined };
    conforms(method, template, answer);
    return answer;
  }

  function conforms(method: string, template: string, a: Answer): void {
    const op = doc['paths'][template]?.[method.toLowerCase()] as Json | undefined;
    const where = `${method} ${template} → ${a.status} ${a.text.slice(0, 300)}`;
    expect(op, where).toBeDefined();
    const documented = op!['responses'][String(a.status)] as Json | undefined;
    expect(documented, `undocumented status: ${where}`).toBeDefined();
    seen.add(`${method} ${template} ${a.status}`);
    const content = (documented!['content'] ?? {}) as Record<string, Json>;
    if (method === 'HEAD' || Object.keys(content).length === 0) return;
    const media = Object.keys(content).find((m) => a.type.startsWith(m));
    expect(media, `content-type ${a.type} not documented: ${where}`).toBeDefined();
    if (media === 'application/json' && content[media]!['schema']) {
      const pointer = ['paths', template, method.toLowerCase(), 'responses', String(a.status), 'content', media, 'schema']
        .map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
      const check = ajv.getSchema(`openapi#/${pointer}`)!;
      expect(check(a.json), `${where}\n${JSON.stringify(check.errors, null, 1)}`).toBe(true);
    }
    if (media === 'application/x-ndjson') {
      const step = ajv.getSchema('openapi#/components/schemas/StepView')!;
      for (const line of a.text.split('\n').filter(Boolean)) expect(step(JSON.parse(line)), `${where}\n${JSON.stringify(step.errors)}`).toBe(true);
    }
  }

  return { call, seen };
}
