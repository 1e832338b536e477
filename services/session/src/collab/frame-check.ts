// A Yjs frame read through once before Hocuspocus handles it. Hocuspocus answers a frame it cannot
// read by closing only that document's connection (1000 "Reset Connection"): the socket stays open
// and a provider keeps saying "connected" while its edits go nowhere and nothing reaches it. A frame
// that fails here closes the whole socket with 4400 instead, so the client reconnects afresh.
import * as decoding from 'lib0/decoding';

// Hocuspocus's message types (@hocuspocus/server MessageType): the ones a client sends with a body.
const SYNC = 0;
const AWARENESS = 1;
const AUTH = 2;
const SYNC_REPLY = 4;
const STATELESS = 5;
const BROADCAST_STATELESS = 6;

/** Why the frame cannot be handled, or null. Types it does not know pass (Hocuspocus ignores them). */
export function frameProblem(frame: Uint8Array): string | null {
  try {
    const d = decoding.createDecoder(frame);
    decoding.readVarString(d); // the document's address
    const type = decoding.readVarUint(d);
    switch (type) {
      case SYNC:
      case SYNC_REPLY: {
        const step = decoding.readVarUint(d);
        if (step > 2) return `unknown sync message ${step}`;
        decoding.readVarUint8Array(d); // a state vector or an update (checked by beforeSync)
        return null;
      }
      case AWARENESS: {
        const a = decoding.createDecoder(decoding.readVarUint8Array(d));
        for (let n = decoding.readVarUint(a); n > 0; n--) {
          decoding.readVarUint(a); // client id
          decoding.readVarUint(a); // clock
          JSON.parse(decoding.readVarString(a));
        }
        return null;
      }
      case AUTH:
        if (decoding.readVarUint(d) === 0) decoding.readVarString(d); // a token
        return null;
      case STATELESS:
        decoding.readVarString(d);
        return null;
      case BROADCAST_STATELESS:
        return 'a server-internal message type';
      default:
        return null;
    }
  } catch (e) {
    return `unreadable (${e instanceof Error ? e.message : String(e)})`;
  }
}
