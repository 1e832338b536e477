import type { Bus } from '@weft/bus';
import { stepEvents } from '@weft/protocol';
import type { AgUiEvent } from '@weft/protocol';
import type { EventStore } from '@weft/store';
import type { Logger } from '@weft/ops';

export interface RelayOptions {
  store: EventStore;
  bus: Bus;
  log: Logger;
  /** How often delivered versions are confirmed (one bus flush) and the cursors saved (one UPDATE). */
  tickMs?: number;
}

/**
 * At-least-once fan-out to the bus. Committed steps are published at once (the hot path reads
 * nothing back); once a second the relay flushes the bus (a round trip to the server) and moves
 * each draft's outbox cursor (`outbox_cursors`) to what was handed over before that
 * flush, in one statement. A draft whose notification was dropped (the bus was down), and every
 * draft whose head is above its cursor at start-up (a crash between COMMIT and publish), is
 * published again from the log. Consumers drop duplicates by version, so a repeat is harmless.
 *
 * Per-draft cursors, not one global position: consumers follow each draft's gapless versions,
 * and a draft has one writer at a time, so there is no commit-order-vs-position race to handle.
 */
export class Relay {
  private readonly o: Required<RelayOptions>;
  /** Highest version handed to the bus with every earlier one, per draft (not yet confirmed). */
  private readonly sent = new Map<string, number>();
  /** Versions confirmed delivered and saved, per draft. */
  private readonly saved = new Map<string, number>();
  /** Where this process started publishing each draft (the room's version when it opened). */
  private readonly base = new Map<string, number>();
  /** Drafts whose room closed: their entries go once everything they sent is confirmed. */
  private readonly closing = new Set<string>();
  /** Drafts with a dropped notification: caught up from the log on the next tick. */
  private readonly lagging = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;

  constructor(o: RelayOptions) {
    this.o = { tickMs: 1000, ...o };
  }

  /** Starts the confirm loop and republishes whatever the log has past the saved cursors. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.o.tickMs);
    this.timer.unref();
    void this.recover().catch((e: unknown) => this.o.log.warn('relay recovery failed (retried on the next tick)', { error: String(e) }));
  }

  /** A committed version's events, in version order per draft. */
  publish(draftId: string, version: number, events: AgUiEvent[], done?: (sent: boolean) => void): void {
    void this.o.bus.publish(draftId, { draftId, version, events }).then((sent) => {
      const prev = this.sent.get(draftId) ?? 0;
      if (sent && !this.lagging.has(draftId) && version === prev + 1) this.sent.set(draftId, version);
      else if (version > prev) this.lagging.add(draftId);
      done?.(sent);
    }, () => {
      this.lagging.add(draftId);
      done?.(false);
    });
  }

  /** A room loaded at `version`: what came before is the recovery's (or was delivered already). */
  opened(draftId: string, version: number): void {
    this.closing.delete(draftId);
    if (!this.base.has(draftId)) this.base.set(draftId, version);
    if (!this.sent.has(draftId)) this.sent.set(draftId, version);
  }

  /** The draft's room closed here: its per-draft state is dropped once confirmed (memory stays bounded). */
  closed(draftId: string): void {
    this.closing.add(draftId);
  }

  /** Confirms what was sent, saves the cursors, catches up lagging drafts. Exposed for tests and shutdown. */
  tick(): Promise<void> {
    this.ticking ??= this.confirm().catch((e: unknown) => {
      this.o.log.warn('relay tick failed (retried)', { error: String(e) });
    }).finally(() => { this.ticking = null; });
    return this.ticking;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.tick();
  }

  private async confirm(): Promise<void> {
    if (!this.o.bus.connected) return;
    const handed = [...this.sent];
    await this.o.bus.flush();
    const marks = handed.filter(([id, v]) => (this.saved.get(id) ?? -1) < v).map(([draftId, version]) => ({ draftId, version }));
    await this.o.store.markPublished(marks);
    for (const m of marks) this.saved.set(m.draftId, m.version);
    for (const id of [...this.lagging]) await this.catchUp(id, this.saved.get(id) ?? this.base.get(id) ?? 0);
    for (const id of [...this.closing]) {
      if (this.lagging.has(id) || (this.saved.get(id) ?? -1) < (this.sent.get(id) ?? 0)) continue;
      this.closing.delete(id);
      this.sent.delete(id);
      this.saved.delete(id);
      this.base.delete(id);
    }
  }

  /** Drafts this relay holds state for (tests: it stays bounded). */
  get tracked(): number {
    return this.sent.size;
  }

  private async recover(): Promise<void> {
    for (const d of await this.o.store.unpublished()) await this.catchUp(d.draftId, d.publishedVersion);
  }

  /** Publishes a draft's steps after `from` from the log, then confirms them. */
  private async catchUp(draftId: string, from: number): Promise<void> {
    this.lagging.delete(draftId);
    let after = from;
    for (;;) {
      const steps = await this.o.store.readSteps(draftId, { after, limit: 500 });
      if (steps.length === 0) break;
      for (const s of steps) {
        const sent = await this.o.bus.publish(draftId, { draftId, version: s.version, events: stepEvents({ ...s, createdAt: s.createdAt.getTime() }) });
        if (!sent) {
          this.lagging.add(draftId);
          return;
        }
        after = s.version;
      }
    }
    await this.o.bus.flush();
    await this.o.store.markPublished([{ draftId, version: after }]);
    this.saved.set(draftId, Math.max(after, this.saved.get(draftId) ?? 0));
    if ((this.sent.get(draftId) ?? 0) < after) this.sent.set(draftId, after);
  }
}
