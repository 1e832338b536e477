import type { ErrorCode, Note, Op, Refusal } from '@weft/core';
import type { ActorKind } from '@weft/protocol';

export interface Actor { id: string; kind: ActorKind }

export interface SubmitRequest {
  opId: string;
  /** Hash of the canonical request body: same opId + other body = IDEMPOTENCY_CONFLICT. */
  bodyHash: string;
  baseVersion?: number | undefined;
  turnId?: string | null | undefined;
  sessionId?: string | null | undefined;
  ops: unknown[];
  actor: Actor;
  /** Set by the Yjs door: the peer's update bytes that produced these ops. */
  yUpdate?: Uint8Array | null | undefined;
  kind?: StepKind;
  undoOf?: number[];
  /** All ops or none (undo/redo): a refusal rolls the step back. */
  atomic?: boolean;
}

export type StepKind = 'do' | 'undo' | 'redo';

export interface StepResult {
  version: number;
  applied: Op[];
  repairs: Note[];
  refused: Refusal[];
  replayed?: boolean;
}

export interface RoomError {
  code: ErrorCode;
  message: string;
  path?: string;
  currentVersion?: number;
  retryAfterMs?: number;
  [key: string]: unknown;
}

export type SubmitOutcome = { ok: true; value: StepResult } | { ok: false; error: RoomError };

/** A step the room committed, as handed to the fan-out (Yjs mirror, SSE, bus). */
export interface CommittedStep {
  draftId: string;
  version: number;
  opId: string;
  actor: Actor;
  sessionId: string | null;
  turnId: string | null;
  ops: Op[];
  inverse: Op[];
  notes: Note[];
  refused: Refusal[];
  kind: StepKind;
  undoOf: number[];
  yUpdate: Uint8Array | null;
  createdAt: number;
}
