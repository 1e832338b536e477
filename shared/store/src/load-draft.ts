// Any version of a draft: the latest snapshot at or below it, plus the log up to it. Used by the
// session's rooms, `?version=N`, the preview and the checkpointer, so replay has one definition
// (replay/fold-page.ts). A tail that fits one page is folded here; a longer log is folded in the
// replay worker page by page while the next pages arrive (replay/ops-pages.ts, PERFORMANCE.md B6).
import { emptyDraft } from '@weft/core';
import type { Draft } from '@weft/core';
import type { EventStore } from './event-store.ts';
import { foldOffThread, ReplayWorkerLost } from './replay/fold-off-thread.ts';
import { foldPage } from './replay/fold-page.ts';
import type { OpsPage } from './replay/ops-page.ts';

export interface ReplayOptions {
  /** Steps per page (one JSON text each); default 1,000 (replay/ops-pages.ts). */
  pageSize?: number;
  /** Paged reads (PGlite): pages asked for ahead of the one being folded. */
  ahead?: number;
  /** false: page queries, not one streamed query (the bench's baseline). */
  stream?: boolean;
}

export async function loadDraft(store: EventStore, draftId: string, upTo?: number, opts: ReplayOptions = {}): Promise<{ draft: Draft; version: number; snapshotVersion: number }> {
  const snap = await store.latestSnapshot(draftId, upTo);
  const base = snap ? snap.version : 0;
  const start = (): Draft => (snap ? (structuredClone(snap.doc) as unknown as Draft) : emptyDraft(draftId));
  const out = (draft: Draft, version: number) => ({ draft, version, snapshotVersion: base });
  const read = { ...opts, ...(upTo === undefined ? {} : { upTo }) };
  const pages = store.readOpsPages(draftId, base, read);
  const head = await pages.next();
  if (head.done) return out(start(), base);
  const first = head.value;
  if (!first.more) {
    await pages.return(undefined);
    const draft = start();
    foldPage(draftId, draft, first.first, first.text);
    return out(draft, first.last);
  }
  let last = base;
  const seen = async function* (): AsyncGenerator<OpsPage> {
    try {
      for (let r: IteratorResult<OpsPage> = head; !r.done; r = await pages.next()) {
        last = r.value.last;
        yield r.value;
      }
    } finally {
      await pages.return(undefined); // stopped early (the fold failed): the read stops too
    }
  };
  try {
    // The worker receives its own copy of the snapshot's draft (postMessage clones), so no clone here.
    const draft = await foldOffThread(draftId, (snap ? snap.doc : emptyDraft(draftId)) as unknown as Draft, seen());
    return out(draft, last);
  } catch (e) {
    if (!(e instanceof ReplayWorkerLost)) throw e;
    await pages.return(undefined);
    const draft = start();
    for await (const page of store.readOpsPages(draftId, base, read)) {
      foldPage(draftId, draft, page.first, page.text);
      last = page.last;
    }
    return out(draft, last);
  }
}
