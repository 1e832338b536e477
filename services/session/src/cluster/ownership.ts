import type { EventStore, Fence } from '@weft/store';
import type { Logger } from '@weft/ops';
import { WeftError } from '../commands/errors.ts';

export interface NodeIdentity {
  /** Unique per session process of a cluster (WEFT_NODE_ID). */
  id: string;
  /** Where the other nodes reach this one (WEFT_NODE_URL). */
  url: string;
}

export type Owner = { self: true; fence: Fence } | { self: false; url: string };

/**
 * Which node owns each draft (several session nodes on one Postgres): a lease per draft with a
 * fencing token, taken on first use, renewed for every draft this node holds in one statement a
 * tick, released all at once on shutdown. The fence is enforced by Postgres at the append and at
 * the Yjs epoch start, so a node that lost its lease while paused can never write; when a renewal
 * finds a lease gone, `onLost` drops what this node kept for the draft (its room, its peers).
 */
export class Ownership {
  readonly node: NodeIdentity;
  private readonly store: EventStore;
  private readonly ttlMs: number;
  private readonly log: Logger;
  private readonly held = new Map<string, { epoch: number; until: number }>();
  private readonly lost: ((draftId: string) => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Shutting down: names owners but never takes a lease again (release()). */
  private released = false;

  constructor(store: EventStore, node: NodeIdentity, ttlMs: number, log: Logger) {
    this.store = store;
    this.node = node;
    this.ttlMs = ttlMs;
    this.log = log;
  }

  get ownedCount(): number {
    return this.held.size;
  }

  onLost(f: (draftId: string) => void): void {
    this.lost.push(f);
  }

  /** This node (with the fence to append under) or the owner's URL; null when there is no such draft. */
  async resolve(draftId: string): Promise<Owner | null> {
    if (this.released) return this.lookUp(draftId);
    const h = this.held.get(draftId);
    // Trust our own lease only well inside its term: near the end, ask Postgres again.
    if (h && Date.now() < h.until - this.ttlMs / 3) return { self: true, fence: { node: this.node.id, epoch: h.epoch } };
    const lease = await this.store.acquireLease(draftId, this.node.id, this.node.url, this.ttlMs);
    if (!lease) return null;
    if (lease.node === this.node.id) {
      const was = this.held.get(draftId);
      if (was && was.epoch !== lease.epoch) this.drop(draftId); // lost and taken again: the old room is stale
      this.held.set(draftId, { epoch: lease.epoch, until: Date.now() + this.ttlMs });
      return { self: true, fence: { node: this.node.id, epoch: lease.epoch } };
    }
    if (this.held.has(draftId)) this.drop(draftId);
    // No owner to name yet (another node is taking the lease this instant): a typed 503, retry.
    if (!lease.url) throw new WeftError('UNAVAILABLE', `Draft "${draftId}" is moving to another session node; retry shortly (writes: with the same opId).`, { retryAfterMs: 250 });
    return { self: false, url: lease.url };
  }

  /**
   * A draining node forwards to the owner it finds; with no other owner yet it answers a typed 503
   * (a peer's socket closes 4500 and fails over). Were it to take the lease again, the peers it just
   * sent away would be relayed back to it and sent away once more when it exits.
   */
  private async lookUp(draftId: string): Promise<Owner | null> {
    const lease = await this.store.readLease(draftId);
    if (!lease) return null;
    if (lease.node !== null && lease.node !== this.node.id && lease.url) return { self: false, url: lease.url };
    throw new WeftError('UNAVAILABLE', `Session node ${this.node.id} is shutting down and draft "${draftId}" has no other owner yet; retry shortly (writes: with the same opId).`, { retryAfterMs: 250 });
  }

  /** The fence of a draft this node holds (null: not held — the room must not commit). */
  fence(draftId: string): Fence | null {
    const h = this.held.get(draftId);
    return h ? { node: this.node.id, epoch: h.epoch } : null;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.renew(), Math.max(100, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  /** Renews every held lease in one statement; drafts whose lease is gone are dropped. */
  async renew(): Promise<void> {
    const ids = [...this.held.keys()];
    if (ids.length === 0) return;
    try {
      const kept = await this.store.renewLeases(this.node.id, ids, this.ttlMs);
      const until = Date.now() + this.ttlMs;
      for (const id of ids) {
        const epoch = kept.get(id);
        if (epoch === undefined || epoch !== this.held.get(id)?.epoch) this.drop(id);
        else this.held.set(id, { epoch, until });
      }
    } catch (e) {
      // Postgres is unreachable: the leases run out on their own; appends are fenced anyway.
      this.log.warn('lease renewal failed', { error: String(e) });
    }
  }

  /**
   * Lets every lease go (SIGTERM): other nodes take the drafts over without waiting for expiry. The
   * leases go in Postgres before the peers are sent away, so the node a peer fails over to can take
   * the draft at once instead of relaying the peer back here.
   */
  async release(): Promise<void> {
    this.released = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const ids = [...this.held.keys()];
    await this.store.releaseLeases(this.node.id).catch((e: unknown) => this.log.warn('lease release failed', { error: String(e) }));
    for (const id of ids) this.drop(id);
  }

  private drop(draftId: string): void {
    this.held.delete(draftId);
    for (const f of this.lost) {
      try { f(draftId); } catch (e) { this.log.error('lease loss handler failed', { draftId, error: String(e) }); }
    }
  }
}
