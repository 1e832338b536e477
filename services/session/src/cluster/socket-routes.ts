// Several nodes: one client /collab socket may carry several documents (a shared
// HocuspocusProviderWebsocket), owned by different nodes. Every Hocuspocus frame starts with its
// document's name, so each document is routed on its own: to this node's Hocuspocus when this
// node owns it, else over one upstream socket per owner. Peers of one draft thus meet in one
// Hocuspocus document (presence included) whichever node their socket reached.
import * as decoding from 'lib0/decoding';
import { WebSocket } from 'ws';
import type { RawData } from 'ws';
import { CloseCode } from '@weft/protocol';
import type { PeerSocket } from '../collab/peer-socket.ts';
import { openUpstream, toBytes } from './forward.ts';

export interface SocketRoutesDeps {
  /** 'local' when this node owns the document, else the owner's URL (null: no such draft → local, which refuses it). */
  owner(doc: string): Promise<'local' | { url: string }>;
  /** This node's Hocuspocus connection for the socket, created on first use. */
  local(): (frame: Uint8Array) => void;
  /** A document went to another node (that node authenticates it). */
  relayed(): void;
  fromNode: string;
}

type Route = { kind: 'local' } | { kind: 'up'; url: string } | { kind: 'resolving'; queue: Uint8Array[] };

export function routeDocuments(ws: PeerSocket, deps: SocketRoutesDeps): void {
  const routes = new Map<string, Route>();
  const upstreams = new Map<string, ReturnType<typeof openUpstream>>();
  let local: ((frame: Uint8Array) => void) | null = null;

  const deliver = (route: Route, frame: Uint8Array): void => {
    if (route.kind === 'resolving') route.queue.push(frame);
    else if (route.kind === 'local') (local ??= deps.local())(frame);
    else {
      let up = upstreams.get(route.url);
      if (!up) upstreams.set(route.url, (up = openUpstream(ws, route.url, deps.fromNode)));
      up.send(frame);
    }
  };

  ws.on('message', (data: RawData) => {
    const frame = toBytes(data);
    let doc: string;
    try {
      doc = decoding.readVarString(decoding.createDecoder(frame));
    } catch {
      ws.close(CloseCode.BAD_REQUEST, 'BAD_REQUEST');
      return;
    }
    const known = routes.get(doc);
    if (known) {
      try {
        deliver(known, frame);
      } catch {
        ws.close(CloseCode.INTERNAL, 'UNAVAILABLE');
      }
      return;
    }
    // A new document: its frames wait, in order, until its owner is known.
    const resolving: Route = { kind: 'resolving', queue: [frame] };
    routes.set(doc, resolving);
    deps.owner(doc).then((owner) => {
      const route: Route = owner === 'local' ? { kind: 'local' } : { kind: 'up', url: owner.url };
      if (route.kind === 'up') deps.relayed();
      routes.set(doc, route);
      for (const f of resolving.queue.splice(0)) deliver(route, f);
    }).catch(() => {
      // No owner to reach right now (a lease changing hands, Postgres away): the provider reconnects.
      if (ws.readyState === WebSocket.OPEN) ws.close(CloseCode.INTERNAL, 'UNAVAILABLE');
    });
  });
  ws.on('close', (code: number, reason: Buffer) => {
    for (const up of upstreams.values()) up.close(code, reason.toString());
  });
  ws.on('error', () => { for (const up of upstreams.values()) up.close(1011, ''); });
}
