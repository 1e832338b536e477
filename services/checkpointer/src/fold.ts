// Pure: previous snapshot + the log tail → the next snapshot's JSON and Yjs state. No I/O.
// The Yjs state continues the previous state's lineage with the steps' own stored update bytes
// (never a fresh doc under the same epoch: that would duplicate content on clients). When the
// lineage cannot be continued exactly, yState is null and loaders rebuild from JSON.
import * as Y from 'yjs';
import { applyOpsUnchecked, emptyDraft } from '@weft/core';
import type { Draft, Json, Op } from '@weft/core';

export interface PrevSnapshot { version: number; epoch: number; doc: Json; yState: Uint8Array | null }
export interface TailStep { version: number; ops: Op[]; yUpdate: Uint8Array | null }

export interface Folded {
  version: number;
  doc: Draft;
  yState: Uint8Array | null;
  /** Why yState is null, for logs and tests. */
  yNote: string | null;
}

export function foldSnapshot(draftId: string, epoch: number, prev: PrevSnapshot | null, tail: readonly TailStep[]): Folded {
  const doc: Draft = prev ? (structuredClone(prev.doc) as unknown as Draft) : emptyDraft(draftId);
  let version = prev ? prev.version : 0;
  for (const s of tail) {
    if (s.version !== version + 1) throw new Error(`foldSnapshot: tail not contiguous at ${version} → ${s.version}`);
    const r = applyOpsUnchecked(doc, s.ops);
    // Logged ops were validated at commit; a failure here is a bug, not an expected outcome.
    if (!r.ok) throw new Error(`foldSnapshot: version ${s.version} op ${r.error.index}: ${r.error.message}`);
    version = s.version;
  }
  const y = foldY(epoch, prev, tail);
  return { version, doc, yState: y.state, yNote: y.note };
}

function foldY(epoch: number, prev: PrevSnapshot | null, tail: readonly TailStep[]): { state: Uint8Array | null; note: string | null } {
  // Epoch 0's lineage starts from an empty doc (the session's DraftDoc.load); a later epoch starts
  // from a compaction snapshot, so without one there is nothing to continue.
  if (!prev && epoch !== 0) return { state: null, note: `no Yjs state of epoch ${epoch} to continue` };
  if (prev && prev.yState === null) return { state: null, note: `snapshot ${prev.version} has no Yjs state` };
  if (prev && prev.epoch !== epoch) return { state: null, note: `epoch changed ${prev.epoch} → ${epoch}` };
  const missing = tail.find((s) => s.yUpdate === null);
  if (missing) return { state: null, note: `version ${missing.version} has no stored Yjs update` };
  const updates: Uint8Array[] = prev?.yState ? [prev.yState] : [];
  for (const s of tail) updates.push(s.yUpdate as Uint8Array);
  const doc = new Y.Doc({ gc: true });
  try {
    for (const u of updates) Y.applyUpdate(doc, u);
    // Missing structs mean the lineage is broken (an update from another doc); do not store it.
    if (doc.store.pendingStructs !== null || doc.store.pendingDs !== null) return { state: null, note: 'Yjs updates do not chain' };
    return { state: Y.encodeStateAsUpdate(doc), note: null };
  } finally {
    doc.destroy();
  }
}
