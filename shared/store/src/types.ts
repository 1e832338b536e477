// What the store hands out: plain objects with numbers and Dates, the same on both drivers.
import type { Json, Step, StepKind } from '@weft/core';

export type { StepKind };

export interface DraftMeta {
  id: string;
  title: string;
  createdBy: string;
  createdAt: Date;
  headVersion: number;
  epoch: number;
}

/** A step as the room hands it to the append (defaults: no session or turn, kind `do`). */
export interface NewStep extends Omit<Step, 'sessionId' | 'turnId' | 'kind' | 'undoOf'> {
  /** Hash of the submitted body, to tell a retry (same hash) from a reuse (IDEMPOTENCY_CONFLICT). */
  bodyHash: string;
  sessionId?: string | null;
  turnId?: string | null;
  kind?: StepKind;
  undoOf?: number[];
  yUpdate?: Uint8Array | null;
  /** The draft's title after this step, when the step changed it: kept on drafts.title, which the drafts list reads. */
  title?: string;
}

/** A step as the log holds it: the core step plus where and when it was written. */
export interface StoredStep extends Step {
  draftId: string;
  version: number;
  position: number;
  createdAt: Date;
  bodyHash: string;
  yUpdate: Uint8Array | null;
}

export type AppendError =
  | { code: 'VERSION_CONFLICT'; currentVersion: number }
  /** `opIds`: every opId of the batch already in the log (nothing was written). */
  | { code: 'IDEMPOTENCY_CONFLICT'; opId: string; opIds?: string[] }
  | { code: 'NOT_FOUND'; draftId: string }
  /** The append named a lease this node no longer holds (another node owns the draft now). */
  | { code: 'FENCED'; owner: string | null; epoch: number };

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

/** A snapshot as listed: which version, when and why, not its content. */
export type SnapshotEntry = Pick<Snapshot, 'draftId' | 'version' | 'epoch' | 'reason' | 'createdAt'>;

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
