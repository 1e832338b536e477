// The forwarder (several session nodes): a request for a draft this node does not own goes to its
// owner unchanged — HTTP (streamed both ways, SSE included) and /collab documents (relayed frame
// by frame, socket-routes.ts) — so any node takes any request and every draft keeps one sequencer.
import { request } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebSocket } from 'ws';
import type { RawData } from 'ws';
import { CloseCode } from '@weft/protocol';
import type { PeerSocket } from '../collab/peer-socket.ts';
import { WeftError } from '../commands/errors.ts';
import { sendError } from '../http/respond.ts';

/** Set on forwarded requests: the owner never forwards them again (no loops during a takeover). */
export const FORWARDED_BY = 'x-weft-forwarded-by';

export function forwardHttp(req: IncomingMessage, res: ServerResponse, ownerUrl: string, body: Buffer | null, fromNode: string): void {
  const url = new URL(req.url ?? '/', ownerUrl);
  const headers = { ...req.headers, host: url.host, [FORWARDED_BY]: fromNode };
  if (body) headers['content-length'] = String(body.length);
  const up = request(url, { method: req.method ?? 'GET', headers }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', (e) => {
    if (!res.headersSent) sendError(res, new WeftError('UNAVAILABLE', `The draft's owner (${url.host}) did not answer (${e.message}); retry with the same opId.`, { retryAfterMs: 1000 }));
    else res.destroy();
  });
  res.on('close', () => { if (!res.writableFinished) up.destroy(); });
  if (body) up.end(body);
  else req.pipe(up);
}

/**
 * One upstream /collab socket from this node to a draft owner, for one client socket: frames of
 * that owner's documents go up as they come (queued until it opens), its frames come down to the
 * client. Close codes travel both ways (4401 from the owner reaches the client as 4401); an owner
 * that cannot be reached closes the client with 4500, and the provider reconnects every document.
 */
export function openUpstream(client: PeerSocket, ownerUrl: string, fromNode: string): { send(m: Uint8Array): void; close(code: number, reason: string): void } {
  const up = new WebSocket(ownerUrl.replace(/^http/, 'ws') + '/collab', { headers: { [FORWARDED_BY]: fromNode } });
  const pending: Uint8Array[] = [];
  up.on('open', () => { for (const m of pending.splice(0)) up.send(m); });
  up.on('message', (data: RawData) => { if (client.readyState === WebSocket.OPEN) client.send(data as Buffer); });
  up.on('close', (code: number, reason: Buffer) => {
    if (client.readyState === WebSocket.OPEN) client.close(validCode(code), reason.toString());
  });
  up.on('error', () => {
    if (client.readyState === WebSocket.OPEN) client.close(CloseCode.INTERNAL, 'UNAVAILABLE');
  });
  return {
    send(m) {
      if (up.readyState === WebSocket.OPEN) up.send(m);
      else if (up.readyState === WebSocket.CONNECTING) pending.push(m);
    },
    close(code, reason) {
      if (up.readyState === WebSocket.OPEN) up.close(validCode(code), reason);
      else up.terminate();
    },
  };
}

export function toBytes(data: RawData): Uint8Array {
  const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** Codes a peer may send (1005/1006 are reserved for "none" and "abnormal"). */
function validCode(code: number): number {
  return code === 1005 || code === 1006 || code < 1000 ? 1000 : code;
}
