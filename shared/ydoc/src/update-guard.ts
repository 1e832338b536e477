// Validated writes from Yjs peers (YJS-WRITES.md): an incoming update is applied to a lockstep
// shadow doc first and turned into ops; the caller runs them through the pipeline and then either
// commits (applies the same bytes to live) or reverts (applies mergeUpdates([update, inverse]) to
// live, so peers never see the refused state).
import * as Y from 'yjs';
import { serverDoc } from './server-doc.ts';
import type { Op } from '@weft/core';
import { draftRoots } from './mirror.ts';
import { TransactionOps } from './events-to-ops.ts';
import type { UnmappedWrite } from './events-to-ops.ts';
import { META, ORDER, SECTIONS_ROOT } from './shape.ts';

type DeleteSet = Y.UndoManager['undoStack'][number]['deletions'];

/** A shadow of `live` (or of its state as update bytes): same state, same root types, its own client id. */
export function createShadow(from: Y.Doc | Uint8Array): Y.Doc {
  const shadow = serverDoc();
  draftRoots(shadow);
  Y.applyUpdate(shadow, from instanceof Uint8Array ? from : Y.encodeStateAsUpdate(from));
  return shadow;
}

export type GuardResult =
  /** `unmapped`: writes to Yjs keys no op describes (refuse and revert them). */
  | { ok: true; ops: Op[]; unmapped: UnmappedWrite[] }
  /** `malformed`: bytes that do not decode; `foreign`: writes outside the draft's root types. */
  | { ok: false; error: 'malformed' | 'foreign' };

/** The empty v1 update (no structs, no deletions). */
export const EMPTY_UPDATE: Uint8Array = new Uint8Array([0, 0]);

const DRAFT_ROOTS = new Set([META, ORDER, SECTIONS_ROOT]);

export class UpdateGuard {
  readonly shadow: Y.Doc;
  /** The origin of tested transactions on the shadow; nothing else is tracked by the undo manager. */
  readonly origin: object = { name: 'weft-validation' };
  private readonly mirrorOrigin: object = { name: 'weft-mirror' };
  private readonly undo: Y.UndoManager;
  private collecting: TransactionOps | null = null;
  private touchedForeign = false;
  /** A tested update is waiting for commit() or revert(). */
  private open = false;
  private readonly unlisten: (() => void)[] = [];

  constructor(shadow: Y.Doc) {
    this.shadow = shadow;
    const roots = draftRoots(shadow);
    this.undo = new Y.UndoManager(shadow, { trackedOrigins: new Set([this.origin]), captureTimeout: 0 });
    const collect = (events: Y.YEvent<any>[], tr: Y.Transaction) => {
      if (tr.origin === this.origin && this.collecting !== null) this.collecting.add(events);
    };
    for (const root of [roots.meta, roots.order, roots.sections] as Y.AbstractType<any>[]) {
      root.observeDeep(collect);
      this.unlisten.push(() => root.unobserveDeep(collect));
    }
    const after = (tr: Y.Transaction) => {
      if (tr.origin !== this.origin) return;
      for (const type of tr.changed.keys()) {
        let root: Y.AbstractType<any> = type;
        while (root._item !== null) root = root._item.parent as Y.AbstractType<any>;
        if (!DRAFT_ROOTS.has(Y.findRootTypeKey(root))) this.touchedForeign = true;
      }
    };
    shadow.on('afterTransaction', after);
    this.unlisten.push(() => shadow.off('afterTransaction', after));
  }

  /** A tested update waits for commit() or revert(). */
  get pending(): boolean {
    return this.open;
  }

  /**
   * Applies `update` to the shadow and returns its ops. Call commit() or revert() next; a new
   * tryUpdate() first commits a pending one.
   */
  tryUpdate(update: Uint8Array): GuardResult {
    if (this.open) this.commit();
    try {
      Y.parseUpdateMeta(update); // decodes every struct without touching the doc
    } catch {
      return { ok: false, error: 'malformed' };
    }
    const collected = new TransactionOps(this.shadow);
    this.collecting = collected;
    this.touchedForeign = false;
    this.open = true;
    try {
      Y.applyUpdate(this.shadow, update, this.origin);
    } catch {
      return { ok: false, error: 'malformed' };
    } finally {
      this.collecting = null;
    }
    if (this.touchedForeign) return { ok: false, error: 'foreign' };
    return { ok: true, ops: collected.ops(), unmapped: collected.unmapped };
  }

  /** Keeps the tested update (the caller applies the same bytes to live). */
  commit(): void {
    this.release();
  }

  /**
   * Undoes the tested update on the shadow and returns the inverse update. Apply
   * `Y.mergeUpdates([update, inverse])` to live. Re-validate the shadow afterwards: if it is still
   * invalid, close the connection (YJS-WRITES.md step 5).
   */
  revert(): Uint8Array {
    if (!this.open) return EMPTY_UPDATE;
    const before = this.pinned(); // undo pops the stack item whose deletions it pinned
    const parts: Uint8Array[] = [];
    const onUpdate = (u: Uint8Array, origin: unknown) => {
      if (origin === this.undo) parts.push(u);
    };
    this.shadow.on('update', onUpdate);
    try {
      while (this.undo.undoStack.length > 0) this.undo.undo();
    } finally {
      this.shadow.off('update', onUpdate);
    }
    this.release(before);
    if (parts.length === 0) return EMPTY_UPDATE;
    return parts.length === 1 ? parts[0]! : Y.mergeUpdates(parts);
  }

  /** Applies an update that live got from elsewhere (server repairs, other guards), untested. */
  mirror(update: Uint8Array): void {
    if (this.open) this.commit();
    Y.applyUpdate(this.shadow, update, this.mirrorOrigin);
  }

  /** Detaches from the shadow. To rebuild a drifted shadow: destroy, then `new UpdateGuard(createShadow(live))`. */
  destroy(): void {
    for (const f of this.unlisten.splice(0)) f();
    this.undo.destroy();
  }

  /**
   * Drops the undo history and un-pins what it kept: the undo manager marks deleted items `keep`,
   * which blocks GC (the shadow grew 100× in YJS-WRITES.md), so release them and collect.
   */
  private release(extra: DeleteSet[] = []): void {
    this.open = false;
    const sets = [...extra, ...this.pinned()];
    if (sets.length === 0) return;
    const ds = Y.mergeDeleteSets(sets);
    this.undo.clear();
    const store = this.shadow.store;
    // By hand rather than iterateDeletedStructs: that one splits items and needs a transaction.
    ds.clients.forEach((ranges, client) => {
      const structs = store.clients.get(client);
      if (structs === undefined) return;
      for (const { clock, len } of ranges) {
        for (let i = Y.findIndexSS(structs, clock); i < structs.length && structs[i]!.id.clock < clock + len; i++) {
          const struct = structs[i];
          if (struct instanceof Y.Item) releaseKeep(struct);
        }
      }
    });
    // One clock further right than the ranges, so a collected run also merges with the run after it
    // (live's transaction cleanup merges both sides; without this the shadow fragments over time).
    const wider = Y.createDeleteSet();
    ds.clients.forEach((ranges, client) => {
      const end = Y.getState(store, client);
      wider.clients.set(client, ranges.map(({ clock, len }) => ({ clock, len: Math.min(len + 1, end - clock) }) as (typeof ranges)[number]));
    });
    Y.tryGc(wider, store, this.shadow.gcFilter);
  }

  private pinned(): DeleteSet[] {
    return [...this.undo.undoStack, ...this.undo.redoStack].flatMap((s) => [s.deletions, s.insertions]);
  }
}

function releaseKeep(item: Y.Item): void {
  let cur: Y.Item | null = item;
  while (cur !== null && cur.keep) {
    cur.keep = false;
    cur = (cur.parent as Y.AbstractType<any>)._item;
  }
}
