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
  /** How long the first connection may take while nothing answers (a server still starting), ms; default 0. */
  waitMs?: number;
  /** Each refused first try that will be retried: a line for the log ("waiting for NATS at host:port") and why. */
  onWait?: (message: string, fields: { reason: string; waitedMs: number }) => void;
}

/** NATS never answered at start within the wait, or refused us for good (authorization). */
export class BusUnreachable extends Error {}

/** host:port of a NATS URL, never its credentials. */
const addressOf = (url: string): string => {
  try { const u = new URL(url); return `${u.hostname}:${u.port || '4222'}`; } catch { return 'NATS_URL'; }
};

/** The first connection, tried again while the server refuses it (it may still be starting). */
async function firstConnect(url: string, o: NatsBusOptions): Promise<NatsConnection> {
  const start = Date.now();
  let delay = 250;
  for (;;) {
    try {
      return await connect({ servers: url, name: o.name ?? 'weft-bus', maxReconnectAttempts: -1, reconnectTimeWait: o.reconnectTimeWait ?? 500 });
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      // nats.js names a server that is not there (yet) a ConnectionError; anything else (auth) is final.
      if ((e as Error | null)?.name !== 'ConnectionError') throw new BusUnreachable(`NATS at ${addressOf(url)} refused the connection: ${reason}. Check NATS_URL.`, { cause: e });
      const waited = Date.now() - start;
      if (waited + delay > (o.waitMs ?? 0)) {
        throw new BusUnreachable(`NATS at ${addressOf(url)} did not answer within ${Math.round((o.waitMs ?? 0) / 1000)} s (${reason}). Is nats-server running, and is NATS_URL right? WEFT_START_WAIT_S sets how long a process waits for it at start.`, { cause: e });
      }
      o.onWait?.(`waiting for NATS at ${addressOf(url)}`, { reason, waitedMs: waited });
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 2000);
    }
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export async function createNatsBus(url: string, opts: NatsBusOptions = {}): Promise<Bus> {
  const nc = await firstConnect(url, opts);
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
