// Compiles entry schemas with ajv once (module load for the built-ins; createCatalog for theme
// blocks) and checks props: ajv for shapes and literals, then code for what JSON Schema cannot
// say safely (binding pointers, function args, URL policy, actions, conditions in checks).
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import { ACTION_SPECS, checkAction } from '../actions.ts';
import { checkOperand, isBinding, isCall } from '../bindings.ts';
import { checkCondition } from '../conditions.ts';
import { FUNCTION_SPECS } from '../functions.ts';
import type { Problem } from '../problem.ts';
import { isAllowedUrl, urlPolicyText } from '../url.ts';
import type { UrlKind } from '../url.ts';
import { BUILTIN_ENTRIES } from './builtin.ts';
import type { Catalog, CatalogEntry, JSONSchema } from './types.ts';

const ajv = new Ajv({ allErrors: false, $data: false, strict: false, code: { esm: true } });

interface Compiled {
  validate: ValidateFunction;
  /** Whether any prop schema carries a x-* annotation that needs the code pass. */
  annotated: boolean;
}
const compiledCache = new WeakMap<CatalogEntry, Compiled>();

const annotatedMemo = new WeakMap<object, boolean>();
/** Whether a schema (or anything inside it) carries an x-* annotation; memoized per schema object. */
function hasAnnotation(s: unknown): boolean {
  if (s === null || typeof s !== 'object') return false;
  const memo = annotatedMemo.get(s);
  if (memo !== undefined) return memo;
  const o = s as JSONSchema;
  let r = 'x-bindable' in o || 'x-url' in o || 'x-action' in o || 'x-checks' in o;
  if (!r) {
    for (const v of Object.values(o)) {
      if (Array.isArray(v) ? v.some(hasAnnotation) : hasAnnotation(v)) {
        r = true;
        break;
      }
    }
  }
  annotatedMemo.set(s, r);
  return r;
}

function compile(e: CatalogEntry): Compiled {
  let c = compiledCache.get(e);
  if (!c) {
    c = { validate: ajv.compile(e.props), annotated: hasAnnotation(e.props) };
    compiledCache.set(e, c);
  }
  return c;
}

/** Walks a value along its schema and checks the x-* annotations. */
function checkAnnotated(schema: JSONSchema, v: unknown, at: string): Problem | null {
  if (schema['x-bindable'] === true && (isBinding(v) || isCall(v))) return checkOperand(v, at);
  if (schema['x-action'] === true) return checkAction(v, at);
  if (schema['x-checks'] === true && Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = checkCondition((v[i] as { condition?: unknown }).condition, `${at}/${i}/condition`);
      if (p) return p;
    }
    return null;
  }
  const kind = schema['x-url'] as UrlKind | undefined;
  if (kind !== undefined) {
    if (typeof v === 'string' && !isAllowedUrl(v, kind)) {
      return { rule: 'invalid_url', path: at, message: `"${at}" must be ${urlPolicyText(kind)}; got ${JSON.stringify(v.slice(0, 80))}` };
    }
    return null;
  }
  // Bindable props wrap their literal schema in anyOf[0].
  const lit = schema['x-bindable'] === true ? ((schema['anyOf'] as JSONSchema[])[0] as JSONSchema) : schema;
  if (lit !== schema) return checkAnnotated(lit, v, at);
  const props = lit['properties'] as Record<string, JSONSchema> | undefined;
  if (props && v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const k of Object.keys(props)) {
      if (!Object.hasOwn(v, k) || !hasAnnotation(props[k])) continue;
      const p = checkAnnotated(props[k] as JSONSchema, (v as Record<string, unknown>)[k], `${at}/${k}`);
      if (p) return p;
    }
  }
  const items = lit['items'] as JSONSchema | undefined;
  if (items && Array.isArray(v) && hasAnnotation(items)) {
    for (let i = 0; i < v.length; i++) {
      const p = checkAnnotated(items, v[i], `${at}/${i}`);
      if (p) return p;
    }
  }
  return null;
}

function describeAjvError(e: CatalogEntry, validate: ValidateFunction, at: string): string {
  const first = validate.errors?.[0];
  if (!first) return 'props do not match the schema';
  const where = first.instancePath === '' ? 'props' : `props${first.instancePath}`;
  if (first.keyword === 'additionalProperties') {
    return `${where} has the unknown prop "${String((first.params as { additionalProperty?: string }).additionalProperty)}"; ${e.name} takes ${Object.keys(e.props['properties'] as object).join(', ')}`;
  }
  if (first.keyword === 'enum') {
    return `${where} must be one of ${((first.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${where} ${first.message ?? 'is invalid'} (at ${at}${first.instancePath}); a valid ${e.name} is ${JSON.stringify(e.example)}`;
}

export function createCatalog(extraEntries: readonly CatalogEntry[] = [], id = 'weft@1'): Catalog {
  const entries: Record<string, CatalogEntry> = Object.create(null);
  for (const e of BUILTIN_ENTRIES) entries[e.name] = e;
  for (const e of extraEntries) entries[e.name] = e;
  // Compile now so a bad theme schema fails at load, not on the first op.
  for (const e of Object.values(entries)) compile(e);
  const names = Object.freeze(Object.keys(entries));
  const catalog: Catalog = {
    id,
    entries: Object.freeze(entries),
    componentNames: names,
    getEntry: (name) => (Object.hasOwn(entries, name) ? entries[name] : undefined),
    actions: ACTION_SPECS,
    functions: FUNCTION_SPECS,
    checkProps(name, props, at) {
      const e = Object.hasOwn(entries, name) ? entries[name] : undefined;
      if (!e) return null;
      const c = compile(e);
      if (!c.validate(props)) return { rule: 'invalid_props', path: at, message: describeAjvError(e, c.validate, at) };
      return c.annotated ? checkAnnotated(e.props, props, at) : null;
    },
  };
  return Object.freeze(catalog);
}

/** The built-in catalog (docs/catalog.md), compiled once at module load. */
export const defaultCatalog: Catalog = createCatalog();
