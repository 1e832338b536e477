import type { Activity, Json, Note, Op, Refusal } from '@weft/core';

// The AG-UI 1.0 events Weft emits (PROTOCOLS.md §2). AG-UI has no sequence field: the draft
// version rides in the SSE `id:` and in `metadata.weft`.

export interface WeftEventMeta {
  version: number;
  opId?: string;
  actor?: string;
  turnId?: string | null;
  /** An agent run's events (runs.ts): the run (= its turn id) and the event's place in it. */
  runId?: string;
  seq?: number;
}

interface Base { timestamp?: number; metadata?: { weft: WeftEventMeta } }

export interface StateSnapshotEvent extends Base { type: 'STATE_SNAPSHOT'; snapshot: Json }
export interface StateDeltaEvent extends Base { type: 'STATE_DELTA'; delta: Op[] }
/** AG-UI's RunAgentInput, as far as a run of ours fills it: the brief is the one user message. */
export interface RunInput {
  threadId: string;
  runId: string;
  messages: { id: string; role: 'user'; content: string }[];
  tools: [];
  context: [];
  forwardedProps?: Json;
}
export interface RunStartedEvent extends Base { type: 'RUN_STARTED'; threadId: string; runId: string; input?: RunInput }
export type RunOutcome = { type: 'success' } | { type: 'cancelled' };
export interface RunFinishedEvent extends Base {
  type: 'RUN_FINISHED'; threadId: string; runId: string; result?: Json; outcome?: RunOutcome;
}
export interface RunErrorEvent extends Base { type: 'RUN_ERROR'; message: string; code?: string }
export interface CustomEvent extends Base { type: 'CUSTOM'; name: CustomEventName; value: Json }
// What a model-driven run streams (runs.ts): the model's notes and each step as it is written.
export interface TextMessageStartEvent extends Base { type: 'TEXT_MESSAGE_START'; messageId: string; role: 'assistant' }
export interface TextMessageContentEvent extends Base { type: 'TEXT_MESSAGE_CONTENT'; messageId: string; delta: string }
export interface TextMessageEndEvent extends Base { type: 'TEXT_MESSAGE_END'; messageId: string }
export interface ToolCallStartEvent extends Base { type: 'TOOL_CALL_START'; toolCallId: string; toolCallName: string; parentMessageId?: string }
export interface ToolCallArgsEvent extends Base { type: 'TOOL_CALL_ARGS'; toolCallId: string; delta: string }
export interface ToolCallEndEvent extends Base { type: 'TOOL_CALL_END'; toolCallId: string }
/** `content`: JSON text of the step's outcome (StepOutcome in runs.ts). */
export interface ToolCallResultEvent extends Base { type: 'TOOL_CALL_RESULT'; messageId: string; toolCallId: string; content: string; role: 'tool' }
/** A refusal round of the turn (the model asked again with the refusals). */
export interface StepStartedEvent extends Base { type: 'STEP_STARTED'; stepName: string }
export interface StepFinishedEvent extends Base { type: 'STEP_FINISHED'; stepName: string }
export type RunEvent =
  | TextMessageStartEvent | TextMessageContentEvent | TextMessageEndEvent
  | ToolCallStartEvent | ToolCallArgsEvent | ToolCallEndEvent | ToolCallResultEvent
  | StepStartedEvent | StepFinishedEvent;
export type AgUiEvent =
  | StateSnapshotEvent | StateDeltaEvent | RunStartedEvent | RunFinishedEvent | RunErrorEvent | CustomEvent | RunEvent;

/** CUSTOM event names, namespaced so other AG-UI consumers can ignore them. */
export const CustomEventName = {
  repairs: 'weft.repairs',
  refused: 'weft.refused',
  presence: 'weft.presence',
  ghost: 'weft.ghost',
  epoch: 'weft.epoch',
  /** A reader's control or button event (A2UI v0.9 client→server `action`), for agents. */
  action: 'weft.action',
  /** Someone asked to stop a run (POST …/runs/:runId/cancel); the agent ends it. */
  runCancel: 'weft.run.cancel',
  /** One observable activity entry (reported by an agent or recorded by the system). */
  activity: 'weft.activity',
  /** On a stream read as one run (`?as=run`): an event of a run on the draft, as it was (asOneRun). */
  runEvent: 'weft.run.event',
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

/** The ops of a version's events as they come off the bus (untyped): every STATE_DELTA's delta, in order. */
export function deltaOps(events: readonly unknown[]): Op[] {
  const ops: Op[] = [];
  for (const e of events) {
    if (typeof e !== 'object' || e === null || (e as { type?: unknown }).type !== 'STATE_DELTA') continue;
    const d = (e as { delta?: unknown }).delta;
    if (Array.isArray(d)) ops.push(...(d as Op[]));
  }
  return ops;
}

/** A committed step → its AG-UI events: STATE_DELTA, then CUSTOM repairs/refusals if any. */
export function stepEvents(step: StepLike): AgUiEvent[] {
  const meta: WeftEventMeta = { version: step.version, opId: step.opId, actor: step.actor, turnId: step.turnId };
  const out: AgUiEvent[] = [stateDelta(step.ops, meta, step.createdAt)];
  if (step.notes.length > 0) out.push(repairsEvent(step.notes, meta, step.createdAt));
  if (step.refused.length > 0) out.push(refusedEvent(step.refused, meta, step.createdAt));
  return out;
}

/**
 * The opening of a draft stream read as ONE open-ended AG-UI run (`GET …/stream?as=run`): the
 * thread is the draft. A client that holds AG-UI's run lifecycle (@ag-ui/client's verifyEvents:
 * the first event is RUN_STARTED, one run at a time, a message is started before it is written)
 * follows the draft's state with it from any moment; asOneRun keeps the rest of the stream inside it.
 */
export function followRunStarted(draftId: string, runId: string, now: number): RunStartedEvent {
  return { type: 'RUN_STARTED', threadId: draftId, runId, timestamp: now };
}

/**
 * A draft stream's events as events of the one run `followRunStarted` opened: the state and CUSTOM
 * events as they are; every other event (the lifecycle and messages of the runs on the draft, which
 * overlap and may have begun before the reader came) inside CUSTOM `weft.run.event`, unchanged.
 */
export function asOneRun(events: readonly AgUiEvent[]): AgUiEvent[] {
  return events.map((ev): AgUiEvent => (ev.type === 'STATE_SNAPSHOT' || ev.type === 'STATE_DELTA' || ev.type === 'CUSTOM'
    ? ev
    : { type: 'CUSTOM', name: CustomEventName.runEvent, value: ev as unknown as Json, ...(ev.timestamp === undefined ? {} : { timestamp: ev.timestamp }), ...(ev.metadata ? { metadata: ev.metadata } : {}) }));
}
