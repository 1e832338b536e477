// Agent runs (a model-driven turn as one AG-UI run): what an agent reports to the session
// (`POST /v1/drafts/:id/runs/:runId/events`), checked here field by field, and what the session
// answers. The session keeps each run with its transcript (the events, the streaming deltas of
// one message or one step merged into one) and streams them on the draft's stream.
// The text rule alone (not the core index): the SDK bundles protocol, and core's index pulls in ajv.
import { storable } from '@weft/core/text';
import type { Json, Note, Refusal } from '@weft/core';
import { CustomEventName } from './agui.ts';
import type { AgUiEvent, RunOutcome } from './agui.ts';

export type RunStatus = 'running' | 'done' | 'failed' | 'cancelled';
export interface RunScope { sectionId: string; componentId?: string }

export interface RunView {
  runId: string;
  draftId: string;
  actor: string;
  status: RunStatus;
  brief: string;
  scope: RunScope | null;
  model: string | null;
  startedAt: string;
  finishedAt: string | null;
  result: Json | null;
  error: { code: string; message: string } | null;
  /** Someone asked to stop it (the agent ends it at its next report). */
  cancelRequested: boolean;
}
/** A run with its transcript (GET /runs, GET /runs/:runId). */
export interface RunWithEvents extends RunView { events: AgUiEvent[] }

export interface CreateRunRequest { runId: string; brief: string; scope?: RunScope | null; model?: string | null }
export interface ReportEventsResponse { seq: number; cancel: boolean; summary: Record<string, number> | null }

/** TOOL_CALL_RESULT `content` (JSON text): how each step the call held went. */
export interface StepOutcome {
  steps: {
    status: 'applied' | 'repaired' | 'refused' | 'unreadable' | 'over-budget' | 'not-written';
    held: boolean;
    repairs: Note[];
    refused: Refusal[];
    message?: string;
  }[];
}

/** CUSTOM `weft.ghost` value: the unvalidated outline of the step being written (never stored). */
export interface GhostValue {
  id: string;
  runId: string;
  actor: string;
  /** "a Card (pro)" */
  label: string;
  /** The component(s) read so far from the partial step, in the order written. */
  outline: { id: string | null; component: string | null; text: string | null; depth: number }[];
  /** Where it is going: the first op's path as far as written. */
  path: string | null;
  done?: boolean;
}

export const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,100}$/;
const EVENT_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,100}$/;
export const RunLimits = { eventsPerReport: 1000, textChars: 64 * 1024, briefChars: 4000 } as const;

export interface RunEventError { path: string; message: string }
type Kind = 'id' | 'text' | 'name' | 'json' | 'outcome' | 'role';
const FIELDS: Record<string, { need: Record<string, Kind>; may?: Record<string, Kind> }> = {
  TEXT_MESSAGE_START: { need: { messageId: 'id', role: 'role' } },
  TEXT_MESSAGE_CONTENT: { need: { messageId: 'id', delta: 'text' } },
  TEXT_MESSAGE_END: { need: { messageId: 'id' } },
  TOOL_CALL_START: { need: { toolCallId: 'id', toolCallName: 'name' }, may: { parentMessageId: 'id' } },
  TOOL_CALL_ARGS: { need: { toolCallId: 'id', delta: 'text' } },
  TOOL_CALL_END: { need: { toolCallId: 'id' } },
  TOOL_CALL_RESULT: { need: { messageId: 'id', toolCallId: 'id', content: 'text', role: 'role' } },
  STEP_STARTED: { need: { stepName: 'name' } },
  STEP_FINISHED: { need: { stepName: 'name' } },
  CUSTOM: { need: { name: 'name', value: 'json' } },
  RUN_FINISHED: { need: {}, may: { result: 'json', outcome: 'outcome' } },
  RUN_ERROR: { need: { message: 'text' }, may: { code: 'name' } },
};
/** CUSTOM events an agent may report: ghosts only (repairs and refusals come from the pipeline). */
const REPORTABLE_CUSTOM = new Set<string>([CustomEventName.ghost]);

/**
 * Reads `{ events: [...] }` as the agent sent it. Every problem is listed with its JSON Pointer;
 * nothing is kept from a report with a problem. RUN_FINISHED gets its threadId/runId from the
 * session, and `timestamp`/`metadata` are the session's to set.
 */
export function parseReportedEvents(body: unknown): { ok: true; value: AgUiEvent[] } | { ok: false; errors: RunEventError[] } {
  const errors: RunEventError[] = [];
  const list = isObject(body) ? body['events'] : undefined;
  if (!Array.isArray(list)) return { ok: false, errors: [{ path: '/events', message: 'expected { "events": [ AG-UI events ] }' }] };
  if (list.length > RunLimits.eventsPerReport) return { ok: false, errors: [{ path: '/events', message: `at most ${RunLimits.eventsPerReport} events per report` }] };
  const out: AgUiEvent[] = [];
  list.forEach((ev, i) => {
    const at = `/events/${i}`;
    if (!isObject(ev) || typeof ev['type'] !== 'string' || !Object.hasOwn(FIELDS, ev['type'])) {
      errors.push({ path: `${at}/type`, message: `expected one of ${Object.keys(FIELDS).join(', ')}` });
      return;
    }
    const type = ev['type'];
    const spec = FIELDS[type]!;
    const clean: Record<string, unknown> = { type };
    for (const k of Object.keys(ev)) {
      if (k === 'type') continue;
      const kind = Object.hasOwn(spec.need, k) ? spec.need[k] : spec.may && Object.hasOwn(spec.may, k) ? spec.may[k] : undefined;
      if (kind === undefined) { errors.push({ path: `${at}/${k}`, message: `unknown field of ${type}` }); continue; }
      const problem = check(kind, ev[k]);
      if (problem) errors.push({ path: `${at}/${k}`, message: problem });
      else clean[k] = ev[k];
    }
    for (const k of Object.keys(spec.need)) if (!Object.hasOwn(ev, k)) errors.push({ path: `${at}/${k}`, message: `${type} needs "${k}"` });
    if (type === 'CUSTOM' && typeof ev['name'] === 'string' && !REPORTABLE_CUSTOM.has(ev['name'])) errors.push({ path: `${at}/name`, message: `agents report CUSTOM ${[...REPORTABLE_CUSTOM].join(', ')} only` });
    if ((type === 'TEXT_MESSAGE_START' && ev['role'] !== 'assistant') || (type === 'TOOL_CALL_RESULT' && ev['role'] !== 'tool')) errors.push({ path: `${at}/role`, message: type === 'TEXT_MESSAGE_START' ? 'role must be "assistant"' : 'role must be "tool"' });
    out.push(clean as unknown as AgUiEvent);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: out };
}

function check(kind: Kind, v: unknown): string | null {
  switch (kind) {
    case 'id': return typeof v === 'string' && EVENT_ID.test(v) ? null : 'expected an id (letters, digits, _ . : -, at most 101)';
    case 'name': return typeof v === 'string' && v.length > 0 && v.length <= 200 && storable(v) ? null : 'expected a non-empty name of at most 200 characters';
    case 'role': return typeof v === 'string' ? null : 'expected a role';
    case 'text':
      if (typeof v !== 'string') return 'expected a string';
      if (v.length > RunLimits.textChars) return `longer than ${RunLimits.textChars} characters`;
      return storable(v) ? null : 'holds U+0000 or a lone UTF-16 surrogate; send well-formed Unicode';
    case 'outcome': return isObject(v) && (v['type'] === 'success' || v['type'] === 'cancelled') && Object.keys(v).length === 1 ? null : 'expected {"type":"success"} or {"type":"cancelled"}';
    case 'json': {
      let text: string;
      try { text = JSON.stringify(v); } catch { return 'not JSON'; }
      if (text === undefined) return 'expected a JSON value';
      if (text.length > RunLimits.textChars) return `larger than ${RunLimits.textChars} characters of JSON`;
      return allStorable(v) ? null : 'holds U+0000 or a lone UTF-16 surrogate';
    }
  }
}

/** Every string and key of a JSON value is one the log's jsonb can keep (JSON.stringify escapes them, jsonb refuses the escapes). */
function allStorable(v: unknown): boolean {
  if (typeof v === 'string') return storable(v);
  if (Array.isArray(v)) return v.every(allStorable);
  if (isObject(v)) return Object.entries(v).every(([k, x]) => storable(k) && allStorable(x));
  return true;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export type { RunOutcome };
