// The props panel's fields, read from a catalog entry's JSON Schema (docs/catalog.md): what kind
// of control each prop gets and how the typed value is read back. Pure: no DOM.
import type { Json } from '@weft/core';

export type FieldKind = 'text' | 'longtext' | 'number' | 'integer' | 'enum' | 'boolean' | 'url' | 'action' | 'json';
export interface FieldSpec {
  name: string;
  kind: FieldKind;
  required: boolean;
  bindable: boolean;
  options?: string[];
  min?: number;
  max?: number;
  dflt?: Json;
}

type Schema = { [k: string]: unknown };
const LONG = new Set(['text', 'source', 'quote', 'answer']);

/** The literal branch of a bindable prop (`anyOf: [literal, binding, call]`), else the schema. */
function literal(s: Schema): Schema {
  if (s['x-bindable'] === true && Array.isArray(s['anyOf'])) return (s['anyOf'][0] ?? {}) as Schema;
  return s;
}

export function fieldOf(name: string, schema: Schema, required: boolean): FieldSpec {
  const bindable = schema['x-bindable'] === true;
  const lit = literal(schema);
  const base = { name, required, bindable, ...(lit['default'] !== undefined ? { dflt: lit['default'] as Json } : {}) };
  if (lit['x-action'] === true) return { ...base, kind: 'action' };
  if (Array.isArray(lit['enum'])) return { ...base, kind: 'enum', options: (lit['enum'] as unknown[]).map(String) };
  if (lit['x-url'] !== undefined) return { ...base, kind: 'url' };
  const t = lit['type'];
  if (t === 'string') return { ...base, kind: LONG.has(name) ? 'longtext' : 'text' };
  if (t === 'boolean') return { ...base, kind: 'boolean' };
  if (t === 'number' || t === 'integer') {
    return { ...base, kind: t, ...(typeof lit['minimum'] === 'number' ? { min: lit['minimum'] } : {}), ...(typeof lit['maximum'] === 'number' ? { max: lit['maximum'] } : {}) };
  }
  return { ...base, kind: 'json' };
}

/** Every prop of an entry, required ones first, in schema order otherwise. */
export function fieldsOf(props: Schema): FieldSpec[] {
  const req = new Set(Array.isArray(props['required']) ? (props['required'] as string[]) : []);
  const all = Object.entries((props['properties'] ?? {}) as Record<string, Schema>).map(([k, s]) => fieldOf(k, s, req.has(k)));
  return [...all.filter((f) => f.required), ...all.filter((f) => !f.required)];
}

export const isBindingValue = (v: unknown): v is { path: string } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { path?: unknown }).path === 'string' && Object.keys(v).length === 1;

export type Parsed = { ok: true; value: Json | undefined } | { ok: false; message: string };

/**
 * What the control's text means for this field: `undefined` removes an optional prop. Only the
 * shape is checked here (a number is a number, JSON parses); the server judges the rest.
 */
export function parseInput(f: FieldSpec, raw: string | boolean): Parsed {
  if (typeof raw === 'boolean') return { ok: true, value: raw };
  switch (f.kind) {
    case 'number':
    case 'integer': {
      if (raw.trim() === '') return { ok: true, value: undefined };
      const n = Number(raw);
      if (!Number.isFinite(n)) return { ok: false, message: 'Not a number.' };
      if (f.kind === 'integer' && !Number.isInteger(n)) return { ok: false, message: 'Must be a whole number.' };
      return { ok: true, value: n };
    }
    case 'enum':
      return { ok: true, value: raw === '' ? undefined : raw };
    case 'action':
    case 'json':
      if (raw.trim() === '') return { ok: true, value: undefined };
      try { return { ok: true, value: JSON.parse(raw) as Json }; } catch (e) { return { ok: false, message: `Not valid JSON: ${(e as Error).message}` }; }
    default:
      return { ok: true, value: raw === '' && !f.required ? undefined : raw };
  }
}
