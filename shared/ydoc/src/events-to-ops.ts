// Y events → JSON Patch ops on the canonical paths. Applied in order to the JSON before the
// transaction, they give the JSON after it. Call it synchronously inside an `observeDeep` callback
// (Yjs refuses to compute `changes` later), or use `observeDraftOps` for one list per transaction.
import * as Y from 'yjs';
import type { Op } from '@weft/core';
import { formatPointer } from './pointer.ts';
import { JSON_SHAPE, META, ORDER, SECTIONS, SECTIONS_ROOT, type Shape, childShape, fromY } from './shape.ts';
import { draftRoots } from './mirror.ts';

type Located = { segs: string[]; shape: Shape };

/** Canonical path and shape of a type in the doc, or null when it is not (or no longer) in the draft. */
function locate(type: Y.AbstractType<any>, doc: Y.Doc): Located | null {
  const item = type._item;
  if (item === null) {
    if (type === doc.share.get(META)) return { segs: [], shape: { t: 'struct', fields: { title: JSON_SHAPE } } };
    if (type === doc.share.get(ORDER)) return { segs: ['order'], shape: { t: 'list' } };
    if (type === doc.share.get(SECTIONS_ROOT)) return { segs: ['sections'], shape: SECTIONS };
    return null;
  }
  if (item.deleted) return null;
  const parent = item.parent;
  if (!(parent instanceof Y.AbstractType)) return null;
  const up = locate(parent, doc);
  if (up === null) return null;
  if (item.parentSub !== null) {
    if (up.segs.length === 0 && item.parentSub !== 'title') return null; // meta: only the title is draft
    return { segs: [...up.segs, item.parentSub], shape: childShape(up.shape, item.parentSub) };
  }
  // A Y type inside an array (never written by this mapping, but a peer may): its index.
  let index = 0;
  for (let n = (parent as Y.AbstractType<any>)._start; n !== null && n !== item; n = n.right) {
    if (!n.deleted && n.countable) index += n.length;
  }
  return { segs: [...up.segs, String(index)], shape: JSON_SHAPE };
}

/**
 * A peer's write to a Yjs key the mapping does not carry (a meta key other than the title, a
 * stored `id`): no op describes it, so it must be refused, never kept silently (the draft and the
 * doc would differ, and junk would ride to every peer).
 */
export interface UnmappedWrite { path: string; rule: 'path_not_found' | 'invalid_id'; key: string }

function eventOps(event: Y.YEvent<any>, doc: Y.Doc, out: Op[], unmapped?: UnmappedWrite[]): void {
  const at = locate(event.target, doc);
  if (at === null) return;
  const target = event.target;
  if (target instanceof Y.Map) {
    const isMeta = at.segs.length === 0;
    const isStruct = at.shape.t === 'struct';
    for (const [key, change] of event.changes.keys) {
      if (isMeta ? key !== 'title' : isStruct && key === 'id') {
        // The epoch and stored ids are the server's, never a peer's to write.
        unmapped?.push(isMeta ? { path: formatPointer([key]), rule: 'path_not_found', key: `meta.${key}` } : { path: formatPointer([...at.segs, key]), rule: 'invalid_id', key });
        continue;
      }
      const path = formatPointer([...at.segs, key]);
      if (change.action === 'delete') out.push({ op: 'remove', path });
      else {
        const value = fromY(childShape(at.shape, key), target.get(key), key);
        out.push({ op: change.action === 'add' ? 'add' : 'replace', path, value });
      }
    }
    return;
  }
  if (target instanceof Y.Array) {
    let index = 0;
    for (const d of event.changes.delta) {
      if (d.retain !== undefined) index += d.retain;
      else if (d.delete !== undefined) {
        for (let i = 0; i < d.delete; i++) out.push({ op: 'remove', path: formatPointer([...at.segs, String(index)]) });
      } else if (Array.isArray(d.insert)) {
        for (const v of d.insert) {
          out.push({ op: 'add', path: formatPointer([...at.segs, String(index)]), value: fromY(JSON_SHAPE, v, '') });
          index++;
        }
      }
    }
    return;
  }
  if (target instanceof Y.Text) {
    out.push({ op: 'replace', path: formatPointer(at.segs), value: target.toString() });
  }
}

/** Ops for the events of one transaction (as `observeDeep` hands them over). */
export function yEventsToOps(events: readonly Y.YEvent<any>[], doc: Y.Doc, unmapped?: UnmappedWrite[]): Op[] {
  const out: Op[] = [];
  for (const e of events) eventOps(e, doc, out, unmapped);
  return out;
}

/**
 * Calls `onOps` once per transaction that changed the draft, with the ops of all three roots.
 * Returns the unsubscribe function.
 */
export function observeDraftOps(doc: Y.Doc, onOps: (ops: Op[], tr: Y.Transaction) => void): () => void {
  const pending = new WeakMap<Y.Transaction, Op[]>();
  const roots = draftRoots(doc);
  const deep = (events: Y.YEvent<any>[], tr: Y.Transaction) => {
    const list = pending.get(tr) ?? [];
    for (const e of events) eventOps(e, doc, list);
    pending.set(tr, list);
  };
  const after = (tr: Y.Transaction) => {
    const ops = pending.get(tr);
    if (ops !== undefined && ops.length > 0) onOps(ops, tr);
  };
  roots.meta.observeDeep(deep);
  roots.order.observeDeep(deep);
  roots.sections.observeDeep(deep);
  doc.on('afterTransaction', after);
  return () => {
    roots.meta.unobserveDeep(deep);
    roots.order.unobserveDeep(deep);
    roots.sections.unobserveDeep(deep);
    doc.off('afterTransaction', after);
  };
}

