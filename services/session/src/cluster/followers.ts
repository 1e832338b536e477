// Followers (several session nodes): a node that does not own a draft still serves its reads and
// SSE streams, from the bus with gap refill from Postgres (the same DraftFollower the preview and
// the checkpointer use), so a draft's fan-out is spread over every node its viewers reached and
// only writes travel to the owner.
import { applyOpsUnchecked } from '@weft/core';
import type { Draft, Op } from '@weft/core';
import { DraftFollower } from '@weft/bus';
import type { Bus, Subscription } from '@weft/bus';
import type { Logger } from '@weft/ops';
import { deltaOps, stepEvents } from '@weft/protocol';
import type { AgUiEvent } from '@weft/protocol';
import { loadDraft } from '@weft/store';
import type { EventStore } from '@weft/store';
import type { SseHub } from '../live/sse.ts';

/** What a read needs of a draft, whether this node owns it (its Room) or follows it. */
export interface DraftView {
  readonly committedVersion: number;
  readonly epoch: number;
  /** A copy the caller may keep. */
  committedView(): { draft: Draft; version: number };
  /** The committed draft as JSON, without a clone per request. */
  committedJson(): string;
  /** Resolves true once `version` is committed here (false if the view closes first). */
  whenCommitted(version: number): Promise<boolean>;
}

const CATCH_UP_AFTER_MS = 100;

/** One followed draft: the committed JSON at `version`, moved forward by each version's STATE_DELTA. */
export class FollowerView implements DraftView {
  readonly draftId: string;
  private draft: Draft;
  private version: number;
  epoch: number;
  lastUsed: number;
  private json: string | null = null;
  private readonly waiters: { version: number; resolve: (ok: boolean) => void }[] = [];

  /** Reads the log for what the bus has not brought yet (a read that must not go back in time). */
  private readonly catchUp: () => Promise<void>;

  constructor(draftId: string, draft: Draft, version: number, epoch: number, now: number, catchUp: () => Promise<void>) {
    this.draftId = draftId;
    this.catchUp = catchUp;
    this.draft = draft;
    this.version = version;
    this.epoch = epoch;
    this.lastUsed = now;
  }

  get committedVersion(): number { return this.version; }

  committedView(): { draft: Draft; version: number } {
    return { draft: structuredClone(this.draft), version: this.version };
  }

  committedJson(): string {
    this.json ??= JSON.stringify(this.draft);
    return this.json;
  }

  whenCommitted(version: number): Promise<boolean> {
    if (this.version >= version) return Promise.resolve(true);
    // The bus brings a version within a millisecond or two; if it has not come soon, the log has it
    // (an ack follows the commit), so a read-your-writes read does not wait out a lost message.
    setTimeout(() => { if (this.version < version) void this.catchUp(); }, CATCH_UP_AFTER_MS).unref();
    return new Promise((resolve) => this.waiters.push({ version, resolve }));
  }

  /** Applies one committed version (ops validated by the owner before the append). */
  apply(version: number, ops: readonly Op[]): void {
    if (version !== this.version + 1) throw new Error(`follower ${this.draftId}: version ${version} after ${this.version}`);
    const r = applyOpsUnchecked(this.draft, ops);
    if (!r.ok) throw new Error(`follower ${this.draftId}: v${version} op ${r.error.index} does not apply: ${r.error.message}`);
    this.version = version;
    this.json = null;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i]!;
      if (w.version <= version) { this.waiters.splice(i, 1); w.resolve(true); }
    }
  }

  close(): void {
    for (const w of this.waiters.splice(0)) w.resolve(false);
  }
}

export interface FollowersDeps {
  store: EventStore;
  bus: Bus;
  sse: SseHub;
  now: () => number;
  log: Logger;
}

/**
 * The drafts this node follows. A view opens on first read (one snapshot + tail load), subscribes
 * to the draft's bus subject and feeds the local SSE hub with every version in order (refilled from
 * the log on a gap). Transient messages (a step refused whole, a finished turn, a reader action)
 * go to this node's viewers in their place in the order.
 */
export class Followers {
  private readonly deps: FollowersDeps;
  private readonly views = new Map<string, Promise<FollowerView | null>>();
  private readonly open = new Map<string, { view: FollowerView; sub: Subscription }>();
  private readonly follower: DraftFollower;
  private readonly stopHeadChecks: () => void;
  private readonly offReconnect: () => void;

  constructor(deps: FollowersDeps) {
    this.deps = deps;
    this.follower = new DraftFollower({
      refill: async (draftId, after) => (await deps.store.readSteps(draftId, { after, limit: 1000 }))
        .map((s) => ({ version: s.version, events: stepEvents({ ...s, createdAt: s.createdAt.getTime() }) })),
      headVersions: (ids) => deps.store.headVersions(ids),
      // Deleted through another node: this node's view of it must not go on answering reads.
      onGone: (draftId) => this.drop(draftId),
      handle: (draftId, v) => {
        const o = this.open.get(draftId);
        if (!o) return;
        o.view.apply(v.version, deltaOps(v.events));
        deps.sse.publish(draftId, v.version, v.events as AgUiEvent[]);
      },
      aside: (draftId, events) => {
        if (this.open.has(draftId)) deps.sse.publish(draftId, null, events as AgUiEvent[]);
      },
      onError: (e, draftId) => {
        // A version that does not apply means this view is wrong: drop it; the next read reloads.
        deps.log.error('follower failed; the view is dropped and reloads on the next read', { draftId, error: String(e) });
        this.drop(draftId);
      },
    });
    this.stopHeadChecks = this.follower.startHeadChecks(2000);
    this.offReconnect = deps.bus.onReconnect(() => { void this.follower.checkHeads(); });
  }

  get size(): number { return this.open.size; }

  /** The view of a draft this node already follows, without asking anyone (a read's fast path). */
  peek(draftId: string): FollowerView | undefined {
    const v = this.open.get(draftId)?.view;
    if (v) v.lastUsed = this.deps.now();
    return v;
  }

  /** The followed view of a draft (loaded on first use), or null when there is no such draft. */
  view(draftId: string): Promise<FollowerView | null> {
    let p = this.views.get(draftId);
    if (!p) {
      p = this.load(draftId);
      this.views.set(draftId, p);
      p.then((v) => { if (!v) this.views.delete(draftId); }, () => this.views.delete(draftId));
    }
    return p.then((v) => { if (v) v.lastUsed = this.deps.now(); return v; });
  }

  private async load(draftId: string): Promise<FollowerView | null> {
    const meta = await this.deps.store.getDraft(draftId);
    if (!meta) return null;
    const { draft, version } = await loadDraft(this.deps.store, draftId);
    const view = new FollowerView(draftId, draft, version, meta.epoch, this.deps.now(), () => this.follower.catchUp(draftId));
    await this.follower.follow(draftId, version);
    const sub = this.deps.bus.subscribe({ draftId }, (m) => this.follower.receive(m));
    this.open.set(draftId, { view, sub });
    // Versions committed between the load and the subscription come from the log.
    void this.follower.catchUp(draftId);
    return view;
  }

  /** Stops following a draft (this node took it over, or it was deleted). */
  drop(draftId: string): void {
    const o = this.open.get(draftId);
    this.views.delete(draftId);
    if (!o) return;
    this.open.delete(draftId);
    o.sub.unsubscribe();
    o.view.close();
  }

  /** Drops views nobody read for `idleMs` and no SSE viewer watches. */
  evictIdle(idleMs: number): number {
    let n = 0;
    const now = this.deps.now();
    for (const [id, o] of this.open) {
      if (now - o.view.lastUsed > idleMs && !this.deps.sse.has(id)) { this.drop(id); n++; }
    }
    return n;
  }

  close(): void {
    this.stopHeadChecks();
    this.offReconnect();
    for (const id of [...this.open.keys()]) this.drop(id);
  }
}

