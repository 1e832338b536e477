// Any version of a draft: the latest snapshot at or below it, plus the log up to it. Used by the
// session's rooms, `?version=N`, the preview and the checkpointer, so replay has one definition.
import { applyOpsUnchecked, emptyDraft } from '@weft/core';
import type { Draft, Op } from '@weft/core';
import type { EventStore } from './event-store.ts';

/** Versions per replay page: ~2–4 MB of JSON for typical steps, far below Postgres's text limit. */
const REPLAY_PAGE = 20_000;

export async function loadDraft(store: EventStore, draftId: string, upTo?: number): Promise<{ draft: Draft; version: number; snapshotVersion: number }> {
  const snap = await store.latestSnapshot(draftId, upTo);
  const draft: Draft = snap ? (structuredClone(snap.doc) as unknown as Draft) : emptyDraft(draftId);
  let version = snap ? snap.version : 0;
  // Pages of the log as one JSON text each (one row, one parse per page, not per event).
  for (;;) {
    const page = await store.readOpsPage(draftId, version, REPLAY_PAGE, upTo);
    if (page.count === 0) break;
    if (page.last !== version + page.count) throw new Error(`draft ${draftId}: the log has a gap after v${version} (${page.count} versions up to v${page.last})`);
    const steps = JSON.parse(`[${page.opsJson}]`) as Op[][];
    for (const ops of steps) {
      version++;
      // Committed ops were validated before append: a failure here is corruption, never skipped.
      const r = applyOpsUnchecked(draft, ops);
      if (!r.ok) throw new Error(`draft ${draftId} v${version} does not replay: op ${r.error.index}: ${r.error.message}`);
    }
    if (page.count < REPLAY_PAGE) break;
  }
  return { draft, version, snapshotVersion: snap ? snap.version : 0 };
}
