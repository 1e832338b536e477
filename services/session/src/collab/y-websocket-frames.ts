// The y-websocket protocol beside Hocuspocus's (pure; no I/O). A y-websocket client (the
// `y-websocket` WebsocketProvider, pycrdt-websocket, y-crdt's clients) carries one document per
// socket, named by the URL, and its frames are Hocuspocus's without the leading document name:
// the same sync and awareness messages (y-protocols), and no authentication message of its own.
// The door turns each socket into a Hocuspocus connection of that one document
// (y-websocket-socket.ts), so both kinds of client meet in one document and one pipeline.
import { AuthMessageType, writeAuthentication } from '@hocuspocus/common';
import { MessageType } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as yAuth from 'y-protocols/auth';
import { ErrorCode } from '@weft/core';
import { closeCodeFor, CloseCode } from '@weft/protocol';

// y-websocket's message types are Hocuspocus's first four (messageSync 0, messageAwareness 1,
// messageAuth 2, messageQueryAwareness 3); the rest are Hocuspocus's own.
const { Sync, Awareness, Auth, QueryAwareness, SyncReply, CLOSE } = MessageType;

/** The Hocuspocus authentication a y-websocket client cannot send: the token from its URL. */
export function authFrame(doc: string, token: string): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, doc);
  encoding.writeVarUint(e, Auth);
  writeAuthentication(e, token);
  return encoding.toUint8Array(e);
}

/** A client frame as Hocuspocus reads it, or null for a message type a y-websocket client does not send. */
export function toHocuspocus(doc: string, frame: Uint8Array): Uint8Array | null {
  let type: number;
  try {
    type = decoding.readVarUint(decoding.createDecoder(frame));
  } catch {
    return null;
  }
  if (type !== Sync && type !== Awareness && type !== QueryAwareness) return null;
  const e = encoding.createEncoder();
  encoding.writeVarString(e, doc);
  encoding.writeUint8Array(e, frame); // the rest is read by Hocuspocus (and frame-check.ts) as usual
  return encoding.toUint8Array(e);
}

/** What a Hocuspocus frame to the client becomes. */
export type ToClient =
  | { kind: 'frame'; frame: Uint8Array }
  /** Authentication refused: tell the client (y-protocols/auth), then close with `code`. */
  | { kind: 'denied'; frame: Uint8Array; code: number; reason: string }
  /** The document's connection ended on the server: the socket has nothing left to carry. */
  | { kind: 'closed'; reason: string }
  /** Hocuspocus-only traffic (authenticated, sync status, stateless messages): a y-websocket client has no use for it. */
  | { kind: 'skip' };

export function fromHocuspocus(frame: Uint8Array): ToClient {
  const d = decoding.createDecoder(frame);
  decoding.readVarString(d); // the document: the socket's one
  const body = d.pos;
  const type = decoding.readVarUint(d);
  switch (type) {
    case Sync:
    case Awareness:
    case QueryAwareness:
      return { kind: 'frame', frame: frame.subarray(body) };
    case SyncReply: {
      // Hocuspocus's server sync step 1 after it answered the client's: a plain sync message for y-websocket.
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, Sync);
      encoding.writeUint8Array(e, frame.subarray(d.pos));
      return { kind: 'frame', frame: encoding.toUint8Array(e) };
    }
    case Auth: {
      if (decoding.readVarUint(d) !== AuthMessageType.PermissionDenied) return { kind: 'skip' };
      const reason = decoding.readVarString(d);
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, Auth);
      yAuth.writePermissionDenied(e, reason);
      return { kind: 'denied', frame: encoding.toUint8Array(e), code: deniedCode(reason), reason };
    }
    case CLOSE:
      return { kind: 'closed', reason: decoding.readVarString(d) };
    default:
      return { kind: 'skip' };
  }
}

/**
 * The close code for a refused authentication. The reason is one of our error codes (the door's
 * onAuthenticate); anything else Hocuspocus may say is a refusal. y-websocket does not reconnect
 * after 4400–4499, and does after 4500.
 */
function deniedCode(reason: string): number {
  return Object.hasOwn(ErrorCode, reason) ? closeCodeFor(reason as ErrorCode) : CloseCode.FORBIDDEN;
}
