// A y-websocket client's socket as the Yjs door sees it (y-websocket-frames.ts): it emits the
// client's frames in Hocuspocus's form, its token first, and sends Hocuspocus's frames in the
// client's. Everything past it — Hocuspocus, the guards, the relay to a draft's owner on another
// node — is the one /collab path, unchanged.
import { EventEmitter } from 'node:events';
import { WebSocket } from 'ws';
import type { RawData } from 'ws';
import { CloseCode } from '@weft/protocol';
import { toBytes } from '../cluster/forward.ts';
import type { PeerSocket } from './peer-socket.ts';
import { authFrame, fromHocuspocus, toHocuspocus } from './y-websocket-frames.ts';

export class YWebsocketSocket extends EventEmitter implements PeerSocket {
  private readonly ws: WebSocket;
  private readonly doc: string;
  private readonly token: string;
  /** Frames that arrived before start(): they follow the authentication, in order. */
  private early: Uint8Array[] | null = [];

  constructor(ws: WebSocket, doc: string, token: string) {
    super();
    this.ws = ws;
    this.doc = doc;
    this.token = token;
    ws.on('message', (data: RawData) => this.fromClient(toBytes(data)));
    ws.on('close', (code: number, reason: Buffer) => this.emit('close', code, reason));
    ws.on('error', (e: Error) => this.emit('error', e));
  }

  get readyState(): number {
    return this.ws.readyState;
  }

  /** Once the door's listeners are on: the token goes first, then whatever the client sent meanwhile. */
  start(): void {
    const early = this.early ?? [];
    this.early = null;
    this.emit('message', authFrame(this.doc, this.token));
    for (const frame of early) this.emit('message', frame);
  }

  send(frame: Uint8Array): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    const out = fromHocuspocus(frame);
    switch (out.kind) {
      case 'frame':
        this.ws.send(out.frame);
        return;
      case 'denied':
        // Hocuspocus leaves a refused socket open; a y-websocket client would then sit "connected"
        // to nothing. It hears why (y-protocols/auth), then the socket closes with our code.
        this.ws.send(out.frame);
        this.ws.close(out.code, out.reason.slice(0, 120)); // a close reason is at most 123 bytes
        return;
      case 'closed':
        // The door may be closing the socket with a code of its own in this same turn: that one wins.
        setImmediate(() => { if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000, out.reason.slice(0, 120)); });
        return;
      case 'skip':
        return;
    }
  }

  close(code?: number, reason?: string): void {
    this.ws.close(code, reason);
  }

  terminate(): void {
    this.ws.terminate();
  }

  private fromClient(frame: Uint8Array): void {
    const up = toHocuspocus(this.doc, frame);
    if (!up) {
      this.ws.close(CloseCode.BAD_REQUEST, 'BAD_REQUEST');
      return;
    }
    if (this.early) this.early.push(up);
    else this.emit('message', up);
  }
}
