// Small JSON helpers shared by the converters (pure; no prototype-polluting keys are ever written).
import type { Json, JsonObject } from '@weft/core';

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isJson(v: unknown, depth = 0): v is Json {
  if (depth > 64) return false;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  if (isObject(v)) return Object.entries(v).every(([k, x]) => !FORBIDDEN.has(k) && isJson(x, depth + 1));
  return false;
}

/**
 * `map[key]` for a fixed table keyed by names that documents choose: own properties only, so a
 * component or variant named "constructor" or "toString" finds nothing, not Object's function.
 */
export function lookup<T>(map: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

export const FORBIDDEN: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

export function clone<T extends Json>(v: T): T {
  return structuredClone(v);
}

export function escapeToken(s: string): string {
  return s.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function unescapeToken(s: string): string {
  return s.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Splits a JSON Pointer; `''` and `'/'` both mean the whole document here (A2UI uses `/`). */
export function splitPointer(p: string): string[] | undefined {
  if (p === '' || p === '/') return [];
  if (!p.startsWith('/')) return undefined;
  const parts = p.slice(1).split('/').map(unescapeToken);
  return parts.some((s) => FORBIDDEN.has(s)) ? undefined : parts;
}

export function getAt(doc: Json, parts: readonly string[]): Json | undefined {
  let cur: Json | undefined = doc;
  for (const k of parts) {
    if (Array.isArray(cur)) cur = /^(0|[1-9]\d*)$/.test(k) ? cur[Number(k)] : undefined;
    else if (cur !== null && typeof cur === 'object') cur = Object.hasOwn(cur, k) ? cur[k] : undefined;
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Sets (creating objects on the way) or, with `value` undefined, removes. Returns the new root. */
export function setAt(doc: JsonObject, parts: readonly string[], value: Json | undefined): JsonObject | undefined {
  if (parts.length === 0) return value === undefined ? {} : isObject(value) ? (value as JsonObject) : undefined;
  const root = structuredClone(doc);
  let cur: Json = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const k = parts[i] as string;
    if (Array.isArray(cur)) {
      const n = Number(k);
      if (!Number.isInteger(n) || n < 0 || n >= cur.length) return undefined;
      const next: Json | undefined = cur[n];
      if (next === null || typeof next !== 'object') cur[n] = {};
      cur = cur[n] as Json;
    } else if (cur !== null && typeof cur === 'object') {
      const next: Json | undefined = cur[k];
      if (next === undefined || next === null || typeof next !== 'object') cur[k] = {};
      cur = cur[k] as Json;
    } else return undefined;
  }
  const last = parts[parts.length - 1] as string;
  if (Array.isArray(cur)) {
    const n = last === '-' ? cur.length : Number(last);
    if (!Number.isInteger(n) || n < 0 || n > cur.length) return undefined;
    if (value === undefined) cur.splice(n, 1);
    else cur[n] = value;
  } else if (cur !== null && typeof cur === 'object') {
    if (value === undefined) delete cur[last];
    else cur[last] = value;
  } else return undefined;
  return root;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}
