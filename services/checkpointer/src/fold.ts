// Pure: previous snapshot + the log tail → the next snapshot's JSON and Yjs state. No I/O.
// The Yjs state continues the lineage the session loads (DraftDoc.load): the latest snapshot with a
// Yjs state of the draft's epoch, else `genesis(draftId, epoch)`, then each step's stored update
// bytes — never a fresh doc under the same epoch (that would duplicate content on clients). When
// the lineage cannot be continued exactly, yState is null and loaders rebuild from JSON.
//
// A DraftFold stays open between snapshots (the worker caches one per active draft), so a snapshot
// costs the tail's ops + one Yjs transaction + one encode, not a decode of the whole state
// (PERFORMANCE.md B8; bench/snapshot.bench.ts).
import * as Y from 'yjs';
import { applyOpsUnchecked, emptyDraft } from '@weft/core';
import type { Draft, Json, Op } from '@weft/core';
import { genesis } from '@weft/ydoc';

export interface PrevSnapshot { version: number; epoch: number; doc: Json; yState: Uint8Array | null }
export interface TailStep { version: number; ops: Op[]; yUpdate: Uint8Array | null }
/** Where the Yjs lineage restarts: a stored state of the epoch at `version`, or genesis at 0. */
export interface YBase { version: number; yState: Uint8Array }

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
  private ydoc: Y.Doc | null = null;
  private yVersion = 0;
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
      const doc = new Y.Doc({ gc: true });
      Y.applyUpdate(doc, yBase.yState);
      this.ydoc = doc;
      this.yVersion = yBase.version;
      this.checkChained();
    }
  }

  /** The version the JSON is at. */
  get version(): number { return this.jsonVersion; }

  /** The tail passed to `advance` must start right after this version. */
  get from(): number { return this.ydoc ? Math.min(this.yVersion, this.jsonVersion) : this.jsonVersion; }

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
    const doc = this.ydoc;
    if (!doc) return;
    const ys = tail.filter((s) => s.version > this.yVersion);
    const missing = ys.find((s) => s.yUpdate === null);
    // Apply up to the gap, so the lineage continues once the session back-fills those bytes.
    const usable = missing ? ys.slice(0, ys.indexOf(missing)) : ys;
    // One transaction for the whole tail: observers and cleanup run once (≈2× faster than one per update).
    doc.transact(() => { for (const s of usable) Y.applyUpdate(doc, s.yUpdate as Uint8Array); });
    if (usable.length > 0) this.yVersion = usable[usable.length - 1]!.version;
    if (missing) this.drop(`version ${missing.version} has no stored Yjs update`);
    else this.checkChained();
  }

  /** The snapshot at `version`: the JSON (a copy) and, when the lineage reached it, the encoded Yjs state. */
  result(): Folded {
    const doc = structuredClone(this.json);
    if (this.ydoc && this.yVersion === this.jsonVersion) {
      return { version: this.jsonVersion, doc, yState: Y.encodeStateAsUpdate(this.ydoc), yNote: null };
    }
    const note = this.ydoc ? `Yjs lineage at ${this.yVersion}, JSON at ${this.jsonVersion}` : this.yNote;
    return { version: this.jsonVersion, doc, yState: null, yNote: note };
  }

  /** Without a lineage, results carry no Yjs state (the worker reopens from a stored base later). */
  get hasLineage(): boolean { return this.ydoc !== null; }

  dispose(): void { this.drop(this.yNote ?? 'disposed'); }

  private checkChained(): void {
    const doc = this.ydoc;
    // Missing structs mean the lineage is broken (an update from another doc); do not store it.
    if (doc && (doc.store.pendingStructs !== null || doc.store.pendingDs !== null)) this.drop('Yjs updates do not chain');
  }

  private drop(note: string): void {
    this.ydoc?.destroy();
    this.ydoc = null;
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
