// Ops → Y operations, all in one transaction. Ops reach here validated against the same JSON, so a
// path that does not resolve is a bug: it throws (YDocPathError) and the transaction keeps what was
// already applied — rebuild the doc from the JSON mirror under a new epoch then.
import * as Y from 'yjs';
import type { Json, Op } from '@weft/core';
import { YDocPathError, parsePointer } from './pointer.ts';
import { JSON_SHAPE, LIST, SECTIONS, type Shape, childShape, fromY, toY } from './shape.ts';
import { cloneJson, editIn, getIn, jsonEqual } from './json-edit.ts';
import { draftRoots } from './mirror.ts';

type Slot =
  /** A key of a Y.Map; `rest` goes on inside the plain JSON value stored there. */
  | { k: 'entry'; map: Y.Map<unknown>; key: string; shape: Shape; rest: string[] }
  /** An element of a Y.Array (elements are plain JSON). */
  | { k: 'elem'; arr: Y.Array<unknown>; index: string; rest: string[] }
  /** A root container itself (`/order`, `/sections`). */
  | { k: 'root'; y: Y.Array<unknown> | Y.Map<unknown>; shape: Shape }
  /** An `id` field: the key in the parent, not stored. */
  | { k: 'id'; id: string; rest: string[] }
  /** The draft itself, or its `id`. */
  | { k: 'draft' };

function resolve(doc: Y.Doc, path: string): Slot {
  const segs = parsePointer(path);
  const roots = draftRoots(doc);
  const [head, ...rest] = segs;
  if (head === undefined || (head === 'id' && rest.length === 0)) return { k: 'draft' };
  if (head === 'title') return { k: 'entry', map: roots.meta, key: 'title', shape: JSON_SHAPE, rest };
  if (head === 'order') return inside(roots.order, LIST, '', rest, path);
  if (head === 'sections') return inside(roots.sections, SECTIONS, '', rest, path);
  throw new YDocPathError(path, 'not a draft path');
}

function inside(y: unknown, shape: Shape, ownKey: string, rest: string[], path: string): Slot {
  const [key, ...deeper] = rest;
  if (key === undefined) {
    if (y instanceof Y.Array || y instanceof Y.Map) return { k: 'root', y, shape };
    throw new YDocPathError(path, 'not a draft path');
  }
  if (y instanceof Y.Array) return { k: 'elem', arr: y, index: key, rest: deeper };
  if (y instanceof Y.Map) {
    if (shape.t === 'struct' && key === 'id') return { k: 'id', id: ownKey, rest: deeper };
    const sub = childShape(shape, key);
    const cur = y.get(key);
    if (deeper.length > 0 && (cur instanceof Y.Map || cur instanceof Y.Array || cur instanceof Y.Text)) {
      if (cur instanceof Y.Text) throw new YDocPathError(path, 'path not found');
      return inside(cur, sub, key, deeper, path);
    }
    return { k: 'entry', map: y, key, shape: sub, rest: deeper };
  }
  throw new YDocPathError(path, 'path not found');
}

function elemIndex(arr: Y.Array<unknown>, seg: string, forAdd: boolean, path: string): number {
  if (forAdd && seg === '-') return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(seg)) throw new YDocPathError(path, 'not an array index');
  const i = Number(seg);
  if (i > arr.length || (!forAdd && i === arr.length)) throw new YDocPathError(path, 'index out of range');
  return i;
}

function read(doc: Y.Doc, path: string): Json {
  const s = resolve(doc, path);
  switch (s.k) {
    case 'draft': throw new YDocPathError(path, 'the whole draft is not an op target here');
    case 'id': return getIn(s.id, s.rest);
    case 'root': return fromY(s.shape, s.y, '');
    case 'entry': {
      if (!s.map.has(s.key)) throw new YDocPathError(path, 'path not found');
      return getIn(fromY(s.shape, s.map.get(s.key), s.key), s.rest);
    }
    case 'elem': return getIn(fromY(JSON_SHAPE, s.arr.get(elemIndex(s.arr, s.index, false, path)), ''), s.rest);
  }
}

function fillRoot(y: Y.Array<unknown> | Y.Map<unknown>, shape: Shape, value: Json, path: string): void {
  if (y instanceof Y.Array) {
    if (!Array.isArray(value)) throw new YDocPathError(path, '/order must stay an array');
    y.delete(0, y.length);
    y.push(value.map(cloneJson));
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new YDocPathError(path, '/sections must stay an object');
  for (const k of [...y.keys()]) y.delete(k);
  for (const [k, v] of Object.entries(value)) y.set(k, toY(childShape(shape, k), v));
}

function write(doc: Y.Doc, path: string, mode: 'add' | 'replace' | 'remove', value?: Json): void {
  const s = resolve(doc, path);
  switch (s.k) {
    case 'draft': throw new YDocPathError(path, 'the whole draft is not an op target here');
    case 'id': {
      // Ids are keys; an op may only restate them (validation refuses anything else).
      if (mode === 'remove' || s.rest.length > 0 || value !== s.id) {
        throw new YDocPathError(path, 'an id is its key and cannot change');
      }
      return;
    }
    case 'root': {
      if (mode === 'remove') throw new YDocPathError(path, 'a root of the draft cannot be removed');
      fillRoot(s.y, s.shape, value as Json, path);
      return;
    }
    case 'entry': {
      if (s.rest.length === 0) {
        if (mode !== 'add' && !s.map.has(s.key)) throw new YDocPathError(path, 'path not found');
        if (mode === 'remove') s.map.delete(s.key);
        else s.map.set(s.key, toY(s.shape, value as Json));
        return;
      }
      if (!s.map.has(s.key)) throw new YDocPathError(path, 'path not found');
      // Deeper than a stored JSON value: the whole value is replaced (a prop, the style, a data key).
      const cur = fromY(s.shape, s.map.get(s.key), s.key);
      s.map.set(s.key, editIn(cur, s.rest, mode, value));
      return;
    }
    case 'elem': {
      const i = elemIndex(s.arr, s.index, mode === 'add' && s.rest.length === 0, path);
      if (s.rest.length === 0) {
        if (mode !== 'add') s.arr.delete(i, 1);
        if (mode !== 'remove') s.arr.insert(i, [cloneJson(value as Json)]);
        return;
      }
      const next = editIn(fromY(JSON_SHAPE, s.arr.get(i), ''), s.rest, mode, value);
      s.arr.delete(i, 1);
      s.arr.insert(i, [next]);
      return;
    }
  }
}

/** Applies one op to the doc (call inside a transaction). */
export function applyOpToYDoc(doc: Y.Doc, op: Op): void {
  try {
    applyOne(doc, op);
  } catch (e) {
    // Errors from inside a JSON value name the path relative to it; report the op's path.
    if (e instanceof YDocPathError && e.path !== op.path) throw new YDocPathError(op.path, e.message);
    throw e;
  }
}

function applyOne(doc: Y.Doc, op: Op): void {
  switch (op.op) {
    case 'add': return write(doc, op.path, 'add', op.value);
    case 'replace': return write(doc, op.path, 'replace', op.value);
    case 'remove': return write(doc, op.path, 'remove');
    case 'copy': return write(doc, op.path, 'add', read(doc, op.from));
    case 'move': {
      if (op.from === op.path) return;
      const v = read(doc, op.from);
      write(doc, op.from, 'remove');
      return write(doc, op.path, 'add', v);
    }
    case 'test': {
      if (!jsonEqual(read(doc, op.path), op.value)) throw new YDocPathError(op.path, 'test failed');
      return;
    }
  }
}

/** Applies `ops` in order, in ONE transaction with `origin`. */
export function applyOpsToYDoc(doc: Y.Doc, ops: readonly Op[], origin: unknown = null): void {
  doc.transact(() => {
    for (const op of ops) applyOpToYDoc(doc, op);
  }, origin);
}
