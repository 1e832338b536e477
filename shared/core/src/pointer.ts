// RFC 6901 JSON Pointers, with the prototype-pollution guard of RELIABILITY.md: the segments
// __proto__, prototype and constructor are refused anywhere (after ~0/~1 decoding), and lookups
// only ever follow own properties.
import type { Result } from './errors.ts';
import { clipText, storable, unstorableMessage } from './text.ts';

export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

export interface PointerError {
  rule: 'invalid_pointer' | 'forbidden_segment' | 'invalid_text';
  message: string;
}

const cache = new Map<string, Result<string[], PointerError>>();
const CACHE_MAX = 4096;

/** Parses a pointer into unescaped segments. "" is the whole document. Results are memoized. */
export function parsePointer(pointer: string): Result<string[], PointerError> {
  const hit = cache.get(pointer);
  if (hit !== undefined) return hit;
  const r = parseUncached(pointer);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(pointer, r);
  return r;
}

function parseUncached(pointer: string): Result<string[], PointerError> {
  if (typeof pointer !== 'string') return { ok: false, error: { rule: 'invalid_pointer', message: 'a pointer must be a string' } };
  if (pointer === '') return { ok: true, value: [] };
  if (!storable(pointer)) return { ok: false, error: { rule: 'invalid_text', message: unstorableMessage('the pointer') } };
  if (pointer.charCodeAt(0) !== 47 /* / */) {
    return { ok: false, error: { rule: 'invalid_pointer', message: `pointer "${clip(pointer)}" must start with "/"` } };
  }
  const raw = pointer.slice(1).split('/');
  const out: string[] = [];
  for (const seg of raw) {
    let s = seg;
    if (seg.includes('~')) {
      // Only ~0 and ~1 are valid escapes; decode ~1 first is wrong (RFC 6901 §4), so scan.
      let buf = '';
      for (let i = 0; i < seg.length; i++) {
        const ch = seg[i];
        if (ch === '~') {
          const nx = seg[i + 1];
          if (nx === '0') buf += '~';
          else if (nx === '1') buf += '/';
          else return { ok: false, error: { rule: 'invalid_pointer', message: `pointer "${clip(pointer)}" has "~" not followed by 0 or 1` } };
          i++;
        } else buf += ch;
      }
      s = buf;
    }
    if (FORBIDDEN_SEGMENTS.has(s)) {
      return { ok: false, error: { rule: 'forbidden_segment', message: `pointer "${clip(pointer)}" contains the forbidden segment "${s}"; paths may not touch __proto__, prototype or constructor` } };
    }
    out.push(s);
  }
  return { ok: true, value: out };
}

export function escapeSegment(s: string): string {
  return s.includes('~') || s.includes('/') ? s.replaceAll('~', '~0').replaceAll('/', '~1') : s;
}

export function formatPointer(segments: readonly string[]): string {
  let out = '';
  for (const s of segments) out += '/' + escapeSegment(s);
  return out;
}

/** Array index per RFC 6901: "0" or no leading zero digits. Returns -1 if not an index. */
export function arrayIndex(seg: string): number {
  const n = seg.length;
  if (n === 0 || n > 9) return -1;
  if (n > 1 && seg.charCodeAt(0) === 48) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = seg.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** Resolves segments (the first `end` of them) against a JSON value, following own properties only. */
export function getAt(doc: unknown, segments: readonly string[], end = segments.length): { found: boolean; value: unknown } {
  let cur: unknown = doc;
  for (let k = 0; k < end; k++) {
    const s = segments[k]!;
    if (Array.isArray(cur)) {
      const i = arrayIndex(s);
      if (i < 0 || i >= cur.length) return { found: false, value: undefined };
      cur = cur[i];
    } else if (cur !== null && typeof cur === 'object') {
      if (!Object.hasOwn(cur, s)) return { found: false, value: undefined };
      cur = (cur as Record<string, unknown>)[s];
    } else return { found: false, value: undefined };
  }
  return { found: true, value: cur };
}

const clip = (s: string): string => clipText(s, 80);
