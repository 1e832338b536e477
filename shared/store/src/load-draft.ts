// Any version of a draft: the latest snapshot at or below it, plus the log up to it. Used by the
// session's rooms, `?version=N`, the preview and the checkpointer, so replay has one definition
// (replay/fold-page.ts). A tail that fits one page is folded here; a longer log is folded in the
// replay worker page by page while the next pages are fetched (PERFORMANCE.md B6).
import { emptyDraft } from '@weft/core';
import type { Draft } from '@weft/core';
import type { EventStore } from './event-store.ts';
import { foldOffThread, ReplayWorkerLost } from './replay/fold-off-thread.ts';
import { foldPage } from './replay/fold-page.ts';
import type { OpsPage } from './replay/ops-page.ts';

export interface ReplayOptions {
  /** Steps per page (one query, one JSON text); default: sized to PAGE_BYTES. */
  pageSize?: number;
  /** Pages asked for ahead of the one being folded. */
  ahead?: number;
}
/**
 * Pages are sized from the steps seen so far to stay under ~100 KB of text: V8 keeps a string over
 * 128 KB in a space of its own, mapped fresh and unmapped after GC, and on our VMs (11–14 µs a page
 * fault) 10,000-step pages of 850 KB made a 100k-step replay 570k steps/s against 740k at ~1,000
 * steps, four ahead (shared/store/bench/replay.bench.ts).
 */
const PAGE_BYTES = 100_000;
const FIRST_PAGE = 1000;
const AHEAD = 4;
const pageFor = (p: OpsPage): number => Math.max(100, Math.min(10_000, Math.floor((PAGE_BYTES * p.count) / p.text.length)));

export async function loadDraft(store: EventStore, draftId: string, upTo?: number, opts: ReplayOptions = {}): Promise<{ draft: Draft; version: number; snapshotVersion: number }> {
  let pageSize = opts.pageSize ?? FIRST_PAGE;
  const aheadMax = opts.ahead ?? AHEAD;
  const snap = await store.latestSnapshot(draftId, upTo);
  const base = snap ? snap.version : 0;
  const start = (): Draft => (snap ? (structuredClone(snap.doc) as unknown as Draft) : emptyDraft(draftId));
  const first = await store.readOpsPage(draftId, base, pageSize, upTo);
  const out = (draft: Draft, version: number) => ({ draft, version, snapshotVersion: base });
  if (!first) return out(start(), base);
  if (!first.more) {
    const draft = start();
    foldPage(draftId, draft, first.first, first.text);
    return out(draft, first.last);
  }
  let last = base;
  // Pages are version ranges, so the next ones can be asked for before this one arrives: Postgres
  // renders a few pages ahead (on its own backends) while the worker parses and folds this one.
  const pages = async function* (): AsyncGenerator<OpsPage> {
    const ahead: Promise<OpsPage | null>[] = [];
    let asked = first.last;
    const ask = (): void => {
      const p = store.readOpsPage(draftId, asked, pageSize, upTo);
      p.catch(() => {}); // awaited below; a consumer that stops early must not leave it unhandled
      ahead.push(p);
      asked += pageSize;
    };
    let page: OpsPage | null = first;
    while (page) {
      if (opts.pageSize === undefined) pageSize = pageFor(page);
      while (page.more && ahead.length < aheadMax && (upTo === undefined || asked < upTo)) ask();
      last = page.last;
      yield page;
      if (!page.more) return;
      const after: number = page.last;
      page = await ahead.shift()!;
      // Steps past `after` were there a moment ago: a log that now ends there has lost rows.
      if (!page) throw new Error(`draft ${draftId}: the log has a gap after v${after}`);
    }
  };
  try {
    // The worker receives its own copy of the snapshot's draft (postMessage clones), so no clone here.
    const draft = await foldOffThread(draftId, (snap ? snap.doc : emptyDraft(draftId)) as unknown as Draft, pages());
    return out(draft, last);
  } catch (e) {
    if (!(e instanceof ReplayWorkerLost)) throw e;
    const draft = start();
    for await (const page of pages()) foldPage(draftId, draft, page.first, page.text);
    return out(draft, last);
  }
}
