import type { Activity, Json, Note, Op, Refusal } from '@weft/core';

// The AG-UI 1.0 events Weft emits (PROTOCOLS.md §2). AG-UI has no sequence field: the draft
// version rides in the SSE `id:` and in `metadata.weft`.

export interface WeftEventMeta {
  version: number;
  opId?: string;
  actor?: string;
  turnId?: string | null;
}

interface Base { timestamp?: number; metadata?: { weft: WeftEventMeta } }

export interface StateSnapshotEvent extends Base { type: 'STATE_SNAPSHOT'; snapshot: Json }
export interface StateDeltaEvent extends Base { type: 'STATE_DELTA'; delta: Op[] }
export interface RunStartedEvent extends Base { type: 'RUN_STARTED'; threadId: string; runId: string }
export interface RunFinishedEvent extends Base {
  type: 'RUN_FINISHED'; threadId: string; runId: string; result?: Json;
}
export interface RunErrorEvent extends Base { type: 'RUN_ERROR'; message: string; code?: string }
export interface CustomEvent extends Base { type: 'CUSTOM'; name: CustomEventName; value: Json }
export type AgUiEvent =
  | StateSnapshotEvent | StateDeltaEvent | RunStartedEvent | RunFinishedEvent | RunErrorEvent | CustomEvent;

/** CUSTOM event names, namespaced so other AG-UI consumers can ignore them. */
export const CustomEventName = {
  repairs: 'weft.repairs',
  refused: 'weft.refused',
  presence: 'weft.presence',
  ghost: 'weft.ghost',
  epoch: 'weft.epoch',
  /** A reader's control or button event (A2UI v0.9 client→server `action`), for agents. */
  action: 'weft.action',
  /** One observable activity entry (reported by an agent or recorded by the system). */
  activity: 'weft.activity',
} as const;
export type CustomEventName = (typeof CustomEventName)[keyof typeof CustomEventName];

export function stateSnapshot(snapshot: Json, meta: WeftEventMeta, now: number): StateSnapshotEvent {
  return { type: 'STATE_SNAPSHOT', snapshot, timestamp: now, metadata: { weft: meta } };
}

export function stateDelta(delta: Op[], meta: WeftEventMeta, now: number): StateDeltaEvent {
  return { type: 'STATE_DELTA', delta, timestamp: now, metadata: { weft: meta } };
}

export function repairsEvent(notes: Note[], meta: WeftEventMeta, now: number): CustomEvent {
  return { type: 'CUSTOM', name: CustomEventName.repairs, value: notes as unknown as Json, timestamp: now, metadata: { weft: meta } };
}

export function refusedEvent(refused: Refusal[], meta: WeftEventMeta, now: number): CustomEvent {
  return { type: 'CUSTOM', name: CustomEventName.refused, value: refused as unknown as Json, timestamp: now, metadata: { weft: meta } };
}

/** A2UI v0.9's client→server `action` message body, as Weft records it. */
export interface ReaderAction {
  name: string;
  surfaceId: string;
  sourceComponentId: string;
  /** ISO 8601, from the reader's clock (informative only). */
  timestamp: string;
  context: { [key: string]: Json };
}

/** A reader action on the draft's stream and bus; `written` lists the data paths the server set. */
export function readerActionEvent(action: ReaderAction, written: string[], meta: WeftEventMeta, now: number): CustomEvent {
  return { type: 'CUSTOM', name: CustomEventName.action, value: { ...action, written } as unknown as Json, timestamp: now, metadata: { weft: meta } };
}

/** An activity entry for the draft's viewers (no version: it changes nothing in the draft). */
export function activityEvent(a: Activity, now: number): CustomEvent {
  return { type: 'CUSTOM', name: CustomEventName.activity, value: a as unknown as Json, timestamp: now };
}

export function runStarted(draftId: string, turnId: string, meta: WeftEventMeta, now: number): RunStartedEvent {
  return { type: 'RUN_STARTED', threadId: draftId, runId: turnId, timestamp: now, metadata: { weft: meta } };
}

export function runFinished(draftId: string, turnId: string, result: Json, meta: WeftEventMeta, now: number): RunFinishedEvent {
  return { type: 'RUN_FINISHED', threadId: draftId, runId: turnId, result, timestamp: now, metadata: { weft: meta } };
}

/** The committed step as every consumer sees it (SSE, NATS, refill from the log). */
export interface StepLike {
  version: number;
  opId: string;
  actor: string;
  turnId: string | null;
  ops: Op[];
  notes: Note[];
  refused: Refusal[];
  createdAt: number;
}

/** A committed step → its AG-UI events: STATE_DELTA, then CUSTOM repairs/refusals if any. */
export function stepEvents(step: StepLike): AgUiEvent[] {
  const meta: WeftEventMeta = { version: step.version, opId: step.opId, actor: step.actor, turnId: step.turnId };
  const out: AgUiEvent[] = [stateDelta(step.ops, meta, step.createdAt)];
  if (step.notes.length > 0) out.push(repairsEvent(step.notes, meta, step.createdAt));
  if (step.refused.length > 0) out.push(refusedEvent(step.refused, meta, step.createdAt));
  return out;
}
