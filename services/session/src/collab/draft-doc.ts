import jsonpatch from 'fast-json-patch';
import * as Y from 'yjs';
import type { Op } from '@weft/core';
import type { RoomLoad } from '@weft/store';
import { applyOpsToYDoc, createShadow, epochBase, Lineage, serverDoc, UpdateGuard, yDocToDraft } from '@weft/ydoc';
import type { Room, RoomMirror } from '../rooms/room.ts';
import type { CommittedStep } from '../rooms/types.ts';

/**
 * A room's Yjs lineage doc: the draft as a Y.Doc, kept in lockstep with the room's JSON mirror
 * inside the synchronous pipeline. It doubles as the update guard's shadow (YJS-WRITES.md): a
 * peer's update is tried on it first. `live` is the Hocuspocus document peers sync with; it only
 * ever receives committed updates (or a refused update merged with its inverse).
 *
 * Loaded from the latest snapshot that carries a Yjs state of the draft's epoch, plus each later
 * step's stored update bytes — never rebuilt from JSON under the same epoch (RELIABILITY.md #344).
 * Events are immutable: a step logged without bytes is rebuilt from its ops the same way on every
 * load (`Lineage`), never written back.
 *
 * While peers are connected and nothing is in flight, the lineage holds exactly what live holds
 * plus the bytes waiting in `pendingLog` (everything else it took in was committed, and so sent to
 * live, or is in that list). A draft quiet for `releaseAfterMs` then lets its lineage doc go — an
 * open draft would otherwise hold two full Y.Docs of itself — and the next step rebuilds it from
 * live and the pending bytes (~0.5 ms for a 4 KB draft, ~2 ms for 35 KB). If the last peer leaves
 * while it is released, live's state is kept as update bytes (`parked`), not rebuilt into a doc: a
 * node whose peers all leave at once (a drain, a network cut) did every room's rebuild in one burst
 * that stalled it for hundreds of ms, for rooms that may never take another step.
 */
export class DraftDoc implements RoomMirror {
  readonly room: Room;
  live: Y.Doc | null = null;
  private pendingLog: Uint8Array[] = [];
  /** While released with no live doc: live's last state, which with `pendingLog` is the lineage. */
  private parked: Uint8Array | null = null;
  /** The lineage doc with its guard; null while released (live attached, nothing in flight). */
  private held: { doc: Y.Doc; guard: UpdateGuard } | null;
  private readonly releaseAfterMs: number | null;
  private releaseTimer: NodeJS.Timeout | null = null;
  private usedAt = 0;
  private releasedClient = 0;
  /**
   * The server's own transactions. A Hocuspocus "local" origin that skips the store hooks: the log
   * is the store, and running the (empty) onStoreDocument chain — a debounce, a mutex, a promise
   * chain — for every committed update was ~9% of a busy node's time.
   */
  readonly origin = { source: 'local', skipStoreHooks: true, name: 'weft-server' } as const;
  /**
   * Yjs client id → the actor who first wrote with it (forged ids are refused). By actor, not by
   * socket: a peer that reconnects keeps its client id and sends its offline edits on a new socket.
   */
  readonly owners = new Map<number, string>();

  /** Structs of a fresh build of the draft, as last measured (null: not yet). */
  private freshStructs: number | null;

  private constructor(room: Room, doc: Y.Doc, freshStructs: number | null, o: DraftDocOptions) {
    this.room = room;
    this.held = { doc, guard: new UpdateGuard(doc) };
    this.freshStructs = freshStructs;
    this.releaseAfterMs = o.releaseAfterMs ?? null;
  }

  /** A new epoch's lineage: the room's draft built fresh (compaction; the room must be idle). */
  static fresh(room: Room, base: Uint8Array, o: DraftDocOptions = {}): DraftDoc {
    const doc = serverDoc();
    Y.applyUpdate(doc, base);
    return new DraftDoc(room, doc, structCount(doc), o);
  }

  /** The lineage doc (rebuilt from live if it was released). */
  get doc(): Y.Doc {
    return this.hold().doc;
  }

  /** The update guard over the lineage doc (its shadow). */
  get guard(): UpdateGuard {
    return this.hold().guard;
  }

  /** Whether the lineage doc is in memory now (false: released while the draft was quiet). */
  get holdsLineage(): boolean {
    return this.held !== null;
  }

  /** Structs of the lineage, counted on live while it is released (the same structs). */
  structs(): number {
    return structCount(this.held?.doc ?? this.live ?? this.doc);
  }

  /** The lineage, rebuilt if released; every use (a step, a peer's update tried) restarts the quiet spell. */
  private hold(): { doc: Y.Doc; guard: UpdateGuard } {
    this.usedAt = Date.now();
    if (this.held) return this.held;
    // Released only with live attached and nothing in flight: live (or its parked state, once it
    // went away) + the unlogged bytes is the lineage.
    const doc = createShadow(this.live ?? this.parked!);
    this.parked = null;
    // Server-made steps go on writing as the same Yjs client (it has all of that client's structs),
    // so a draft's state vector does not grow by a client per quiet spell.
    doc.clientID = this.releasedClient;
    for (const bytes of this.pendingLog) Y.applyUpdate(doc, bytes);
    this.held = { doc, guard: new UpdateGuard(doc) };
    return this.held;
  }

  /**
   * Lets the lineage doc go if the draft is quiet: peers attached (live is the copy it is rebuilt
   * from), nothing in flight, no tested update waiting. Returns whether it did.
   */
  release(): boolean {
    const h = this.held;
    if (!h || !this.live || !this.room.idle || this.room.broken || h.guard.pending) return false;
    this.releasedClient = h.doc.clientID;
    h.guard.destroy();
    h.doc.destroy();
    this.held = null;
    return true;
  }

  /**
   * The door replaced or dropped this lineage (a new epoch, a reload, the lease moved): no timer
   * may keep it — and the old live doc it points to, history and all — alive any longer.
   */
  retire(): void {
    this.retired = true;
    if (this.releaseTimer !== null) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
  }
  private retired = false;

  /** After `releaseAfterMs` without use, try to release (again after each commit and attach). */
  private scheduleRelease(): void {
    const ms = this.releaseAfterMs;
    if (ms === null || this.retired || this.releaseTimer !== null || !this.held || !this.live) return;
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = null;
      if (Date.now() - this.usedAt < ms) this.scheduleRelease();
      else this.release();
    }, Math.max(0, this.usedAt + ms - Date.now()));
    this.releaseTimer.unref();
  }

  /**
   * The lineage carries more history than content: time for a new epoch. Tombstones of edits stay
   * in a Y.Doc as structs (in the lineage and in live; edits to one key or one run of text merge,
   * edits spread over many keys do not), so an open draft's memory would grow with its history; a
   * fresh build holds only what the draft is. Wanted when the excess over a fresh build passes
   * both `minStructs` and `ratio` × the fresh build (a reload costs every peer about one fresh
   * build, so by default it is paid once per build's worth of history). Counting structs is O(clients); the fresh build
   * is measured again only when the last measure says yes (the draft may have grown since).
   */
  wantsCompaction(minStructs: number, ratio = 1, now = Date.now()): boolean {
    const n = this.structs();
    const over = (fresh: number): boolean => n - fresh > Math.max(minStructs, ratio * fresh);
    if (n <= minStructs || (this.freshStructs !== null && !over(this.freshStructs))) return false;
    // The fresh build costs ~20 ms on a 64 KB draft: measured at most once a second, never per
    // commit (it was most of the session's busy time on a hot draft past the threshold).
    if (this.freshStructs !== null && now - this.measuredAt < REMEASURE_MS) return true;
    const fresh = serverDoc();
    Y.applyUpdate(fresh, epochBase(this.room.draft, this.room.epoch + 1));
    this.freshStructs = structCount(fresh);
    this.measuredAt = now;
    fresh.destroy();
    return over(this.freshStructs);
  }
  private measuredAt = -Infinity;

  /** The room's lineage from its load (the same base and tail as its JSON mirror; ydoc's one loader). */
  static fromLoad(room: Room, loaded: RoomLoad, o: DraftDocOptions = {}): DraftDoc {
    const lineage = Lineage.open(room.draftId, loaded.meta.epoch, loaded.base);
    lineage.advance(loaded.tail);
    return new DraftDoc(room, lineage.doc, null, o);
  }

  /** Inside the room's synchronous pipeline, right after the JSON mirror changed. */
  applied(step: { ops: Op[]; notes: CommittedStep['notes'] }, fromPeer: Uint8Array | null): Uint8Array | null {
    if (fromPeer === null) return this.logged(capture(this.doc, () => applyOpsToYDoc(this.doc, step.ops, this.origin)));
    this.guard.commit();
    if (step.notes.length === 0) return this.logged(fromPeer);
    // The pipeline repaired the peer's ops: bring the doc to the repaired draft as a server change.
    const repair = jsonpatch.compare(yDocToDraft(this.doc, this.room.draftId), this.room.draft) as Op[];
    if (repair.length === 0) return this.logged(fromPeer);
    const bytes = capture(this.doc, () => applyOpsToYDoc(this.doc, repair, this.origin));
    return this.logged(Y.mergeUpdates([fromPeer, bytes]));
  }

  /**
   * An uncommitted server-made step taken back out (its opId turned out to be old): its inverse is
   * applied as a server change, and both ride in the next step's logged bytes as one no-op pair,
   * like a refused update with its inverse, so the log still rebuilds exactly this lineage.
   */
  retracted(step: CommittedStep): void {
    const undo = capture(this.doc, () => applyOpsToYDoc(this.doc, step.inverse, this.origin));
    this.unlogged(step.yUpdate ? Y.mergeUpdates([step.yUpdate, undo]) : undo);
  }

  /**
   * Bytes the lineage took in without a step of their own (a refused update with its inverse, an
   * update that changed nothing). Later steps may build on them, so they ride in the next step's
   * stored bytes: a load from the log then rebuilds exactly this lineage, with no missing parents.
   */
  unlogged(bytes: Uint8Array): void {
    this.pendingLog.push(bytes);
    if (this.pendingLog.length > 32) this.pendingLog = [Y.mergeUpdates(this.pendingLog)];
  }

  private logged(bytes: Uint8Array): Uint8Array {
    if (this.pendingLog.length === 0) return bytes;
    const all = Y.mergeUpdates([...this.pendingLog, bytes]);
    this.pendingLog = [];
    return all;
  }

  /** Called after each committed batch (the collaboration door checks for compaction). */
  onCommitted: (() => void) | null = null;

  /** After COMMIT: peers get the committed updates, in version order. */
  committed(steps: CommittedStep[]): void {
    const live = this.live;
    // One transaction: peers get the batch as one update (one frame each), not one per step.
    if (live) Y.transact(live, () => { for (const s of steps) if (s.yUpdate) Y.applyUpdate(live, s.yUpdate, this.origin); }, this.origin);
    this.onCommitted?.();
    this.scheduleRelease();
  }

  /** Hocuspocus loaded the document: it starts from the lineage as committed. */
  attach(live: Y.Doc): void {
    // A read, not a step: the quiet spell since the last step goes on. Parked, the lineage stays
    // released: live takes the parked state and the unlogged bytes, and is its copy again.
    const state = this.held ? Y.encodeStateAsUpdate(this.held.doc) : this.parked ? Y.mergeUpdates([this.parked, ...this.pendingLog]) : Y.encodeStateAsUpdate(this.doc);
    this.parked = null;
    this.live = live;
    Y.applyUpdate(live, state, this.origin);
    this.scheduleRelease();
  }

  /**
   * A room reloaded from the log while peers stay connected takes over their document. Live may
   * hold what this fresh lineage lacks (refused updates with their inverses, bytes not yet logged):
   * the lineage takes it in, so peers' later updates find their parents here; if it would change
   * the draft, the log wins and the change is reverted for everyone.
   */
  adopt(live: Y.Doc): void {
    const extra = Y.encodeStateAsUpdate(live, Y.encodeStateVector(this.doc));
    const tried = this.guard.tryUpdate(extra);
    if (tried.ok && tried.ops.length > 0) {
      const inverse = this.guard.revert();
      Y.applyUpdate(live, inverse, this.origin);
      this.unlogged(Y.mergeUpdates([extra, inverse]));
    } else if (tried.ok) {
      this.guard.commit();
      this.unlogged(extra);
    } else {
      this.guard.revert();
    }
    this.attach(live);
  }

  /** The last peer left (Hocuspocus unloads live): if the lineage is released, live's state is parked as bytes. */
  detach(live: Y.Doc): void {
    if (this.live !== live) return;
    if (!this.held) this.parked = Y.encodeStateAsUpdate(live);
    this.live = null;
  }
}

export interface DraftDocOptions {
  /** Release the lineage doc after this long without a step while peers are attached (null: keep it). */
  releaseAfterMs?: number | null;
}

/** How stale a fresh-build measure may be before it is taken again. */
const REMEASURE_MS = 1000;

/** Structs in a doc's store: items, tombstones and GC runs (each a heap object). */
export function structCount(doc: Y.Doc): number {
  let n = 0;
  for (const list of doc.store.clients.values()) n += list.length;
  return n;
}

/** Runs `f` and returns the Yjs update(s) it produced on `doc`, merged. */
export function capture(doc: Y.Doc, f: () => void): Uint8Array {
  const parts: Uint8Array[] = [];
  const on = (u: Uint8Array): void => {
    parts.push(u);
  };
  doc.on('update', on);
  try {
    f();
  } finally {
    doc.off('update', on);
  }
  if (parts.length === 1) return parts[0]!;
  return parts.length === 0 ? new Uint8Array([0, 0]) : Y.mergeUpdates(parts);
}
