// The one Yjs lineage loader (ARCHITECTURE.md "The Yjs door"): a base state of the draft's epoch
// (a snapshot's stored state, or genesis at version 0), then each later step's stored update
// bytes, in version order. The session's rooms, the checkpointer's fold and tests all load through
// here, so a lineage is rebuilt the same way everywhere.
import * as Y from 'yjs';
import { serverDoc } from './server-doc.ts';
import type { Op } from '@weft/core';
import { applyOpsToYDoc } from './apply-ops.ts';
import { genesis } from './mirror.ts';

export interface LineageBase { version: number; yState: Uint8Array }
export interface LineageStep { version: number; ops: readonly Op[]; yUpdate: Uint8Array | null }

/**
 * Steps logged without Yjs bytes (committed while no Yjs door was attached to the room) are
 * rebuilt from their ops by this client id. Events are never updated after the append, so every
 * load must rebuild them identically: a fixed client id on a deterministic replay gives the same
 * structs each time, in the session and in the checkpointer alike.
 */
export const REBUILD_CLIENT = 0x7ffffffe;

export class Lineage {
  readonly doc: Y.Doc;
  private at: number;

  private constructor(doc: Y.Doc, version: number) {
    this.doc = doc;
    this.at = version;
  }

  /** From a stored base, or genesis of the epoch at version 0 when there is none. */
  static open(draftId: string, epoch: number, base: LineageBase | null): Lineage {
    const doc = serverDoc();
    Y.applyUpdate(doc, base ? base.yState : genesis(draftId, epoch));
    return new Lineage(doc, base ? base.version : 0);
  }

  /** The version the lineage is at. */
  get version(): number {
    return this.at;
  }

  /** False when an update's parents are missing (bytes from another lineage): never store such a state. */
  get chained(): boolean {
    return this.doc.store.pendingStructs === null && this.doc.store.pendingDs === null;
  }

  /** Applies the next contiguous steps (those at or below the current version are skipped). */
  advance(steps: Iterable<LineageStep>): void {
    const doc = this.doc;
    // Stored updates go in one transaction per run (observers and cleanup run once: ~2× faster).
    let run: Uint8Array[] = [];
    const flush = (): void => {
      if (run.length === 0) return;
      const updates = run;
      run = [];
      doc.transact(() => { for (const u of updates) Y.applyUpdate(doc, u); });
    };
    for (const s of steps) {
      if (s.version <= this.at) continue;
      if (s.version !== this.at + 1) {
        flush();
        throw new Error(`Yjs lineage: step ${s.version} does not follow ${this.at}`);
      }
      if (s.yUpdate) run.push(s.yUpdate);
      else {
        flush();
        rebuild(doc, s.ops);
      }
      this.at = s.version;
    }
    flush();
  }
}

function rebuild(doc: Y.Doc, ops: readonly Op[]): void {
  const own = doc.clientID;
  doc.clientID = REBUILD_CLIENT;
  try {
    applyOpsToYDoc(doc, ops);
  } finally {
    doc.clientID = own;
  }
}
