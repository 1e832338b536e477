import type { Draft, Json, Note, Op, Refusal, Step } from '@weft/core';

// HTTP bodies of the v1 API (ARCHITECTURE.md "Fixed interface points").

export type Scope = 'read' | 'write';
export type ActorKind = 'human' | 'agent' | 'admin';

export interface MintTokenRequest {
  actor: { id: string; kind: Exclude<ActorKind, 'admin'> };
  name?: string;
  /** `{ "<draftId>": ["read","write"], "*": ["read"] }` */
  scopes: Record<string, Scope[]>;
  ttlSeconds?: number;
}
export interface MintTokenResponse { token: string; id: string }

export interface CreateDraftRequest { id?: string; title?: string }
export interface DraftResponse { id: string; version: number; epoch: number; draft: Draft }

export interface SubmitOpsRequest {
  opId: string;
  baseVersion?: number;
  turnId?: string;
  sessionId?: string;
  ops: unknown[];
}
export interface SubmitOpsResponse {
  version: number;
  applied: Op[];
  repairs: Note[];
  refused: Refusal[];
  /** true when this opId had been committed before: the original result is returned. */
  replayed?: boolean;
}

export interface UndoRequest { scope?: 'step' | 'turn'; opId?: string }

/** A logged step on the wire (`GET /events`): core's Step without the inverse and undo fields, plus its version and time. */
export interface StepView extends Omit<Step, 'inverse' | 'kind' | 'undoOf' | 'actorKind'> {
  version: number;
  actorKind: ActorKind;
  /** ISO 8601 (UTC). */
  createdAt: string;
}
export interface EventsResponse { steps: StepView[]; next: number | null; head: number }

export interface VersionEntry { version: number; kind: 'snapshot' | 'turn'; at: string; turnId?: string | null; actor?: string; reason?: string }

export interface OpenSessionResponse { sessionId: string; draftId: string; budgets: { opsPerTurn: number; opsPerSecond: number } }

export type { Json };
