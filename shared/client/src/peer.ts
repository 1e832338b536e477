import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import * as Y from 'yjs';
import type { Draft, Op } from '@weft/core';
import { CloseCode } from '@weft/protocol';
import type { Downstream, ResultMessage, YjsRefusalMessage } from '@weft/protocol';
import { applyOpsToYDoc, yDocToDraft } from '@weft/ydoc';

export interface PeerPresence {
  name?: string;
  color?: string;
  /** The component (or section) this peer has selected: `{ sectionId, componentId? }`. */
  selection?: { sectionId: string; componentId?: string } | null;
  /** A ghost: the op this peer is still writing, shown to viewers, never stored. */
  ghost?: { op: unknown; partial?: boolean } | null;
  [key: string]: unknown;
}

export interface JoinOptions {
  /**
   * Base URL of the session service, http(s)://host:port; the socket is `<url>/collab`. Several
   * URLs (session nodes of one cluster): when the socket to one drops, the peer moves to the next
   * after a jittered backoff, keeping its doc (unsent edits sync on the new socket).
   */
  url: string | readonly string[];
  draftId: string;
  token: string;
  presence?: PeerPresence;
  /** Milliseconds to wait for the first sync. */
  timeoutMs?: number;
  /** A WebSocket class; default: the global one (browsers), else `ws` (Node 20 has none). */
  WebSocket?: unknown;
}

/** The close code of DOC_EPOCH_CHANGED (docs/errors.md): the server compacted the doc. */
const EPOCH_CHANGED: number = CloseCode.CONFLICT;
/** Closes after which another node may serve: abnormal drop, going away, the server's 4500. */
const DROPPED = new Set<number>([1001, 1006, CloseCode.INTERNAL]);
/** Why the server ended a peer for good: the token (revoked, expired, without the draft) or the draft (deleted) is gone. */
type EndCode = 'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND';
/** Closes after which no retry can help. */
const FINAL = new Map<number, EndCode>([[CloseCode.UNAUTHORIZED, 'UNAUTHORIZED'], [CloseCode.FORBIDDEN, 'FORBIDDEN'], [CloseCode.NOT_FOUND, 'NOT_FOUND']]);

/**
 * Works in Node and in the browser (the Build view's editor bundles it).
 *
 * A Yjs peer of a draft through Hocuspocus: read the draft as JSON, edit it through the Y.Doc
 * (validated by the server like every other door), submit ops as stateless messages with a
 * typed answer, and publish presence and ghosts through awareness.
 *
 * When the server starts a new Yjs epoch (compaction) it closes the socket with DOC_EPOCH_CHANGED:
 * the peer then reloads into a fresh Y.Doc (`doc` and `provider` are replaced; onReload listeners
 * are told) — an old doc must never sync into the new lineage. Local Yjs edits not yet sent at
 * that moment are dropped; stateless submits still waiting for an answer are sent again.
 */
export class WeftPeer {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  readonly draftId: string;
  /** Times this peer reloaded into a new epoch's doc. */
  reloads = 0;
  private readonly token: string;
  private socket: HocuspocusProviderWebsocket;
  private readonly openSocket: () => HocuspocusProviderWebsocket;
  private readonly urls: number;
  private urlIndex = 0;
  private failovers = 0;
  private closed = false;
  /** The socket dropped since the last sync: waiting submits go out again on the next one. */
  private resendOnSync = false;
  /** Submits without an answer yet: opId → the message sent and its resolver. */
  private readonly waiting = new Map<string, { msg: string; answer: (m: ResultMessage) => void; fail: (e: Error) => void }>();
  /**
   * Why the server ended this peer for good (4401 a revoked or expired token, 4403, 4404 a deleted
   * draft), or null. The peer is then closed: it does not reconnect, and submits reject.
   */
  ended: { code: EndCode; closeCode: number } | null = null;
  /** join() waiting for the first sync: told if the peer is ended before it. */
  private onEnd: ((e: NonNullable<WeftPeer['ended']>) => void) | null = null;
  /** join() waiting for the first sync: told when a failover gave the peer a new provider. */
  private onFailover: (() => void) | null = null;
  private readonly refusalListeners: ((m: YjsRefusalMessage) => void)[] = [];
  private readonly reloadListeners: ((doc: Y.Doc) => void)[] = [];
  private presence: PeerPresence | null = null;
  readonly refusals: YjsRefusalMessage[] = [];

  private constructor(draftId: string, token: string, urls: readonly string[], open: (url: string) => HocuspocusProviderWebsocket) {
    this.draftId = draftId;
    this.token = token;
    this.urls = urls.length;
    this.openSocket = () => open(urls[this.urlIndex % urls.length]!);
    this.socket = this.listen(this.openSocket());
    this.doc = new Y.Doc();
    this.provider = this.open(this.doc);
  }

  static async join(o: JoinOptions): Promise<WeftPeer> {
    const urls = (typeof o.url === 'string' ? [o.url] : [...o.url]).map((u) => u.replace(/^http/, 'ws').replace(/\/$/, '') + '/collab');
    if (urls.length === 0) throw new TypeError('WeftPeer.join needs at least one url');
    const wsUrl = urls[0]!;
    // Node 20 has no global WebSocket: pass ws (PLATFORM.md); small delays so reconnects are quick.
    // A ws class passed in (Node) gets the same error listener as the default: a failover while its
    // socket is still connecting otherwise crashed the caller's process (an unhandled 'error').
    const given = o.WebSocket as (new (...args: any[]) => { on(event: 'error', fn: () => void): unknown }) | undefined;
    const WS = given ? (typeof given.prototype?.on === 'function' ? quietWs(given) : given) : (globalThis as { WebSocket?: unknown }).WebSocket ?? quietWs((await import('ws')).default);
    const peer = new WeftPeer(o.draftId, o.token, urls, (url) => new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WS as never, delay: 50, minDelay: 50, maxDelay: 1000 } as never));
    const provider = peer.provider;
    const synced = new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no sync with ${wsUrl} for ${o.draftId} within ${o.timeoutMs ?? 10_000} ms`)), o.timeoutMs ?? 10_000);
      const done = (): void => {
        clearTimeout(t);
        resolve();
      };
      provider.on('synced', ({ state }: { state: boolean }) => state && done());
      // An epoch change or a failover during the first sync: the new provider finishes the join
      // (without it, a join through a node that failed waited out its whole timeout although the
      // next node had synced it).
      const rebind = (): void => { peer.provider.on('synced', ({ state }: { state: boolean }) => state && done()); };
      peer.onReload(rebind);
      peer.onFailover = rebind;
      provider.on('authenticationFailed', ({ reason }: { reason: string }) => {
        clearTimeout(t);
        reject(new Error(`authentication failed: ${reason}`));
      });
      // Refused for good while joining (no such draft, a token without it): no point waiting.
      peer.onEnd = (e) => {
        clearTimeout(t);
        reject(new Error(`${e.code}: ${o.draftId} cannot be joined (close ${e.closeCode})`));
      };
    });
    provider.attach();
    try {
      await synced;
    } catch (e) {
      peer.close(); // a failed join leaves nothing reconnecting behind it
      throw e;
    } finally {
      peer.onEnd = null;
      peer.onFailover = null;
    }
    if (o.presence) peer.setPresence(o.presence);
    return peer;
  }

  /** Called with the new doc after each reload into a new epoch (re-bind doc listeners here). */
  onReload(cb: (doc: Y.Doc) => void): () => void {
    this.reloadListeners.push(cb);
    return () => {
      const i = this.reloadListeners.indexOf(cb);
      if (i >= 0) this.reloadListeners.splice(i, 1);
    };
  }

  private open(doc: Y.Doc): HocuspocusProvider {
    const provider = new HocuspocusProvider({ websocketProvider: this.socket, name: this.draftId, document: doc, token: this.token });
    provider.on('stateless', ({ payload }: { payload: string }) => this.onStateless(payload));
    // Submits whose answer died with a dropped socket (a reconnect, a reload, another node) are sent
    // again with the same opId once synced: the server answers a retry once (idempotency), whether
    // or not the first one arrived.
    provider.on('synced', ({ state }: { state: boolean }) => {
      if (!state || !this.resendOnSync || provider !== this.provider) return;
      this.resendOnSync = false;
      for (const w of this.waiting.values()) provider.sendStateless(w.msg);
    });
    return provider;
  }

  private listen(socket: HocuspocusProviderWebsocket): HocuspocusProviderWebsocket {
    socket.on('close', ({ event }: { event: { code?: number } }) => {
      if (socket !== this.socket || this.closed) return;
      const final = event?.code === undefined ? undefined : FINAL.get(event.code);
      if (final) {
        this.end(final, event.code!);
        return;
      }
      this.resendOnSync = true;
      if (event?.code === EPOCH_CHANGED) this.reload();
      else if (this.urls > 1 && (event?.code === undefined || DROPPED.has(event.code))) this.failover();
    });
    socket.on('open', () => { if (socket === this.socket) this.failovers = 0; });
    return socket;
  }

  /**
   * The node this peer talked to went away: after a jittered backoff (so a node's peers do not all
   * land at once), the next URL, with the same doc — its unsent edits go out in the new sync.
   */
  private failover(): void {
    const socket = this.socket;
    // The first move is almost at once (a node going away asked for it); later ones back off.
    const delay = this.failovers === 0 ? Math.random() * 100 : Math.min(2000, 100 * 2 ** Math.min(this.failovers, 4)) * (0.5 + Math.random());
    this.failovers++;
    setTimeout(() => {
      if (socket !== this.socket || this.closed) return;
      this.urlIndex++;
      this.reconnect(this.doc);
      this.onFailover?.();
    }, delay).unref?.();
  }

  /**
   * A new epoch: drop the old doc (never synced again) and join with a fresh one on a new socket
   * (the old socket would replay the old provider's queued messages on reconnect).
   */
  private reload(): void {
    const old = this.doc;
    this.reconnect(new Y.Doc());
    old.destroy();
    this.reloads++;
    for (const f of [...this.reloadListeners]) f(this.doc);
  }

  /** A new socket and provider for `doc`; presence again, and waiting submits re-sent once synced. */
  private reconnect(doc: Y.Doc): void {
    this.provider.destroy();
    destroySocket(this.socket);
    this.socket = this.listen(this.openSocket());
    this.doc = doc;
    this.provider = this.open(doc);
    this.provider.attach();
    if (this.presence) this.provider.setAwarenessField('presence', this.presence);
  }

  /** The draft as this peer sees it now. */
  draft(): Draft {
    return yDocToDraft(this.doc, this.draftId);
  }

  /** Edits through the Y.Doc: the server validates the resulting update like any other write. */
  applyOps(ops: readonly Op[]): void {
    applyOpsToYDoc(this.doc, ops);
  }

  /** Submits ops as a stateless message and resolves with the server's typed answer. */
  submit(ops: unknown[], opts: { opId?: string; baseVersion?: number; turnId?: string; timeoutMs?: number } = {}): Promise<ResultMessage> {
    const opId = opts.opId ?? `op-${globalThis.crypto.randomUUID()}`;
    const msg = { type: 'submit', opId, ops, ...(opts.baseVersion === undefined ? {} : { baseVersion: opts.baseVersion }), ...(opts.turnId ? { turnId: opts.turnId } : {}) };
    return new Promise<ResultMessage>((resolve, reject) => {
      if (this.ended) {
        reject(new Error(`${this.ended.code}: the server ended this peer (close ${this.ended.closeCode})`));
        return;
      }
      const t = setTimeout(() => {
        this.waiting.delete(opId);
        reject(new Error(`no answer for ${opId}; retry with the same opId`));
      }, opts.timeoutMs ?? 10_000);
      const text = JSON.stringify(msg);
      this.waiting.set(opId, { msg: text, answer: (m) => {
        this.waiting.delete(opId);
        clearTimeout(t);
        resolve(m);
      }, fail: (e) => {
        this.waiting.delete(opId);
        clearTimeout(t);
        reject(e);
      } });
      this.provider.sendStateless(text);
    });
  }

  /** Called with each refusal of this peer's own Yjs edits (the server reverted them). */
  onRefused(cb: (m: YjsRefusalMessage) => void): () => void {
    this.refusalListeners.push(cb);
    return () => {
      const i = this.refusalListeners.indexOf(cb);
      if (i >= 0) this.refusalListeners.splice(i, 1);
    };
  }

  setPresence(p: PeerPresence): void {
    this.presence = p;
    this.provider.setAwarenessField('presence', p);
  }

  setGhost(ghost: PeerPresence['ghost']): void {
    const cur = (this.provider.awareness?.getLocalState()?.['presence'] ?? {}) as PeerPresence;
    this.presence = { ...cur, ghost: ghost ?? null };
    this.provider.setAwarenessField('presence', this.presence);
  }

  /** Everyone's presence (as stamped by the server: `user.id` is the authenticated actor). */
  peers(): { clientId: number; user?: { id: string; kind: string }; presence?: PeerPresence }[] {
    const out: { clientId: number; user?: { id: string; kind: string }; presence?: PeerPresence }[] = [];
    this.provider.awareness?.getStates().forEach((state, clientId) => out.push({ clientId, ...(state as object) }));
    return out;
  }

  /** Resolves once every local change was acknowledged by the server (synced, not necessarily accepted). */
  async flushed(timeoutMs = 5000): Promise<void> {
    const t0 = Date.now();
    while (this.provider.hasUnsyncedChanges && Date.now() - t0 < timeoutMs) await new Promise((r) => setTimeout(r, 5));
  }

  /** The server ended this peer for good: close it, and fail what waits for an answer. */
  private end(code: EndCode, closeCode: number): void {
    this.ended = { code, closeCode };
    this.onEnd?.(this.ended);
    for (const w of [...this.waiting.values()]) w.fail(new Error(`${code}: the server ended this peer (close ${closeCode}); this op's outcome is unknown`));
    this.close();
  }

  close(): void {
    this.closed = true;
    this.provider.destroy();
    destroySocket(this.socket);
  }

  private onStateless(payload: string): void {
    let m: Downstream;
    try {
      m = JSON.parse(payload) as Downstream;
    } catch {
      return;
    }
    if (m.type === 'result') this.waiting.get(m.opId)?.answer(m);
    else if (m.type === 'refused') {
      this.refusals.push(m);
      for (const l of this.refusalListeners) l(m);
    }
  }
}

/**
 * Some ws versions also throw when a socket still connecting is closed; it is gone either way.
 */
function destroySocket(socket: HocuspocusProviderWebsocket): void {
  try {
    socket.destroy();
  } catch {
    // "WebSocket was closed before the connection was established"
  }
}

/**
 * ws emits 'error' when a socket is closed while still connecting (a reconnect under way when the
 * peer is closed); without a listener Node treats it as an uncaught exception. The provider learns
 * of the failure from 'close' anyway, so a no-op listener is added to each socket.
 */
function quietWs<T extends new (...args: any[]) => { on(event: 'error', fn: () => void): unknown }>(Base: T): T {
  return class extends Base {
    constructor(...args: any[]) {
      super(...args);
      this.on('error', () => {});
    }
  };
}
