// Draft JSON ⇄ Y.Doc, whole. `meta` holds the title and the doc epoch (ARCHITECTURE.md: compaction
// builds a fresh doc under epoch n+1, never rebuilds one under the same name).
import * as Y from 'yjs';
import { serverDoc } from './server-doc.ts';
import type { Draft, Json } from '@weft/core';
import { META, ORDER, SECTION, SECTIONS, SECTIONS_ROOT, fromY, toY } from './shape.ts';
import { cloneJson } from './json-edit.ts';

export interface DraftRoots {
  meta: Y.Map<unknown>;
  order: Y.Array<unknown>;
  sections: Y.Map<unknown>;
}

export function draftRoots(doc: Y.Doc): DraftRoots {
  return { meta: doc.getMap(META), order: doc.getArray(ORDER), sections: doc.getMap(SECTIONS_ROOT) };
}

/** Fills an empty doc with `draft` in one transaction. */
export function draftToYDoc(draft: Draft, doc: Y.Doc, epoch = 0, origin: unknown = null): void {
  const { meta, order, sections } = draftRoots(doc);
  if (meta.size > 0 || order.length > 0 || sections.size > 0) throw new Error('draftToYDoc needs an empty doc');
  doc.transact(() => {
    meta.set('title', draft.title);
    meta.set('epoch', epoch);
    order.push(draft.order.map(cloneJson));
    for (const [sid, section] of Object.entries(draft.sections)) {
      sections.set(sid, toY(SECTION, section as unknown as Json));
    }
  }, origin);
}

/** The doc's draft: a fresh object (key order: the doc's insertion order; fields in type order). */
export function yDocToDraft(doc: Y.Doc, id: string): Draft {
  const { meta, order, sections } = draftRoots(doc);
  const out: Record<string, Json> = { id };
  if (meta.has('title')) out['title'] = fromY({ t: 'json' }, meta.get('title'), 'title');
  out['order'] = fromY({ t: 'list' }, order, 'order');
  out['sections'] = fromY(SECTIONS, sections, 'sections');
  return out as unknown as Draft;
}

export function readEpoch(doc: Y.Doc): number {
  const e = doc.getMap(META).get('epoch');
  return typeof e === 'number' ? e : 0;
}

/**
 * A draft lineage's first state: the empty draft written by the fixed client id 0, so every
 * process that starts a lineage (the session's rooms, the checkpointer) produces byte-identical
 * structs — the same lineage, never duplicated content.
 */
export function genesis(draftId: string, epoch: number): Uint8Array {
  return epochBase({ id: draftId, title: '', order: [], sections: {} }, epoch);
}

/**
 * The base of a Yjs epoch: `draft` built fresh by client id `epoch`. Compaction (ARCHITECTURE.md)
 * starts epoch n+1 from the draft as committed; the client id makes a peer that still holds an
 * older epoch's doc recognisable by the ids in its state (isStaleEpoch).
 */
export function epochBase(draft: Draft, epoch: number): Uint8Array {
  const d = serverDoc();
  d.clientID = epoch;
  draftToYDoc(draft, d, epoch);
  const u = Y.encodeStateAsUpdate(d);
  d.destroy();
  return u;
}

/**
 * True when a peer's state (its state vector's or update's client ids) comes from an older epoch:
 * every epoch's doc holds its base's structs, written by client id = that epoch. (A random Yjs
 * client id below the epoch is a 1-in-2^32-per-epoch event.)
 */
export function isStaleEpoch(clients: Iterable<number>, epoch: number): boolean {
  for (const c of clients) if (c < epoch) return true;
  return false;
}
