// Copy-on-write edits inside a plain JSON value (a prop, the style, a data key). Values stored in a
// Y.Doc are shared references, so nothing here mutates its input.
import type { Json } from '@weft/core';
import { YDocPathError, formatPointer } from './pointer.ts';

export const cloneJson = <T>(v: T): T => (v === undefined ? v : structuredClone(v));

const isObject = (v: unknown): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function arrayIndex(arr: readonly Json[], seg: string, forAdd: boolean, at: readonly string[]): number {
  if (forAdd && seg === '-') return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(seg)) throw new YDocPathError(formatPointer(at), 'not an array index');
  const i = Number(seg);
  if (i > arr.length || (!forAdd && i === arr.length)) throw new YDocPathError(formatPointer(at), 'index out of range');
  return i;
}

export function getIn(value: Json | undefined, segs: readonly string[]): Json {
  let cur: Json | undefined = value;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, s, false, segs.slice(0, i + 1))];
    else if (isObject(cur) && has(cur, s)) cur = cur[s];
    else throw new YDocPathError(formatPointer(segs.slice(0, i + 1)), 'path not found');
  }
  if (cur === undefined) throw new YDocPathError(formatPointer(segs), 'path not found');
  return cur;
}

type Mode = 'add' | 'replace' | 'remove';

/** Returns a new value with the edit applied at `segs` (non-empty). */
export function editIn(value: Json, segs: readonly string[], mode: Mode, v?: Json): Json {
  const [head, ...rest] = segs;
  if (head === undefined) throw new Error('editIn needs a path');
  if (Array.isArray(value)) {
    const copy = value.slice();
    if (rest.length > 0) {
      const i = arrayIndex(value, head, false, [head]);
      copy[i] = editIn(value[i]!, rest, mode, v);
    } else if (mode === 'add') copy.splice(arrayIndex(value, head, true, [head]), 0, cloneJson(v as Json));
    else if (mode === 'replace') copy[arrayIndex(value, head, false, [head])] = cloneJson(v as Json);
    else copy.splice(arrayIndex(value, head, false, [head]), 1);
    return copy;
  }
  if (isObject(value)) {
    const copy = { ...value };
    if (rest.length > 0) {
      if (!has(value, head)) throw new YDocPathError(formatPointer([head]), 'path not found');
      copy[head] = editIn(value[head]!, rest, mode, v);
    } else if (mode === 'remove' || mode === 'replace') {
      if (!has(value, head)) throw new YDocPathError(formatPointer([head]), 'path not found');
      if (mode === 'remove') delete copy[head];
      else copy[head] = cloneJson(v as Json);
    } else copy[head] = cloneJson(v as Json);
    return copy;
  }
  throw new YDocPathError(formatPointer([head]), 'path not found');
}

export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => has(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}
