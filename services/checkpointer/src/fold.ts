// Pure: previous snapshot + the log tail → the next snapshot's JSON and Yjs state. No I/O.
// The Yjs state continues the lineage the session loads, through the same loader (ydoc's
// Lineage): the latest snapshot with a Yjs state of the draft's epoch, else genesis, then each
// step's stored update bytes (steps without bytes rebuilt the same way everywhere) — never a
// fresh doc under the same epoch. When the lineage does not chain, yState is null.
//
// A DraftFold stays open between snapshots (the worker caches one per active draft), so a snapshot
// costs the tail's ops + one Yjs transaction + one encode, not a decode of the whole state
// (PERFORMANCE.md B8; bench/snapshot.bench.ts).
import * as Y from 'yjs';
import { applyOpsUnchecked, emptyDraft } from '@weft/core';
import type { Draft, Json, Op } from '@weft/core';
import { genesis, Lineage } from '@weft/ydoc';
import type { LineageBase } from '@weft/ydoc';

export interface PrevSnapshot { version: number; epoch: number; doc: Json; yState: Uint8Array | null }
export interface TailStep { version: number; ops: Op[]; yUpdate: Uint8Array | null }
/** Where the Yjs lineage restarts: a stored state of the epoch at `version`, or genesis at 0. */
export type YBase = LineageBase;

export interface Folded {
  version: number;
  doc: Draft;
  yState: Uint8Array | null;
  /** Why yState is null, for logs and tests. */
  yNote: string | null;
}

/** The Yjs base the session would load from for `prev`: the snapshot itself, or genesis when there is none. */
export function yBaseOf(draftId: string, epoch: number, prev: PrevSnapshot | null): YBase | null {
  if (!prev) return { version: 0, yState: genesis(draftId, epoch) };
  if (prev.yState !== null && prev.epoch === epoch) return { version: prev.version, yState: prev.yState };
  return null;
}

export class DraftFold {
  readonly draftId: string;
  readonly epoch: number;
  private json: Draft;
  private jsonVersion: number;
  private lineage: Lineage | null = null;
  private yNote: string | null;

  /**
   * `prev`: the JSON base (latest snapshot, or none = the empty draft at 0). `yBase`: the Yjs base,
   * at or below prev's version (null = no lineage to continue; every result has yState null).
   */
  constructor(draftId: string, epoch: number, prev: PrevSnapshot | null, yBase: YBase | null) {
    this.draftId = draftId;
    this.epoch = epoch;
    this.json = prev ? (structuredClone(prev.doc) as unknown as Draft) : emptyDraft(draftId);
    this.jsonVersion = prev ? prev.version : 0;
    if (prev && prev.epoch !== epoch && !yBase) this.yNote = `epoch changed ${prev.epoch} → ${epoch}`;
    else this.yNote = yBase ? null : `snapshot ${prev?.version ?? 0} has no Yjs state of epoch ${epoch}`;
    if (yBase) {
      if (yBase.version > this.jsonVersion) throw new Error(`DraftFold: Yjs base ${yBase.version} is above the JSON base ${this.jsonVersion}`);
      this.lineage = Lineage.open(draftId, epoch, yBase);
      this.checkChained();
    }
  }

  /** The version the JSON is at. */
  get version(): number { return this.jsonVersion; }

  /** The tail passed to `advance` must start right after this version. */
  get from(): number { return this.lineage ? Math.min(this.lineage.version, this.jsonVersion) : this.jsonVersion; }

  /** Applies the next contiguous steps (starting at `from + 1`); each side takes the steps above its version. */
  advance(tail: readonly TailStep[]): void {
    let v = this.from;
    for (const s of tail) {
      if (s.version !== v + 1) throw new Error(`foldSnapshot: tail not contiguous at ${v} → ${s.version}`);
      v = s.version;
    }
    for (const s of tail) {
      if (s.version <= this.jsonVersion) continue;
      const r = applyOpsUnchecked(this.json, s.ops);
      // Logged ops were validated at commit; a failure here is a bug, not an expected outcome.
      if (!r.ok) throw new Error(`foldSnapshot: version ${s.version} op ${r.error.index}: ${r.error.message}`);
      this.jsonVersion = s.version;
    }
    if (!this.lineage) return;
    this.lineage.advance(tail);
    this.checkChained();
  }

  /** The snapshot at `version`: the JSON (a copy) and, when the lineage reached it, the encoded Yjs state. */
  result(): Folded {
    const doc = structuredClone(this.json);
    const l = this.lineage;
    if (l && l.version === this.jsonVersion) return { version: this.jsonVersion, doc, yState: Y.encodeStateAsUpdate(l.doc), yNote: null };
    const note = l ? `Yjs lineage at ${l.version}, JSON at ${this.jsonVersion}` : this.yNote;
    return { version: this.jsonVersion, doc, yState: null, yNote: note };
  }

  /** Without a lineage, results carry no Yjs state (the worker reopens from a stored base later). */
  get hasLineage(): boolean { return this.lineage !== null; }

  dispose(): void { this.drop(this.yNote ?? 'disposed'); }

  private checkChained(): void {
    // Missing structs mean the lineage is broken (an update from another doc); do not store it.
    if (this.lineage && !this.lineage.chained) this.drop('Yjs updates do not chain');
  }

  private drop(note: string): void {
    this.lineage?.doc.destroy();
    this.lineage = null;
    this.yNote = note;
  }
}

/** One-shot fold (cold path and tests): opens a DraftFold from `prev`, applies `tail`, encodes once. */
export function foldSnapshot(draftId: string, epoch: number, prev: PrevSnapshot | null, tail: readonly TailStep[]): Folded {
  const f = new DraftFold(draftId, epoch, prev, yBaseOf(draftId, epoch, prev));
  try {
    f.advance(tail);
    return f.result();
  } finally {
    f.dispose();
  }
}
