// The in-process bus for the embedded default (no NATS_URL). Delivery is asynchronous, in publish
// order, so handlers never run inside the writer's call stack.
import { type Bus, type BusHandler, type BusMessage, type BusStats, type SubscribePattern, type Subscription, assertDraftId, checkMessage, duplicateTracker } from './bus.ts';

interface Sub { draftId: string | null; handler: BusHandler; isDuplicate: (m: BusMessage) => boolean; active: boolean }

export interface MemoryBusOptions {
  onHandlerError?: (err: unknown, msg: BusMessage) => void;
}

export function createMemoryBus(opts: MemoryBusOptions = {}): Bus {
  const subs = new Set<Sub>();
  const stats: BusStats = { published: 0, dropped: 0, delivered: 0, malformed: 0 };
  let closed = false;
  let tail: Promise<void> = Promise.resolve();
  const onError = opts.onHandlerError ?? ((err: unknown) => { console.error('bus handler failed', err); });

  const deliver = (msg: BusMessage) => {
    for (const sub of [...subs]) {
      if (!sub.active || (sub.draftId !== null && sub.draftId !== msg.draftId)) continue;
      // Each subscriber gets its own copy, as over the wire.
      const copy = structuredClone(msg);
      stats.delivered++;
      try {
        const r = sub.handler(copy, { duplicate: sub.isDuplicate(copy) });
        if (r instanceof Promise) r.catch((e: unknown) => onError(e, copy));
      } catch (e) {
        onError(e, copy);
      }
    }
  };

  return {
    async publish(draftId, msg) {
      checkMessage(draftId, msg);
      if (closed) { stats.dropped++; return false; }
      stats.published++;
      const copy = structuredClone(msg);
      tail = tail.then(() => deliver(copy));
      return true;
    },
    subscribe(pattern: SubscribePattern, handler: BusHandler): Subscription {
      const draftId = pattern === 'all' ? null : pattern.draftId;
      if (draftId !== null) assertDraftId(draftId);
      const sub: Sub = { draftId, handler, isDuplicate: duplicateTracker(), active: true };
      subs.add(sub);
      return { unsubscribe() { sub.active = false; subs.delete(sub); } };
    },
    onReconnect() { return () => {}; },
    async close() { closed = true; await tail; subs.clear(); },
    get connected() { return !closed; },
    get stats() { return { ...stats }; },
    flush() { return tail; },
  };
}
