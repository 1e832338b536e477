// Y events → JSON Patch ops on the canonical paths. Applied in order to the JSON before the
// transaction, they give the JSON after it. Call it synchronously inside an `observeDeep` callback
// (Yjs refuses to compute `changes` later), or use `observeDraftOps` / `TransactionOps` for one
// list per transaction (the only way to get a transaction's `/order` ops right).
import * as Y from 'yjs';
import type { Json, Op } from '@weft/core';
import { formatPointer } from './pointer.ts';
import { JSON_SHAPE, LIST, META, ORDER, SECTIONS, SECTIONS_ROOT, type Shape, childShape, fromY } from './shape.ts';
import { cloneJson, jsonEqual } from './json-edit.ts';
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

/**
 * The ops of one transaction, collected event by event (Yjs computes `changes` only inside the
 * observer call). Array changes that mix deletions and insertions are one op judged as a whole: a
 * reorder is one `move` (or one `replace` of the list), never a delete and an insert judged one at
 * a time, whose halves each break the tree. `/order` comes last: when the transaction also adds or
 * removes sections it is one `replace` with its final value, because the pipeline's repair keeps
 * order in step with sections already (an incremental order op would count a section twice).
 */
export class TransactionOps {
  private readonly main: Op[] = [];
  private order: Op[] = [];
  private orderChanged = false;
  private sectionsAddedOrRemoved = false;
  /** Writes no op describes (refuse and revert them). */
  readonly unmapped: UnmappedWrite[] = [];

  private readonly doc: Y.Doc;

  constructor(doc: Y.Doc) {
    this.doc = doc;
  }

  add(events: readonly Y.YEvent<any>[]): void {
    for (const e of events) this.event(e);
  }

  /** The ops, in application order. */
  ops(): Op[] {
    if (!this.orderChanged) return this.main;
    if (this.sectionsAddedOrRemoved) {
      return [...this.main, { op: 'replace', path: '/order', value: fromY(LIST, draftRoots(this.doc).order, 'order') }];
    }
    return [...this.main, ...this.order];
  }

  private event(event: Y.YEvent<any>): void {
    const at = locate(event.target, this.doc);
    if (at === null) return;
    const target = event.target;
    if (target instanceof Y.Map) {
      const isMeta = at.segs.length === 0;
      const isStruct = at.shape.t === 'struct';
      const isSections = at.segs.length === 1 && at.segs[0] === 'sections';
      for (const [key, change] of event.changes.keys) {
        if (isMeta ? key !== 'title' : isStruct && key === 'id') {
          // The epoch and stored ids are the server's, never a peer's to write.
          this.unmapped.push(isMeta ? { path: formatPointer([key]), rule: 'path_not_found', key: `meta.${key}` } : { path: formatPointer([...at.segs, key]), rule: 'invalid_id', key });
          continue;
        }
        if (isSections && change.action !== 'update') this.sectionsAddedOrRemoved = true;
        const path = formatPointer([...at.segs, key]);
        if (change.action === 'delete') this.main.push({ op: 'remove', path });
        else {
          const value = fromY(childShape(at.shape, key), target.get(key), key);
          // A value stored in another form but equal (props turned into a Y.Map so a text prop
          // can be typed into) changes nothing in the draft: no op, so no step of its own.
          if (change.action === 'update' && !(change.oldValue instanceof Y.AbstractType) && jsonEqual(change.oldValue as Json, value)) continue;
          this.main.push({ op: change.action === 'add' ? 'add' : 'replace', path, value });
        }
      }
      return;
    }
    if (target instanceof Y.Array) {
      const isOrder = at.segs.length === 1 && at.segs[0] === 'order';
      const out = isOrder ? [] : this.main;
      arrayOps(event, target, at.segs, out);
      if (isOrder) {
        this.orderChanged = true;
        this.order.push(...out);
      }
      return;
    }
    if (target instanceof Y.Text) {
      this.main.push({ op: 'replace', path: formatPointer(at.segs), value: target.toString() });
    }
  }
}

/** Ops for one Y.Array event: adds for pure inserts, removes for pure deletes, else one op for all. */
function arrayOps(event: Y.YEvent<any>, target: Y.Array<unknown>, segs: readonly string[], out: Op[]): void {
  const delta = event.changes.delta;
  const mixed = delta.some((d) => d.delete !== undefined) && delta.some((d) => d.insert !== undefined);
  if (!mixed) {
    let index = 0;
    for (const d of delta) {
      if (d.retain !== undefined) index += d.retain;
      else if (d.delete !== undefined) {
        for (let i = 0; i < d.delete; i++) out.push({ op: 'remove', path: formatPointer([...segs, String(index)]) });
      } else if (Array.isArray(d.insert)) {
        for (const v of d.insert) {
          out.push({ op: 'add', path: formatPointer([...segs, String(index)]), value: fromY(JSON_SHAPE, v, '') });
          index++;
        }
      }
    }
    return;
  }
  const { before, after } = beforeAndAfter(event, target);
  out.push(...listChange(before, after, segs));
}

/** The list's values before and after the transaction (items it deleted still hold their content until GC, after observers). */
function beforeAndAfter(event: Y.YEvent<any>, target: Y.Array<unknown>): { before: Json[]; after: Json[] } {
  const before: Json[] = [];
  const after: Json[] = [];
  for (let n = target._start; n !== null; n = n.right) {
    if (!n.countable) continue;
    const added = event.adds(n);
    const wasThere = !added && (!n.deleted || event.deletes(n));
    if (!wasThere && n.deleted) continue;
    const values = n.content.getContent().map((v) => fromY(JSON_SHAPE, v, ''));
    if (!n.deleted) after.push(...values);
    if (wasThere) before.push(...values);
  }
  return { before, after };
}

/**
 * One op taking `before` to `after`: nothing, one element replaced, one element moved, or the
 * whole list replaced.
 */
export function listChange(before: readonly Json[], after: readonly Json[], segs: readonly string[]): Op[] {
  const at = (i: number): string => formatPointer([...segs, String(i)]);
  const whole: Op[] = [{ op: 'replace', path: formatPointer(segs), value: after.map((v) => cloneJson(v)) }];
  if (before.length !== after.length) return whole;
  let i = 0;
  while (i < after.length && jsonEqual(before[i], after[i])) i++;
  if (i === after.length) return [];
  let j = after.length - 1;
  while (j > i && jsonEqual(before[j], after[j])) j--;
  if (i === j) return [{ op: 'replace', path: at(i), value: cloneJson(after[i]!) }];
  const same = (a: number, b: number, len: number): boolean => {
    for (let k = 0; k < len; k++) if (!jsonEqual(after[a + k], before[b + k])) return false;
    return true;
  };
  // Moved up: the element at j now stands at i, the ones between shifted down by one.
  if (jsonEqual(after[i], before[j]) && same(i + 1, i, j - i)) return [{ op: 'move', from: at(j), path: at(i) }];
  // Moved down: the element at i now stands at j.
  if (jsonEqual(after[j], before[i]) && same(i, i + 1, j - i)) return [{ op: 'move', from: at(i), path: at(j) }];
  return whole;
}

/** Ops for the events of one transaction (as `observeDeep` hands them over). */
export function yEventsToOps(events: readonly Y.YEvent<any>[], doc: Y.Doc, unmapped?: UnmappedWrite[]): Op[] {
  const t = new TransactionOps(doc);
  t.add(events);
  unmapped?.push(...t.unmapped);
  return t.ops();
}

/**
 * Calls `onOps` once per transaction that changed the draft, with the ops of all three roots.
 * Returns the unsubscribe function.
 */
export function observeDraftOps(doc: Y.Doc, onOps: (ops: Op[], tr: Y.Transaction) => void): () => void {
  const pending = new WeakMap<Y.Transaction, TransactionOps>();
  const roots = draftRoots(doc);
  const deep = (events: Y.YEvent<any>[], tr: Y.Transaction) => {
    let t = pending.get(tr);
    if (t === undefined) pending.set(tr, (t = new TransactionOps(doc)));
    t.add(events);
  };
  const after = (tr: Y.Transaction) => {
    const ops = pending.get(tr)?.ops();
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

