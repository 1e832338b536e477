import { applyOpsUnchecked, emptyDraft } from '@weft/core';
import type { Draft } from '@weft/core';
import type { EventStore, RoomLoad } from '@weft/store';
import { bounded } from './commit-loop.ts';
import { Room } from './room.ts';
import type { RoomMirror, RoomOptions } from './room.ts';

/**
 * Owns the rooms of this node: one per draft, loaded from the latest snapshot plus the log
 * tail, and evicted when idle. Concurrent opens of one draft share one load.
 */
export class RoomManager {
  private readonly rooms = new Map<string, Room>();
  private readonly loading = new Map<string, Promise<Room | null>>();
  /**
   * Counts forget() calls: a load that a forget overtook reads the log again, so a room loaded
   * from a draft as it was being deleted (a peer reconnecting at that moment) is never kept.
   */
  private forgets = 0;
  private readonly store: EventStore;
  private readonly roomOptions: RoomOptions;
  private mirrorFactory: ((room: Room, loaded: RoomLoad) => RoomMirror) | null = null;

  private readonly keeps: ((draftId: string) => boolean)[] = [];
  /** Several nodes: a room opens only on the draft's lease holder (null: there is no such draft). */
  private owns: ((draftId: string) => Promise<boolean | null>) | null = null;

  requireOwnership(f: (draftId: string) => Promise<boolean | null>): void {
    this.owns = f;
  }

  /** Drops a draft's room (its lease moved to another node). */
  drop(draftId: string): void {
    if (this.rooms.delete(draftId)) this.let(draftId);
  }
  private readonly loaded: ((room: Room) => void)[] = [];
  private readonly closed: ((draftId: string) => void)[] = [];

  /** Called for each draft whose room this node let go (idle, moved to another node, deleted). */
  onClosed(f: (draftId: string) => void): void {
    this.closed.push(f);
  }

  private let(draftId: string): void {
    for (const f of this.closed) f(draftId);
  }

  private readonly forgotten: ((draftId: string) => void)[] = [];
  /** Called for each deleted draft (forget), before the listeners of onClosed. */
  onForgotten(f: (draftId: string) => void): void {
    this.forgotten.push(f);
  }

  /** Called for each room as it opens (at its committed version). */
  onLoaded(f: (room: Room) => void): void {
    this.loaded.push(f);
  }

  constructor(store: EventStore, roomOptions: RoomOptions) {
    this.store = store;
    const onBroken = roomOptions.onBroken;
    this.roomOptions = {
      ...roomOptions,
      onBroken: (room) => {
        if (this.rooms.get(room.draftId) === room) this.rooms.delete(room.draftId);
        onBroken?.(room);
      },
      resubmit: async (draftId, req) => {
        const room = await this.get(draftId);
        return room ? room.submit(req) : { ok: false, error: { code: 'NOT_FOUND', message: `No draft "${draftId}".` } };
      },
    };
  }

  /** Rooms for which any `keep` answers true are never evicted (open streams, Yjs peers). */
  keepWhile(f: (draftId: string) => boolean): void {
    this.keeps.push(f);
  }

  get size(): number {
    return this.rooms.size;
  }

  /** The collaboration door attaches a Yjs mirror to every room as it loads. */
  setMirrorFactory(f: (room: Room, loaded: RoomLoad) => RoomMirror): void {
    this.mirrorFactory = f;
  }

  all(): IterableIterator<Room> {
    return this.rooms.values();
  }

  peek(draftId: string): Room | undefined {
    return this.rooms.get(draftId);
  }

  /** The room of a draft, or null when the draft does not exist. */
  async get(draftId: string): Promise<Room | null> {
    const room = this.rooms.get(draftId);
    if (room) return room;
    let p = this.loading.get(draftId);
    if (!p) {
      p = bounded(this.load(draftId), 15_000, `loading draft ${draftId}`).finally(() => this.loading.delete(draftId));
      this.loading.set(draftId, p);
    }
    return p;
  }

  /** One round trip (store.loadRoom): the JSON mirror and the Yjs lineage start from the same base and tail. */
  private async load(draftId: string): Promise<Room | null> {
    if (this.owns) {
      // No such draft answers as on a single node (no room), not as a draft owned elsewhere.
      const own = await this.owns(draftId);
      if (own === null) return null;
      if (!own) throw new NotOwner(draftId);
    }
    const forgets = this.forgets;
    const loaded = await this.store.loadRoom(draftId);
    if (this.forgets !== forgets) return this.load(draftId);
    if (!loaded) return null;
    const draft = loaded.base ? (loaded.base.doc as unknown as Draft) : emptyDraft(draftId);
    let version = loaded.base?.version ?? 0;
    for (const s of loaded.tail) {
      // Committed ops were validated before append: a failure here is corruption, never skipped.
      const r = applyOpsUnchecked(draft, s.ops);
      if (!r.ok) throw new Error(`draft ${draftId} v${s.version} does not replay: op ${r.error.index}: ${r.error.message}`);
      version = s.version;
    }
    // A load that outlived its bound may finish after a newer one: one room per draft, always.
    const existing = this.rooms.get(draftId);
    if (existing) return existing;
    const room = new Room(draftId, draft, version, loaded.meta.epoch, this.roomOptions);
    if (this.mirrorFactory) room.mirror = this.mirrorFactory(room, loaded);
    this.rooms.set(draftId, room);
    for (const f of this.loaded) f(room);
    return room;
  }

  /**
   * Forgets a deleted draft's room: held references see it broken (their submits answer
   * UNAVAILABLE and retry into NOT_FOUND), and the next get() finds no draft.
   */
  forget(draftId: string): void {
    this.forgets++;
    for (const f of this.forgotten) f(draftId);
    const room = this.rooms.get(draftId);
    if (this.rooms.delete(draftId)) this.let(draftId);
    room?.retire({ code: 'NOT_FOUND', message: `Draft "${draftId}" was deleted.` });
  }

  /** Drops rooms idle for longer than `idleMs` (their state lives in the log). */
  evictIdle(idleMs: number, now: number): number {
    let n = 0;
    for (const [id, room] of this.rooms) {
      if (room.idle && now - room.lastActivity > idleMs && !this.keeps.some((k) => k(id))) {
        this.rooms.delete(id);
        this.let(id);
        n++;
      }
    }
    return n;
  }

  async drainAll(): Promise<void> {
    await Promise.all([...this.rooms.values()].map((r) => r.drain()));
  }
}

/** This node does not hold the draft's lease (several nodes): the request belongs to its owner. */
export class NotOwner extends Error {
  readonly draftId: string;
  constructor(draftId: string) {
    super(`draft ${draftId} is owned by another session node`);
    this.draftId = draftId;
  }
}
