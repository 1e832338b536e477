import type { Hocuspocus } from '@hocuspocus/server';
import type { Json } from '@weft/core';
import { CloseCode } from '@weft/protocol';
import { epochBase } from '@weft/ydoc';
import type { Ctx } from '../context.ts';
import { recordActivity } from '../commands/activity.ts';
import { closeSocket } from './close-socket.ts';
import { DraftDoc } from './draft-doc.ts';
import type { DraftDocOptions } from './draft-doc.ts';

export interface EpochOptions {
  /** Structs of history beyond a fresh build that make a new epoch due… */
  minStructs: number;
  /** …and that many times the fresh build's structs. */
  ratio: number;
  /** Commit-free time before a due draft is compacted (peers reload: best when nobody types). */
  quietMs: number;
  /** How every lineage doc of the door is kept (loaded or started by compaction). */
  lineage: DraftDocOptions;
}

/**
 * Yjs epochs (ARCHITECTURE.md "Yjs epochs"): a lineage whose history outweighs its content is
 * replaced by the committed draft built fresh as epoch n+1; later commits wait until the epoch is
 * stored; the Hocuspocus document is retired and every peer is closed with DOC_EPOCH_CHANGED, to
 * reload into the new doc.
 */
export class Epochs {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly ctx: Ctx;
  private readonly docs: Map<string, DraftDoc>;
  private readonly hocuspocus: () => Hocuspocus | null;
  private readonly o: EpochOptions;

  constructor(ctx: Ctx, docs: Map<string, DraftDoc>, hocuspocus: () => Hocuspocus | null, o: EpochOptions) {
    this.ctx = ctx;
    this.docs = docs;
    this.hocuspocus = hocuspocus;
    this.o = o;
  }

  get lineage(): DraftDocOptions {
    return this.o.lineage;
  }

  due(dd: DraftDoc, factor = 1): boolean {
    return dd.wantsCompaction(factor * this.o.minStructs, factor * this.o.ratio);
  }

  /** After each commit of `dd`: schedule a new epoch when one is due. */
  watch(dd: DraftDoc): void {
    dd.onCommitted = () => {
      if (!this.due(dd)) return;
      // A busy draft may never go quiet: far past the threshold, compact at the first moment
      // nothing is in flight (tried again after each commit until then).
      if (this.due(dd, 16)) setImmediate(() => dd.room.idle && this.compact(dd));
      else this.afterQuiet(dd);
    };
  }

  /** Starts epoch n+1 now. The room must be idle: steps in flight carry bytes of epoch n. */
  compact(dd: DraftDoc): void {
    const { ctx } = this;
    const room = dd.room;
    if (this.docs.get(room.draftId) !== dd || room.broken || !room.idle) return;
    const epoch = room.epoch + 1;
    const base = epochBase(room.draft, epoch);
    const next = DraftDoc.fresh(room, base, this.o.lineage);
    this.watch(next);
    const stored = ctx.store.startEpoch(room.epoch, { draftId: room.draftId, version: room.committedVersion, doc: structuredClone(room.draft) as unknown as Json, yState: base });
    const version = room.committedVersion;
    room.commitAfter(stored.then((ok) => {
      if (!ok) throw new Error('the epoch was moved by another process');
      recordActivity(ctx, room.draftId, { kind: 'persistence', status: 'done', label: `Saved a snapshot at version ${version} (Yjs epoch ${epoch})`, detail: 'editors reload the compacted document' });
    }));
    room.epoch = epoch;
    room.mirror = next;
    dd.retire();
    this.docs.set(room.draftId, next);
    ctx.metrics.yjsEpochs.inc();
    ctx.log.info('new Yjs epoch', { draftId: room.draftId, epoch, version: room.committedVersion, structs: dd.structs(), freshStructs: next.structs() });
    // Retire the old document at once (connections removed, then unloaded), so the next
    // connection gets a fresh instance loaded from the new lineage and a stale peer that
    // reconnects cannot keep the old one alive.
    const h = this.hocuspocus();
    const old = h?.documents.get(room.draftId);
    if (h && old) {
      for (const conn of old.getConnections()) {
        conn.close({ code: CloseCode.CONFLICT, reason: 'DOC_EPOCH_CHANGED' } as never);
        closeSocket(conn, CloseCode.CONFLICT, 'DOC_EPOCH_CHANGED');
      }
      void h.unloadDocument(old);
    }
  }

  private afterQuiet(dd: DraftDoc): void {
    const id = dd.room.draftId;
    clearTimeout(this.timers.get(id));
    this.timers.set(id, setTimeout(() => {
      this.timers.delete(id);
      if (dd.room.idle) this.compact(dd);
      else this.afterQuiet(dd);
    }, this.o.quietMs).unref());
  }
}
