import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import * as Y from 'yjs';
import type { Draft, Op } from '@weft/core';
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
  /** Base URL of the session service, http(s)://host:port; the socket is `<url>/collab`. */
  url: string;
  draftId: string;
  token: string;
  presence?: PeerPresence;
  /** Milliseconds to wait for the first sync. */
  timeoutMs?: number;
  /** A WebSocket class; default: the global one (browsers), else `ws` (Node 20 has none). */
  WebSocket?: unknown;
}

/**
 * Works in Node and in the browser (the Build view's editor bundles it).
 *
 * A Yjs peer of a draft through Hocuspocus: read the draft as JSON, edit it through the Y.Doc
 * (validated by the server like every other door), submit ops as stateless messages with a
 * typed answer, and publish presence and ghosts through awareness.
 */
export class WeftPeer {
  readonly doc: Y.Doc;
  readonly provider: HocuspocusProvider;
  readonly draftId: string;
  private readonly socket: HocuspocusProviderWebsocket;
  private readonly waiting = new Map<string, (m: ResultMessage) => void>();
  private readonly refusalListeners: ((m: YjsRefusalMessage) => void)[] = [];
  readonly refusals: YjsRefusalMessage[] = [];

  private constructor(draftId: string, doc: Y.Doc, socket: HocuspocusProviderWebsocket, provider: HocuspocusProvider) {
    this.draftId = draftId;
    this.doc = doc;
    this.socket = socket;
    this.provider = provider;
    provider.on('stateless', ({ payload }: { payload: string }) => this.onStateless(payload));
  }

  static async join(o: JoinOptions): Promise<WeftPeer> {
    const doc = new Y.Doc();
    const wsUrl = o.url.replace(/^http/, 'ws').replace(/\/$/, '') + '/collab';
    // Node 20 has no global WebSocket: pass ws (PLATFORM.md); small delays so reconnects are quick.
    const WS = o.WebSocket ?? (globalThis as { WebSocket?: unknown }).WebSocket ?? (await import('ws')).default;
    const socket = new HocuspocusProviderWebsocket({ url: wsUrl, WebSocketPolyfill: WS as never, delay: 50, minDelay: 50, maxDelay: 1000 } as never);
    const provider = new HocuspocusProvider({ websocketProvider: socket, name: o.draftId, document: doc, token: o.token });
    const peer = new WeftPeer(o.draftId, doc, socket, provider);
    const synced = new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no sync with ${wsUrl} for ${o.draftId} within ${o.timeoutMs ?? 10_000} ms`)), o.timeoutMs ?? 10_000);
      provider.on('synced', ({ state }: { state: boolean }) => {
        if (state) {
          clearTimeout(t);
          resolve();
        }
      });
      provider.on('authenticationFailed', ({ reason }: { reason: string }) => {
        clearTimeout(t);
        reject(new Error(`authentication failed: ${reason}`));
      });
    });
    provider.attach();
    await synced;
    if (o.presence) peer.setPresence(o.presence);
    return peer;
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
      const t = setTimeout(() => {
        this.waiting.delete(opId);
        reject(new Error(`no answer for ${opId}; retry with the same opId`));
      }, opts.timeoutMs ?? 10_000);
      this.waiting.set(opId, (m) => {
        clearTimeout(t);
        resolve(m);
      });
      this.provider.sendStateless(JSON.stringify(msg));
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
    this.provider.setAwarenessField('presence', p);
  }

  setGhost(ghost: PeerPresence['ghost']): void {
    const cur = (this.provider.awareness?.getLocalState()?.['presence'] ?? {}) as PeerPresence;
    this.provider.setAwarenessField('presence', { ...cur, ghost });
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

  close(): void {
    this.provider.destroy();
    this.socket.destroy();
  }

  private onStateless(payload: string): void {
    let m: Downstream;
    try {
      m = JSON.parse(payload) as Downstream;
    } catch {
      return;
    }
    if (m.type === 'result') this.waiting.get(m.opId)?.(m);
    else if (m.type === 'refused') {
      this.refusals.push(m);
      for (const l of this.refusalListeners) l(m);
    }
  }
}
