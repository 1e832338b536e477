// JSON values from untrusted input: one iterative walk that checks limits and copies, deep
// equality, and a parser that never crashes on hostile text (RELIABILITY.md "bad input").
import type { Json, JsonObject } from './draft.ts';
import type { ErrorCode, Result, Rule } from './errors.ts';
import { Limits } from './limits.ts';
import { escapeSegment, FORBIDDEN_SEGMENTS } from './pointer.ts';
import { storable, unstorableMessage } from './text.ts';

export interface ValueLimits {
  maxString: number;
  maxNesting: number;
  maxArray: number;
}
export const DEFAULT_VALUE_LIMITS: ValueLimits = {
  maxString: Limits.maxString,
  maxNesting: Limits.maxNesting,
  maxArray: Limits.maxArray,
};

export interface ValueProblem {
  rule: Extract<Rule, 'value_too_large' | 'invalid_op' | 'forbidden_segment' | 'invalid_text'>;
  /** Pointer inside the value. */
  at: string;
  message: string;
}

/**
 * Checks that `value` is plain JSON within limits and returns a deep copy (so the draft never
 * shares objects with the caller). Iterative: hostile nesting cannot overflow the stack.
 * Object keys `__proto__`, `prototype` and `constructor` are refused, like those path segments
 * (docs/errors.md forbidden_segment): they become prototypes on spread/assign, and they named
 * functions wherever a key was looked up without an own-property check.
 */
export function sanitizeJson(value: unknown, limits: ValueLimits = DEFAULT_VALUE_LIMITS): Result<Json, ValueProblem> {
  const prim = primitive(value, limits, '');
  if (prim !== NOT_PRIMITIVE) return prim;
  const rootOut: Json = Array.isArray(value) ? [] : {};
  // Stack of [source, target, depth, pointer].
  const stack: Array<[unknown, Json, number, string]> = [[value, rootOut, 1, '']];
  while (stack.length > 0) {
    const [src, dst, depth, at] = stack.pop()!;
    if (depth > limits.maxNesting) {
      return { ok: false, error: { rule: 'value_too_large', at, message: `value nests deeper than ${limits.maxNesting} levels at "${at}"; flatten it` } };
    }
    if (Array.isArray(src)) {
      if (src.length > limits.maxArray) {
        return { ok: false, error: { rule: 'value_too_large', at, message: `array at "${at}" has ${src.length} items, more than ${limits.maxArray}` } };
      }
      const out = dst as Json[];
      for (let i = 0; i < src.length; i++) {
        const v: unknown = src[i];
        const p = primitive(v, limits, at + '/' + i);
        if (p === NOT_PRIMITIVE) {
          const child: Json = Array.isArray(v) ? [] : {};
          out.push(child);
          stack.push([v, child, depth + 1, at + '/' + i]);
        } else if (p.ok) out.push(p.value);
        else return p;
      }
    } else {
      const proto = Object.getPrototypeOf(src);
      if (proto !== Object.prototype && proto !== null) {
        return { ok: false, error: { rule: 'invalid_op', at, message: `value at "${at}" is not a plain JSON object` } };
      }
      const out = dst as { [k: string]: Json };
      const keys = Object.keys(src as object);
      if (keys.length > limits.maxArray) {
        return { ok: false, error: { rule: 'value_too_large', at, message: `object at "${at}" has ${keys.length} keys, more than ${limits.maxArray}` } };
      }
      for (const k of keys) {
        if (FORBIDDEN_SEGMENTS.has(k)) {
          return { ok: false, error: { rule: 'forbidden_segment', at, message: `value has a "${k}" key at "${at || '/'}"; keys may not be __proto__, prototype or constructor, rename it` } };
        }
        if (k.length > limits.maxString) {
          return { ok: false, error: { rule: 'value_too_large', at, message: `a key at "${at}" is longer than ${limits.maxString} chars` } };
        }
        if (!storable(k)) return { ok: false, error: { rule: 'invalid_text', at, message: unstorableMessage(`a key at "${at || '/'}"`) } };
        const v: unknown = (src as Record<string, unknown>)[k];
        // A JSON Pointer: a key holding `/` or `~` is escaped (RFC 6901), so the path names one place.
        const here = at + '/' + escapeSegment(k);
        const p = primitive(v, limits, here);
        if (p === NOT_PRIMITIVE) {
          const child: Json = Array.isArray(v) ? [] : {};
          out[k] = child;
          stack.push([v, child, depth + 1, here]);
        } else if (p.ok) out[k] = p.value;
        else return p;
      }
    }
  }
  return { ok: true, value: rootOut };
}

const NOT_PRIMITIVE = Symbol('object');
function primitive(v: unknown, limits: ValueLimits, at: string): Result<Json, ValueProblem> | typeof NOT_PRIMITIVE {
  switch (typeof v) {
    case 'string':
      if (v.length > limits.maxString) return { ok: false, error: { rule: 'value_too_large', at, message: `string at "${at}" has ${v.length} chars, more than ${limits.maxString}` } };
      return storable(v) ? { ok: true, value: v } : { ok: false, error: { rule: 'invalid_text', at, message: unstorableMessage(at ? `the string at "${at}" inside the value` : 'the value') } };
    case 'number':
      return Number.isFinite(v)
        ? { ok: true, value: v }
        : { ok: false, error: { rule: 'invalid_op', at, message: `number at "${at}" is not finite` } };
    case 'boolean':
      return { ok: true, value: v };
    case 'object':
      return v === null ? { ok: true, value: null } : NOT_PRIMITIVE;
    default:
      return { ok: false, error: { rule: 'invalid_op', at, message: `value at "${at}" is ${typeof v}, not JSON` } };
  }
}

/** Deep copy of a JSON value already known to be within limits. */
export function cloneJson<T extends Json>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out: Json[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = cloneJson(v[i] as Json);
    return out as T;
  }
  const out: { [k: string]: Json } = {};
  for (const k of Object.keys(v)) out[k] = cloneJson((v as { [k: string]: Json })[k] as Json);
  return out as T;
}

/** Structural equality of JSON values (object key order ignored, array order not). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

export interface ParseLimits extends ValueLimits {
  /** Max text length in UTF-16 code units. */
  maxBytes: number;
}
export const DEFAULT_PARSE_LIMITS: ParseLimits = { ...DEFAULT_VALUE_LIMITS, maxBytes: Limits.maxOpBytes };

export interface ParseError {
  code: Extract<ErrorCode, 'MALFORMED_JSON' | 'PAYLOAD_TOO_LARGE' | 'VALIDATION_FAILED'>;
  rule?: Rule;
  message: string;
}

/**
 * Where JSON text first nests deeper than `max` arrays/objects (a char index), or -1. A linear scan
 * that builds nothing: run it before JSON.parse on untrusted text, since what JSON.parse builds
 * from 200k levels then overflows the stack of JSON.stringify, hashing, or any recursive walk.
 */
export function nestsDeeperThan(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return i;
    } else if (c === 125 || c === 93) depth--;
  }
  return -1;
}

/**
 * Parses untrusted JSON text. Depth is measured by a linear scan BEFORE JSON.parse, so hostile
 * nesting is refused without building it; everything else is checked by `sanitizeJson`.
 */
export function parseJsonSafe(text: string, limits: Partial<ParseLimits> = {}): Result<Json, ParseError> {
  const l: ParseLimits = { ...DEFAULT_PARSE_LIMITS, ...limits };
  if (typeof text !== 'string') return { ok: false, error: { code: 'MALFORMED_JSON', message: 'input is not text' } };
  if (text.length > l.maxBytes) {
    return { ok: false, error: { code: 'PAYLOAD_TOO_LARGE', message: `input is ${text.length} chars, more than ${l.maxBytes}` } };
  }
  if (nestsDeeperThan(text, l.maxNesting) >= 0) {
    return { ok: false, error: { code: 'VALIDATION_FAILED', rule: 'value_too_large', message: `JSON nests deeper than ${l.maxNesting} levels` } };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: { code: 'MALFORMED_JSON', message: `not valid JSON: ${(e as Error).message}` } };
  }
  const r = sanitizeJson(parsed, l);
  if (!r.ok) return { ok: false, error: { code: 'VALIDATION_FAILED', rule: r.error.rule, message: r.error.message } };
  return r;
}

/** A JSON object (not null, not an array). */
export const isJsonObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
