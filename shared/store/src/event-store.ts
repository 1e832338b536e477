// The event log and snapshots behind one object; each method is one SQL operation in its own file.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Result } from '@weft/core';
import type { DB } from './schema.ts';
import type { AppendError, DraftMeta, GlobalBatch, GlobalCursor, NewSnapshot, NewStep, Snapshot, StoredStep } from './types.ts';
import { createDraft, getDraft, listDrafts } from './drafts.ts';
import { deleteDraft } from './delete-draft.ts';
import { append } from './append.ts';
import { findByOpId, findByOpIds, readOpsText, readSteps } from './read-steps.ts';
import { latestSnapshot, latestYSnapshot, listSnapshots, startEpoch, writeSnapshot } from './snapshots.ts';
import { setYUpdate } from './y-update.ts';
import { turnOpCount } from './turn-op-count.ts';
import { readGlobal } from './read-global.ts';

export class EventStore {
  readonly db: Kysely<DB>;
  constructor(db: Kysely<DB>) { this.db = db; }

  /** A trivial query: is the database answering? (health checks) */
  async ping(): Promise<void> { await sql`select 1`.execute(this.db); }

  createDraft(d: { id: string; title: string; createdBy: string }): Promise<Result<DraftMeta, 'exists'>> { return createDraft(this.db, d); }
  getDraft(id: string): Promise<DraftMeta | null> { return getDraft(this.db, id); }
  listDrafts(opts?: { limit?: number }): Promise<DraftMeta[]> { return listDrafts(this.db, opts); }
  /** Deletes the draft with its log, snapshots, sessions and turns; false when there was none. */
  deleteDraft(id: string): Promise<boolean> { return deleteDraft(this.db, id); }

  /** Appends steps as versions expectedVersion+1..+n in one transaction (group commit). */
  append(draftId: string, expectedVersion: number, steps: readonly NewStep[]): Promise<Result<StoredStep[], AppendError>> {
    return append(this.db, draftId, expectedVersion, steps);
  }
  findByOpId(draftId: string, opId: string): Promise<StoredStep | null> { return findByOpId(this.db, draftId, opId); }
  findByOpIds(draftId: string, opIds: readonly string[]): Promise<Map<string, StoredStep>> { return findByOpIds(this.db, draftId, opIds); }
  readSteps(draftId: string, opts?: { after?: number; limit?: number; upTo?: number }): Promise<StoredStep[]> { return readSteps(this.db, draftId, opts); }
  readOpsText(draftId: string, after: number, upTo?: number): Promise<{ version: number; opsText: string }[]> { return readOpsText(this.db, draftId, after, upTo); }

  writeSnapshot(s: NewSnapshot): Promise<boolean> { return writeSnapshot(this.db, s); }
  /** Moves the draft to Yjs epoch fromEpoch+1 with its base state at `s.version` (compaction). */
  startEpoch(fromEpoch: number, s: Omit<NewSnapshot, 'epoch' | 'reason'>): Promise<boolean> { return startEpoch(this.db, fromEpoch, s); }
  latestSnapshot(draftId: string, atOrBelow?: number): Promise<Snapshot | null> { return latestSnapshot(this.db, draftId, atOrBelow); }
  listSnapshots(draftId: string): Promise<Snapshot[]> { return listSnapshots(this.db, draftId); }
  latestYSnapshot(draftId: string, epoch: number, atOrBelow: number): Promise<Snapshot | null> { return latestYSnapshot(this.db, draftId, epoch, atOrBelow); }

  setYUpdate(draftId: string, version: number, update: Uint8Array): Promise<boolean> { return setYUpdate(this.db, draftId, version, update); }
  turnOpCount(draftId: string, turnId: string): Promise<number> { return turnOpCount(this.db, draftId, turnId); }
  /** Outbox read for relays; start from GLOBAL_START and pass back the returned cursor. */
  readGlobal(after: GlobalCursor, limit: number): Promise<GlobalBatch> { return readGlobal(this.db, after, limit); }
}
