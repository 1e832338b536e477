import type { RawData } from 'ws';

/** What the Yjs door uses of a client socket: a `ws` WebSocket, or a y-websocket client through YWebsocketSocket. */
export interface PeerSocket {
  readonly readyState: number;
  send(frame: Uint8Array): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: RawData) => void): this;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
}
