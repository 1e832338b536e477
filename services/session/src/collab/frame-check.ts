// A Yjs frame read through once before Hocuspocus handles it. Hocuspocus answers a frame it cannot
// read by closing only that document's connection (1000 "Reset Connection"): the socket stays open
// and a provider keeps saying "connected" while its edits go nowhere and nothing reaches it. A frame
// that fails here closes the whole socket with 4400 instead, so the client reconnects afresh.
import { AuthMessageType } from '@hocuspocus/common';
import { MessageType } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';

// The message types a client sends with a body.
const { Sync, Awareness, Auth, SyncReply, Stateless, BroadcastStateless } = MessageType;

/** Why the frame cannot be handled, or null. Types it does not know pass (Hocuspocus ignores them). */
export function frameProblem(frame: Uint8Array): string | null {
  try {
    const d = decoding.createDecoder(frame);
    decoding.readVarString(d); // the document's address
    const type = decoding.readVarUint(d);
    switch (type) {
      case Sync:
      case SyncReply: {
        const step = decoding.readVarUint(d);
        if (step > 2) return `unknown sync message ${step}`;
        decoding.readVarUint8Array(d); // a state vector or an update (checked by beforeSync)
        return null;
      }
      case Awareness: {
        const a = decoding.createDecoder(decoding.readVarUint8Array(d));
        for (let n = decoding.readVarUint(a); n > 0; n--) {
          decoding.readVarUint(a); // client id
          decoding.readVarUint(a); // clock
          JSON.parse(decoding.readVarString(a));
        }
        return null;
      }
      case Auth:
        if (decoding.readVarUint(d) === AuthMessageType.Token) decoding.readVarString(d);
        return null;
      case Stateless:
        decoding.readVarString(d);
        return null;
      case BroadcastStateless:
        return 'a server-internal message type';
      default:
        return null;
    }
  } catch (e) {
    return `unreadable (${e instanceof Error ? e.message : String(e)})`;
  }
}
