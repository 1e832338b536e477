// The bus over core NATS (not JetStream: NATS is a rebuildable notification path, never the only
// copy — RELIABILITY.md). Reconnects forever; while it is down, publish drops and counts instead of
// throwing into the writer, and consumers refill from the store after `onReconnect`.
import { connect, headers } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import { ALL_DRAFTS_SUBJECT, type Bus, type BusHandler, type BusMessage, type BusStats, type SubscribePattern, type Subscription, assertDraftId, checkMessage, draftSubject, duplicateTracker, isBusMessage, msgId } from './bus.ts';

export interface NatsBusOptions {
  /** Connection name shown by the server. */
  name?: string;
  reconnectTimeWait?: number;
  onHandlerError?: (err: unknown, msg: BusMessage) => void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export async function createNatsBus(url: string, opts: NatsBusOptions = {}): Promise<Bus> {
  const nc: NatsConnection = await connect({
    servers: url,
    name: opts.name ?? 'weft-bus',
    maxReconnectAttempts: -1,
    reconnectTimeWait: opts.reconnectTimeWait ?? 500,
  });
  const stats: BusStats = { published: 0, dropped: 0, delivered: 0, malformed: 0 };
  const reconnectListeners = new Set<() => void>();
  const onError = opts.onHandlerError ?? ((err: unknown) => { console.error('bus handler failed', err); });
  let up = true;
  let closed = false;

  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnecting') up = false;
      else if (s.type === 'reconnect') {
        up = true;
        for (const l of [...reconnectListeners]) {
          try { l(); } catch (e) { console.error('bus reconnect listener failed', e); }
        }
      }
    }
  })();

  return {
    async publish(draftId, msg) {
      checkMessage(draftId, msg);
      if (closed || !up || nc.isClosed()) { stats.dropped++; return false; }
      const h = headers();
      h.set('Nats-Msg-Id', msgId(draftId, msg.version));
      try {
        nc.publish(draftSubject(draftId), encoder.encode(JSON.stringify(msg)), { headers: h });
        stats.published++;
        return true;
      } catch {
        stats.dropped++;
        return false;
      }
    },
    subscribe(pattern: SubscribePattern, handler: BusHandler): Subscription {
      let subject = ALL_DRAFTS_SUBJECT;
      if (pattern !== 'all') { assertDraftId(pattern.draftId); subject = draftSubject(pattern.draftId); }
      const isDuplicate = duplicateTracker();
      const sub = nc.subscribe(subject, {
        callback: (err, m) => {
          if (err !== null) return;
          let msg: unknown;
          try { msg = JSON.parse(decoder.decode(m.data)); } catch { stats.malformed++; return; }
          if (!isBusMessage(msg)) { stats.malformed++; return; }
          const ok = msg;
          stats.delivered++;
          try {
            const r = handler(ok, { duplicate: isDuplicate(ok) });
            if (r instanceof Promise) r.catch((e: unknown) => onError(e, ok));
          } catch (e) {
            onError(e, ok);
          }
        },
      });
      return { unsubscribe() { sub.unsubscribe(); } };
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => { reconnectListeners.delete(listener); };
    },
    async flush() {
      if (up && !closed) await nc.flush();
    },
    async close() {
      if (closed) return;
      closed = true;
      up = false;
      try { await nc.drain(); } catch { await nc.close(); }
    },
    get connected() { return up && !closed && !nc.isClosed(); },
    get stats() { return { ...stats }; },
  };
}
