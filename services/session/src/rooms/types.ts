import type { ErrorPayload, Note, Op, Refusal, Step, StepKind } from '@weft/core';
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

export interface StepResult {
  version: number;
  applied: Op[];
  repairs: Note[];
  refused: Refusal[];
  /**
   * Ops of this submission waiting for their section (rule missing_section), sent in a later
   * submission of the same turn: applied in that step, or refused when the turn finishes.
   */
  held?: Refusal[];
  replayed?: boolean;
}

/** An expected failure of the room, as a value: core's ErrorPayload (code, message, path, …). */
export type RoomError = ErrorPayload;

export type SubmitOutcome = { ok: true; value: StepResult } | { ok: false; error: RoomError };

/** A step the room committed, as handed to the fan-out (Yjs mirror, SSE, bus): core's Step plus its place. */
export interface CommittedStep extends Step {
  draftId: string;
  version: number;
  yUpdate: Uint8Array | null;
  /** The draft's title after this step, when the step changed it (the log's drafts list keeps it). */
  title?: string;
  /** ms since the epoch (the log's created_at once committed). */
  createdAt: number;
}
