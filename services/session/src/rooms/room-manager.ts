import { loadDraft } from '@weft/store';
import type { EventStore } from '@weft/store';
import { bounded, Room } from './room.ts';
import type { RoomMirror, RoomOptions } from './room.ts';

/**
 * Owns the rooms of this node: one per draft, loaded from the latest snapshot plus the log
 * tail, and evicted when idle. Concurrent opens of one draft share one load.
 */
export class RoomManager {
  private readonly rooms = new Map<string, Room>();
  private readonly loading = new Map<string, Promise<Room | null>>();
  private readonly store: EventStore;
  private readonly roomOptions: RoomOptions;
  private mirrorFactory: ((room: Room) => Promise<RoomMirror>) | null = null;

  private readonly keeps: ((draftId: string) => boolean)[] = [];

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
  setMirrorFactory(f: (room: Room) => Promise<RoomMirror>): void {
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

  private async load(draftId: string): Promise<Room | null> {
    const meta = await this.store.getDraft(draftId);
    if (!meta) return null;
    const { draft, version } = await loadDraft(this.store, draftId, meta.headVersion);
    const room = new Room(draftId, draft, version, meta.epoch, this.roomOptions);
    if (this.mirrorFactory) room.mirror = await this.mirrorFactory(room);
    // A load that outlived its bound may finish after a newer one: one room per draft, always.
    const existing = this.rooms.get(draftId);
    if (existing) return existing;
    this.rooms.set(draftId, room);
    return room;
  }

  /**
   * Forgets a deleted draft's room: held references see it broken (their submits answer
   * UNAVAILABLE and retry into NOT_FOUND), and the next get() finds no draft.
   */
  forget(draftId: string): void {
    const room = this.rooms.get(draftId);
    this.rooms.delete(draftId);
    if (room) room.broken = true;
  }

  /** Drops rooms idle for longer than `idleMs` (their state lives in the log). */
  evictIdle(idleMs: number, now: number): number {
    let n = 0;
    for (const [id, room] of this.rooms) {
      if (room.idle && now - room.lastActivity > idleMs && !this.keeps.some((k) => k(id))) {
        this.rooms.delete(id);
        n++;
      }
    }
    return n;
  }

  async drainAll(): Promise<void> {
    await Promise.all([...this.rooms.values()].map((r) => r.drain()));
  }
}
