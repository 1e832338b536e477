// The event log and snapshots behind one object; each method is one SQL operation in its own file.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Result } from '@weft/core';
import type { DB } from './schema.ts';
import type { AppendError, DraftMeta, NewSnapshot, NewStep, Snapshot, SnapshotEntry, StoredStep } from './types.ts';
import { createDraft, getDraft, headVersions, listDrafts } from './drafts.ts';
import { GroupCommit } from './group-commit.ts';
import { deleteDraft } from './delete-draft.ts';
import { findByOpId, findByOpIds, readSteps } from './read-steps.ts';
import { readOpsPage } from './replay/ops-page.ts';
import { readOpsPages } from './replay/ops-pages.ts';
import type { PagesOptions } from './replay/ops-pages.ts';
import type { OpsPage } from './replay/ops-page.ts';
import { latestSnapshot, latestYSnapshot, listSnapshots, snapshotVersions, startEpoch, writeSnapshot } from './snapshots.ts';
import { latestSnapshots, readStepRanges, snapshotTargets, writeSnapshots } from './checkpoint-batch.ts';
import type { SnapshotTarget, StepRange } from './checkpoint-batch.ts';
import { loadRoom } from './load-room.ts';
import { acquireLease, ownedCount, readLease, releaseLeases, renewLeases } from './leases.ts';
import type { Fence, LeaseView } from './leases.ts';
import { readStepViewsPage, readStepViewsText } from './read-step-views.ts';
import type { StepViewsPage } from './read-step-views.ts';
import type { RoomLoad } from './load-room.ts';
import { actorOpsSinceTurn, turnOpCount } from './turn-op-count.ts';
import { markPublished, unpublished } from './published.ts';
import { RunStore } from './run-store.ts';

export class EventStore {
  readonly db: Kysely<DB>;
  /** All drafts' appends of a tick in one statement (at most two in flight). */
  readonly commits: GroupCommit;
  /** Agent runs and their transcripts (kept with the draft, deleted with it). */
  readonly runs: RunStore;
  constructor(db: Kysely<DB>) {
    this.db = db;
    this.commits = new GroupCommit(db);
    this.runs = new RunStore(db);
  }

  /** A trivial query: is the database answering? (health checks) */
  async ping(): Promise<void> { await sql`select 1`.execute(this.db); }

  createDraft(d: { id: string; title: string; createdBy: string }): Promise<Result<DraftMeta, 'exists'>> { return createDraft(this.db, d); }
  getDraft(id: string): Promise<DraftMeta | null> { return getDraft(this.db, id); }
  /** Head versions of these drafts in one query (the followers' periodic check). */
  headVersions(ids: readonly string[]): Promise<Map<string, number>> { return headVersions(this.db, ids); }
  listDrafts(opts?: { limit?: number }): Promise<DraftMeta[]> { return listDrafts(this.db, opts); }
  /** Deletes the draft with its log, snapshots, sessions, turns and runs; false when there was none. */
  deleteDraft(id: string): Promise<boolean> { return deleteDraft(this.db, id); }

  /**
   * Appends steps as versions expectedVersion+1..+n, all or nothing. Calls from many drafts in the
   * same tick share one statement (cross-draft group commit); each keeps its own answer.
   */
  append(draftId: string, expectedVersion: number, steps: readonly NewStep[], fence?: Fence): Promise<Result<StoredStep[], AppendError>> {
    return this.commits.append(draftId, expectedVersion, steps, fence);
  }

  /** Leases (several session nodes): take or renew one, renew a node's held ones, let them all go. */
  acquireLease(draftId: string, node: string, url: string, ttlMs: number): Promise<LeaseView | null> { return acquireLease(this.db, draftId, node, url, ttlMs); }
  renewLeases(node: string, draftIds: readonly string[], ttlMs: number): Promise<Map<string, number>> { return renewLeases(this.db, node, draftIds, ttlMs); }
  releaseLeases(node: string): Promise<number> { return releaseLeases(this.db, node); }
  /** The lease as it stands, taking nothing (null: no such draft). */
  readLease(draftId: string): Promise<LeaseView | null> { return readLease(this.db, draftId); }
  ownedCount(node: string): Promise<number> { return ownedCount(this.db, node); }
  findByOpId(draftId: string, opId: string): Promise<StoredStep | null> { return findByOpId(this.db, draftId, opId); }
  findByOpIds(draftId: string, opIds: readonly string[]): Promise<Map<string, StoredStep>> { return findByOpIds(this.db, draftId, opIds); }
  readSteps(draftId: string, opts?: { after?: number; limit?: number; upTo?: number; actor?: string }): Promise<StoredStep[]> { return readSteps(this.db, draftId, opts); }
  /** Public step views as JSON text rendered by Postgres (the events route and its NDJSON stream). */
  readStepViewsText(draftId: string, after: number, limit: number, upTo: number): Promise<{ version: number; json: string }[]> { return readStepViewsText(this.db, draftId, after, limit, upTo); }
  readStepViewsPage(draftId: string, after: number, limit: number, upTo: number): Promise<StepViewsPage | null> { return readStepViewsPage(this.db, draftId, after, limit, upTo); }
  /** Up to `limit` steps after `after` as one JSON text (replay); throws if the log has a hole there. */
  readOpsPage(draftId: string, after: number, limit: number, upTo?: number): Promise<OpsPage | null> { return readOpsPage(this.db, draftId, after, limit, upTo); }
  /** The steps after `after` as pages in order (replay): one streamed query on Postgres; throws at a hole. */
  readOpsPages(draftId: string, after: number, opts?: PagesOptions): AsyncGenerator<OpsPage> { return readOpsPages(this.db, draftId, after, opts); }

  writeSnapshot(s: NewSnapshot): Promise<boolean> { return writeSnapshot(this.db, s); }
  /** Moves the draft to Yjs epoch fromEpoch+1 with its base state at `s.version` (compaction). */
  startEpoch(fromEpoch: number, s: Omit<NewSnapshot, 'epoch' | 'reason'>, fence?: Fence): Promise<boolean> { return startEpoch(this.db, fromEpoch, s, fence); }
  latestSnapshot(draftId: string, atOrBelow?: number): Promise<Snapshot | null> { return latestSnapshot(this.db, draftId, atOrBelow); }
  /** Oldest first, without content (version, epoch, reason, when). */
  listSnapshots(draftId: string): Promise<SnapshotEntry[]> { return listSnapshots(this.db, draftId); }
  /** Latest snapshot version per draft, without reading any snapshot (the checkpointer's sweep and start). */
  snapshotVersions(draftIds: readonly string[]): Promise<Map<string, number>> { return snapshotVersions(this.db, draftIds); }
  latestYSnapshot(draftId: string, epoch: number, atOrBelow: number): Promise<Snapshot | null> { return latestYSnapshot(this.db, draftId, epoch, atOrBelow); }
  /** The checkpointer's batch (one statement each, for many drafts): where each draft stands, ... */
  snapshotTargets(draftIds: readonly string[]): Promise<Map<string, SnapshotTarget>> { return snapshotTargets(this.db, draftIds); }
  /** ... the newest snapshot of each (content included), ... */
  latestSnapshots(draftIds: readonly string[]): Promise<Map<string, Snapshot>> { return latestSnapshots(this.db, draftIds); }
  /** ... each one's tail, ... */
  readStepRanges(ranges: readonly StepRange[]): Promise<Map<string, StoredStep[]>> { return readStepRanges(this.db, ranges); }
  /** ... and their snapshots written (the `draftId@version` keys that were new). */
  writeSnapshots(list: readonly NewSnapshot[]): Promise<Set<string>> { return writeSnapshots(this.db, list); }

  /** Everything a room needs to open, in one round trip (head, base snapshot with its Yjs state, tail). */
  loadRoom(draftId: string): Promise<RoomLoad | null> { return loadRoom(this.db, draftId); }
  turnOpCount(draftId: string, turnId: string): Promise<number> { return turnOpCount(this.db, draftId, turnId); }
  actorOpsSinceTurn(draftId: string, actor: string): Promise<number> { return actorOpsSinceTurn(this.db, draftId, actor); }
  /** The outbox cursor per draft (the relay): move it forward; list drafts whose head is past it. */
  markPublished(marks: readonly { draftId: string; version: number }[]): Promise<void> { return markPublished(this.db, marks); }
  unpublished(limit = 1000): Promise<{ draftId: string; publishedVersion: number; headVersion: number }[]> { return unpublished(this.db, limit); }
}
