// A plain Yjs client for the door tests: only yjs and @hocuspocus/provider, nothing of our SDK.
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';

/** ws emits 'error' when a socket still connecting is closed (a test closing a reconnecting client): absorbed. */
export class QuietWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    this.on('error', () => {});
  }
}

export interface PlainClient {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  /** Stateless messages received (refusals, results). */
  stateless: string[];
  /** Close codes of the socket, in order. */
  closes: number[];
  close(): void;
}

/** Joins `draftId` and resolves once synced. `reconnect: false`: one attempt (a closed socket stays closed). */
export async function plainClient(url: string, draftId: string, token: string, o: { reconnect?: boolean } = {}): Promise<PlainClient> {
  const doc = new Y.Doc();
  const closes: number[] = [];
  const socket = new HocuspocusProviderWebsocket({
    url: url.replace('http', 'ws') + '/collab', WebSocketPolyfill: QuietWebSocket, delay: 50, minDelay: 50, ...(o.reconnect === false ? { maxAttempts: 1 } : {}),
  } as never);
  socket.on('close', ({ event }: { event: { code: number } }) => closes.push(event.code));
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: draftId, document: doc, token });
  const stateless: string[] = [];
  provider.on('stateless', ({ payload }: { payload: string }) => stateless.push(payload));
  const synced = new Promise<void>((r) => provider.on('synced', ({ state }: { state: boolean }) => state && r()));
  provider.attach();
  await synced;
  return { doc, provider, socket, stateless, closes, close: () => { provider.destroy(); socket.destroy(); } };
}
