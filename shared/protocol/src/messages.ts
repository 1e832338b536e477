import type { Note, Op, Refusal } from '@weft/core';

// Stateless messages on the Hocuspocus WebSocket (`/collab`), JSON in the stateless payload.
// Upstream: client → server. Downstream: server → client.

export interface SubmitMessage {
  type: 'submit';
  opId: string;
  baseVersion?: number;
  turnId?: string;
  ops: unknown[];
}
export type Upstream = SubmitMessage;

export interface ResultMessage {
  type: 'result';
  opId: string;
  ok: boolean;
  version: number;
  applied: Op[];
  repairs: Note[];
  refused: Refusal[];
  error?: { code: string; message: string };
}
/** A peer's Yjs write that was refused (or repaired): sent only to its author. */
export interface YjsRefusalMessage {
  type: 'refused';
  refused: Refusal[];
  repairs: Note[];
  changedIds: string[];
}
export interface EpochMessage { type: 'epoch'; epoch: number }
export type Downstream = ResultMessage | YjsRefusalMessage | EpochMessage;
