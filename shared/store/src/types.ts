// What the store hands out: plain objects with numbers and Dates, the same on both drivers.
import type { Json, Note, Op, Refusal } from '@weft/core';

export interface DraftMeta {
  id: string;
  title: string;
  createdBy: string;
  createdAt: Date;
  headVersion: number;
  epoch: number;
}

/** One step: one opId's applied ops, committed atomically as one log row. */
export interface NewStep {
  opId: string;
  /** Hash of the submitted body, to tell a retry (same hash) from a reuse (IDEMPOTENCY_CONFLICT). */
  bodyHash: string;
  actor: string;
  actorKind: string;
  sessionId?: string | null;
  turnId?: string | null;
  ops: Op[];
  inverse: Op[];
  notes: Note[];
  refused: Refusal[];
  yUpdate?: Uint8Array | null;
  /** `undo`/`redo` steps reverse the versions in `undoOf`. Default `do`. */
  kind?: StepKind;
  undoOf?: number[];
}

export type StepKind = 'do' | 'undo' | 'redo';

export interface StoredStep {
  draftId: string;
  version: number;
  position: number;
  createdAt: Date;
  opId: string;
  bodyHash: string;
  actor: string;
  actorKind: string;
  sessionId: string | null;
  turnId: string | null;
  ops: Op[];
  inverse: Op[];
  notes: Note[];
  refused: Refusal[];
  yUpdate: Uint8Array | null;
  kind: StepKind;
  undoOf: number[];
}

export type AppendError =
  | { code: 'VERSION_CONFLICT'; currentVersion: number }
  /** `opIds`: every opId of the batch already in the log (nothing was written). */
  | { code: 'IDEMPOTENCY_CONFLICT'; opId: string; opIds?: string[] }
  | { code: 'NOT_FOUND'; draftId: string };

export interface NewSnapshot {
  draftId: string;
  version: number;
  epoch: number;
  doc: Json;
  yState: Uint8Array | null;
  reason: string;
}

export interface Snapshot extends NewSnapshot {
  createdAt: Date;
}

export type ActorKind = 'human' | 'agent' | 'admin';
export type Scope = 'read' | 'write';

export interface TokenRecord {
  /** sha256 (hex) of the secret. */
  id: string;
  actorId: string;
  actorKind: ActorKind;
  name: string;
  /** `{ "<draftId>" | "*": ["read", "write"] }` */
  scopes: Record<string, Scope[]>;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export interface SessionRecord {
  id: string;
  draftId: string;
  actorId: string;
  openedAt: Date;
  lastSeenAt: Date;
  closedAt: Date | null;
}

export interface TurnRecord {
  id: string;
  draftId: string;
  sessionId: string | null;
  actorId: string;
  startedAt: Date;
  finishedAt: Date | null;
  opCount: number;
  summary: Json | null;
}
