// Any version of a draft: the latest snapshot at or below it, plus the log up to it. Used by the
// session's rooms, `?version=N`, the preview and the checkpointer, so replay has one definition.
import { applyOpsUnchecked, emptyDraft } from '@weft/core';
import type { Draft, Op } from '@weft/core';
import type { EventStore } from './event-store.ts';

export async function loadDraft(store: EventStore, draftId: string, upTo?: number): Promise<{ draft: Draft; version: number; snapshotVersion: number }> {
  const snap = await store.latestSnapshot(draftId, upTo);
  const draft: Draft = snap ? (structuredClone(snap.doc) as unknown as Draft) : emptyDraft(draftId);
  let version = snap ? snap.version : 0;
  for (const row of await store.readOpsText(draftId, version, upTo)) {
    if (row.version !== version + 1) throw new Error(`draft ${draftId}: the log has a gap after v${version} (next is v${row.version})`);
    // Committed ops were validated before append: a failure here is corruption, never skipped.
    const r = applyOpsUnchecked(draft, JSON.parse(row.opsText) as Op[]);
    if (!r.ok) throw new Error(`draft ${draftId} v${row.version} does not replay: op ${r.error.index}: ${r.error.message}`);
    version = row.version;
  }
  return { draft, version, snapshotVersion: snap ? snap.version : 0 };
}
