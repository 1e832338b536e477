// A consumer's view of the per-draft version sequence (RELIABILITY.md promise 5): `≤ last` is a
// duplicate and dropped, `> last + 1` is a gap refilled from the store, and each draft's messages
// are processed strictly in order on their own promise chain. NATS can lose anything; the store
// (through `refill`) cannot.
import type { BusMessage } from './bus.ts';

export interface VersionEvents {
  version: number;
  events: unknown[];
}

export interface DraftFollowerDeps {
  /** Committed versions after `afterVersion`, ascending (backed by Postgres in the services). */
  refill(draftId: string, afterVersion: number): Promise<VersionEvents[]>;
  /** Processes one version; called exactly once per version, in order. A throw stops the draft there. */
  handle(draftId: string, v: VersionEvents): void | Promise<void>;
  /** A transient message's events (not a version), in order after the versions queued before it. */
  aside?(draftId: string, events: unknown[]): void;
  /**
   * The store's head versions of these drafts (absent = none), for periodic checks when the bus
   * was down: one lookup for every followed draft, not a query per draft (a checkpointer follows
   * all of them).
   */
  headVersions?(draftIds: readonly string[]): Promise<ReadonlyMap<string, number>>;
  /** A followed draft the head check no longer finds (deleted): it is no longer followed. */
  onGone?(draftId: string): void;
  /** Where to start for a draft seen for the first time (e.g. its snapshot version); default 0. */
  startVersion?(draftId: string): number | Promise<number>;
  onError?(err: unknown, draftId: string): void;
}

export interface FollowerStats {
  handled: number;
  duplicates: number;
  gaps: number;
  refilled: number;
}

export class DraftFollower {
  private readonly deps: DraftFollowerDeps;
  private readonly last = new Map<string, number>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly counters: FollowerStats = { handled: 0, duplicates: 0, gaps: 0, refilled: 0 };

  constructor(deps: DraftFollowerDeps) {
    this.deps = deps;
  }

  get stats(): Readonly<FollowerStats> { return { ...this.counters }; }

  lastVersion(draftId: string): number | undefined { return this.last.get(draftId); }

  /** Drafts this follower has seen or was told about. */
  drafts(): string[] { return [...this.last.keys()]; }

  /** Sets the starting point (e.g. after loading a snapshot). Queued behind pending work. */
  follow(draftId: string, version: number): Promise<void> {
    return this.enqueue(draftId, async () => { this.last.set(draftId, version); });
  }

  /** The bus handler: `bus.subscribe('all', (m) => follower.receive(m))`. */
  receive(msg: BusMessage): Promise<void> {
    return this.enqueue(msg.draftId, () => this.process(msg));
  }

  /** Refills everything after lastVersion (after a reconnect or restart). */
  catchUp(draftId: string): Promise<void> {
    return this.enqueue(draftId, async () => { await this.fill(draftId, await this.current(draftId)); });
  }

  /** Compares every known draft with the store head and catches up the ones behind. */
  async checkHeads(): Promise<void> {
    const lookup = this.deps.headVersions;
    const ids = this.drafts();
    if (lookup === undefined || ids.length === 0) return;
    let heads: ReadonlyMap<string, number>;
    try {
      heads = await lookup(ids);
    } catch (e) {
      this.report(e, ids[0]!);
      return;
    }
    for (const id of ids) {
      if (heads.has(id)) continue;
      // Deleted: forget where it was, or the same id created again would have its first versions
      // taken for duplicates.
      this.last.delete(id);
      this.deps.onGone?.(id);
    }
    await Promise.all(ids.filter((id) => heads.has(id) && heads.get(id)! > (this.last.get(id) ?? 0)).map((id) => this.catchUp(id)));
  }

  /** Runs checkHeads every `ms`; returns stop. */
  startHeadChecks(ms: number): () => void {
    let running = false;
    const t = setInterval(() => {
      if (running) return;
      running = true;
      void this.checkHeads().finally(() => { running = false; });
    }, ms);
    t.unref?.();
    return () => clearInterval(t);
  }

  /** Resolves when all queued work has settled. */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  private enqueue(draftId: string, work: () => Promise<void>): Promise<void> {
    const prev = this.chains.get(draftId) ?? Promise.resolve();
    const next = prev.then(work).catch((e: unknown) => this.report(e, draftId));
    this.chains.set(draftId, next);
    void next.then(() => { if (this.chains.get(draftId) === next) this.chains.delete(draftId); });
    return next;
  }

  private async current(draftId: string): Promise<number> {
    let v = this.last.get(draftId);
    if (v === undefined) {
      v = this.deps.startVersion ? await this.deps.startVersion(draftId) : 0;
      this.last.set(draftId, v);
    }
    return v;
  }

  private async process(msg: BusMessage): Promise<void> {
    if (msg.transient) { this.deps.aside?.(msg.draftId, msg.events); return; }
    let last = await this.current(msg.draftId);
    if (msg.version <= last) { this.counters.duplicates++; return; }
    if (msg.version > last + 1) {
      this.counters.gaps++;
      last = await this.fill(msg.draftId, last, msg.version - 1);
      if (msg.version <= last) { this.counters.duplicates++; return; }
      // The store is behind the bus only if the message lied; leave the rest to catch-up.
      if (msg.version !== last + 1) return;
    }
    await this.apply(msg.draftId, { version: msg.version, events: msg.events });
  }

  /** Handles stored versions after `last` (up to `upTo`), consecutive only; returns the new last. */
  private async fill(draftId: string, last: number, upTo = Infinity): Promise<number> {
    const rows = await this.deps.refill(draftId, last);
    for (const row of rows) {
      if (row.version <= last) continue;
      if (row.version !== last + 1 || row.version > upTo) break;
      await this.apply(draftId, row);
      this.counters.refilled++;
      last = row.version;
    }
    return last;
  }

  private async apply(draftId: string, v: VersionEvents): Promise<void> {
    await this.deps.handle(draftId, v);
    this.last.set(draftId, v.version);
    this.counters.handled++;
  }

  private report(e: unknown, draftId: string): void {
    if (this.deps.onError) this.deps.onError(e, draftId);
    else console.error(`draft follower (${draftId}) failed`, e);
  }
}
