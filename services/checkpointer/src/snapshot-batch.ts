// One batch of snapshots (DueQueue runs them): where every draft stands, the stored bases of the
// ones without an open fold, their tails and the snapshots written, each one statement for the
// whole batch. A snapshot of one draft used to be four round trips of its own, and those writes
// (each waking a Postgres backend) were most of the worker's time when drafts came due together.
import type { EventStore } from '@weft/store';
import type { Json } from '@weft/core';
import { genesis } from '@weft/ydoc';
import type { Logger } from '@weft/ops';
import { DraftFold, yBaseOf } from './fold.ts';
import type { YBase } from './fold.ts';
import type { RunBatch } from './due-queue.ts';
import type { CheckpointRecord, SnapshotReason } from './app.ts';

export interface SnapshotRequest { draftId: string; upTo: number | null; reason: SnapshotReason }

/** Steps read per draft per round: a catch-up after downtime reads its tail in pieces. */
const TAIL_PAGE = 2000;

/** Open folds (JSON + Y.Doc) kept between snapshots; Map order = least recently used first. */
export class FoldCache {
  private readonly folds = new Map<string, DraftFold>();
  private readonly max: number;
  constructor(max: number) { this.max = max; }

  /**
   * The draft's fold, out of the cache, if it can still reach `target` along the same lineage;
   * one that lost its Yjs lineage is dropped, so bytes the session back-filled are picked up.
   */
  take(draftId: string, epoch: number, target: number): DraftFold | undefined {
    const fold = this.folds.get(draftId);
    if (!fold) return undefined;
    this.folds.delete(draftId);
    if (fold.epoch === epoch && fold.version <= target && fold.hasLineage) return fold;
    fold.dispose();
    return undefined;
  }

  keep(draftId: string, fold: DraftFold): void {
    this.forget(draftId);
    this.folds.set(draftId, fold);
    while (this.folds.size > this.max) this.forget(this.folds.keys().next().value as string);
  }

  forget(draftId: string): void {
    this.folds.get(draftId)?.dispose();
    this.folds.delete(draftId);
  }

  clear(): void {
    for (const id of [...this.folds.keys()]) this.forget(id);
  }
}

interface Job { at: number; req: SnapshotRequest; target: number; epoch: number; fold: DraftFold | null; warm: boolean; foldMs: number }

/** Each request's answer: the version written, null when none was needed (or another worker wrote it), or an Error. */
export function snapshotBatch(store: EventStore, cache: FoldCache, log: Logger, record: (r: CheckpointRecord) => void): RunBatch<SnapshotRequest, number | null> {
  /** The session's Yjs base for `prev` (DraftDoc.load): that snapshot, an older one of the epoch, or genesis. */
  const yBaseFor = async (draftId: string, epoch: number, prev: Awaited<ReturnType<EventStore['latestSnapshot']>>): Promise<YBase> => {
    const direct = yBaseOf(draftId, epoch, prev);
    if (direct) return direct;
    const best = await store.latestYSnapshot(draftId, epoch, prev?.version ?? 0);
    return best?.yState ? { version: best.version, yState: best.yState } : { version: 0, yState: genesis(draftId, epoch) };
  };

  return async (reqs) => {
    const t0 = performance.now();
    const answers: (number | null | Error)[] = reqs.map(() => null);
    const fail = (j: Job, e: unknown): void => {
      j.fold?.dispose();
      j.fold = null;
      answers[j.at] = e instanceof Error ? e : new Error(String(e));
    };
    const targets = await store.snapshotTargets(reqs.map((r) => r.draftId));
    const jobs: Job[] = [];
    reqs.forEach((req, at) => {
      const t = targets.get(req.draftId);
      if (!t) { cache.forget(req.draftId); return; } // deleted
      const target = Math.min(req.upTo ?? t.headVersion, t.headVersion);
      if (target <= t.snapshotVersion) return; // never below (or at) the latest
      const fold = cache.take(req.draftId, t.epoch, target) ?? null;
      jobs.push({ at, req, target, epoch: t.epoch, fold, warm: fold !== null, foldMs: 0 });
    });
    try {
      const cold = jobs.filter((j) => j.fold === null);
      const prevs = await store.latestSnapshots(cold.map((j) => j.req.draftId));
      for (const j of cold) {
        const prev = prevs.get(j.req.draftId) ?? null;
        if (j.target <= (prev?.version ?? 0)) continue; // another worker wrote one since: nothing to do
        try {
          const yBase = await yBaseFor(j.req.draftId, j.epoch, prev);
          const f0 = performance.now();
          j.fold = new DraftFold(j.req.draftId, j.epoch, prev ? { ...prev } : null, yBase);
          j.foldMs += performance.now() - f0;
        } catch (e) {
          fail(j, e);
        }
      }
      for (let open = jobs.filter((j) => j.fold !== null && j.fold.version < j.target); open.length > 0; open = open.filter((j) => j.fold !== null && j.fold.version < j.target)) {
        const tails = await store.readStepRanges(open.map((j) => ({ draftId: j.req.draftId, after: j.fold!.from, upTo: Math.min(j.target, j.fold!.from + TAIL_PAGE) })));
        for (const j of open) {
          const tail = tails.get(j.req.draftId);
          if (!tail) { fail(j, new Error(`log of ${j.req.draftId} ends before ${j.target}`)); continue; }
          try {
            const f0 = performance.now();
            j.fold!.advance(tail);
            j.foldMs += performance.now() - f0;
          } catch (e) {
            fail(j, e);
          }
        }
      }
      const folded = jobs.flatMap((j) => {
        if (j.fold === null) return [];
        const f1 = performance.now();
        const f = j.fold.result();
        j.foldMs += performance.now() - f1;
        return [{ j, f }];
      });
      const written = await store.writeSnapshots(folded.map(({ j, f }) => ({ draftId: j.req.draftId, version: f.version, epoch: j.epoch, doc: f.doc as unknown as Json, yState: f.yState, reason: j.req.reason })));
      const ms = performance.now() - t0;
      for (const { j, f } of folded) {
        cache.keep(j.req.draftId, j.fold!);
        if (!written.has(`${j.req.draftId}@${f.version}`)) continue; // another worker got there first: the same content
        if (f.yState === null) log.warn('snapshot without Yjs state', { draftId: j.req.draftId, version: f.version, note: f.yNote });
        record({ draftId: j.req.draftId, version: f.version, reason: j.req.reason, ms, foldMs: j.foldMs, warm: j.warm, yState: f.yState !== null });
        answers[j.at] = f.version;
      }
    } catch (e) {
      // The batch's I/O failed: each draft in it fails, its fold (perhaps part-advanced) dropped.
      for (const j of jobs) if (answers[j.at] === null) fail(j, e);
    }
    return answers;
  };
}
