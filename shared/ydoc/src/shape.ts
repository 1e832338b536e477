// Where the draft becomes Y types. Flat and exact (ARCHITECTURE.md "The draft"; PERFORMANCE.md
// "What the measurements imply" 2): Y.Map per section and per component so that concurrent edits
// to different components merge; Y.Array for `order` and `children` so concurrent inserts merge;
// everything else — props, style, visible, data values — is one plain JSON value per key, because
// nested Y types cost several times the memory (bench/memory.bench.ts, 200 components without data:
// 274 KB heap with props as one JSON value, 460 KB with props as a Y.Map). A component's `props` is
// one JSON object by default; a Y.Map of prop name → JSON | Y.Text is also read and written (the
// way open for text that people type into, issue 8), with Y.Text read as a string.
import * as Y from 'yjs';
import type { Json } from '@weft/core';
import { cloneJson } from './json-edit.ts';

export type Shape =
  | { readonly t: 'json' }
  /** Y.Array of JSON values (`order`, `children`). */
  | { readonly t: 'list' }
  /** Y.Map with free keys (`sections`, `components`, `data`). */
  | { readonly t: 'dict'; readonly of: Shape }
  /** Y.Map with known fields, in output order; `id` is the key in the parent, never stored. */
  | { readonly t: 'struct'; readonly fields: Readonly<Record<string, Shape>> }
  /** JSON object, or Y.Map of name → JSON | Y.Text. */
  | { readonly t: 'props' };

export const JSON_SHAPE: Shape = { t: 'json' };
export const LIST: Shape = { t: 'list' };
export const PROPS: Shape = { t: 'props' };
export const COMPONENT: Shape = {
  t: 'struct',
  fields: { component: JSON_SHAPE, props: PROPS, children: LIST, visible: JSON_SHAPE },
};
export const SECTION: Shape = {
  t: 'struct',
  fields: {
    kind: JSON_SHAPE,
    catalog: JSON_SHAPE,
    components: { t: 'dict', of: COMPONENT },
    data: { t: 'dict', of: JSON_SHAPE },
    style: JSON_SHAPE,
  },
};
export const SECTIONS: Shape = { t: 'dict', of: SECTION };

/** Root type names in the Y.Doc. */
export const META = 'meta';
export const ORDER = 'order';
export const SECTIONS_ROOT = 'sections';

/** The shape of a child key of a container of shape `s`. */
export function childShape(s: Shape, key: string): Shape {
  switch (s.t) {
    case 'dict': return s.of;
    case 'struct': return Object.hasOwn(s.fields, key) ? s.fields[key]! : JSON_SHAPE; // own fields only: "toString" is no field
    default: return JSON_SHAPE;
  }
}

const isPlainObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON → what is stored under a key of that shape. Values that do not fit the shape stay plain JSON. */
export function toY(s: Shape, value: Json): unknown {
  if (s.t === 'list' && Array.isArray(value)) {
    const arr = new Y.Array<unknown>();
    arr.push(value.map(cloneJson));
    return arr;
  }
  if ((s.t === 'dict' || s.t === 'struct') && isPlainObject(value)) {
    const map = new Y.Map<unknown>();
    for (const [k, v] of Object.entries(value)) {
      if (s.t === 'struct' && k === 'id') continue;
      map.set(k, toY(childShape(s, k), v));
    }
    return map;
  }
  return cloneJson(value);
}

/** What is stored under `key` → JSON (a fresh copy: callers may mutate it). */
export function fromY(s: Shape, value: unknown, key: string): Json {
  if (value instanceof Y.Text) return value.toString();
  if (value instanceof Y.Array) return value.toArray().map((v) => fromY(JSON_SHAPE, v, ''));
  if (value instanceof Y.Map) {
    const out: Record<string, Json> = {};
    if (s.t === 'struct') {
      out['id'] = key;
      for (const f of Object.keys(s.fields)) if (value.has(f)) out[f] = fromY(s.fields[f]!, value.get(f), f);
      for (const [k, v] of value.entries()) {
        if (k !== 'id' && !Object.hasOwn(s.fields, k)) out[k] = fromY(JSON_SHAPE, v, k);
      }
      return out;
    }
    for (const [k, v] of value.entries()) out[k] = fromY(childShape(s, k), v, k);
    return out;
  }
  if (value instanceof Y.AbstractType) return null; // a foreign Y type (XML…): not part of the draft
  return cloneJson(value as Json);
}
