// Webhook payloads (docs/api.md "Webhooks"): what an integrator's endpoint receives, signed per
// Standard Webhooks (https://www.standardwebhooks.com). The body is
// `{ "type", "timestamp", "data" }`; `data` is stable per type and only ever gains fields.
import type { Json, Note, Op, Refusal } from '@weft/core';

export const WebhookEventType = {
  /** A step was committed as a new version (HTTP, Yjs, MCP, undo/redo alike). */
  versionCommitted: 'draft.version.committed',
  /** An agent's turn finished (explicitly or when its session idled out). */
  turnFinished: 'draft.turn.finished',
  /** Ops were refused: beside a committed version (some applied) or the whole step (none applied). */
  stepRefused: 'draft.step.refused',
} as const;
export type WebhookEventType = (typeof WebhookEventType)[keyof typeof WebhookEventType];
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = Object.values(WebhookEventType);

export function isWebhookEventType(x: unknown): x is WebhookEventType {
  return typeof x === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(x);
}

export interface WebhookActor { id: string; kind: string }

/** `draft.version.committed`: the step as `GET /v1/drafts/:id/events` shows it. */
export interface VersionCommittedData {
  draftId: string;
  version: number;
  opId: string;
  actor: WebhookActor;
  sessionId: string | null;
  turnId: string | null;
  kind: 'do' | 'undo' | 'redo';
  /** The ops as applied (after repair); omitted (`opsOmitted: true`) past 16 KB — read them from the events route. */
  ops?: Op[];
  opsOmitted?: true;
  repairs: Note[];
  refusedCount: number;
  /** ISO 8601 (UTC), the commit's time. */
  committedAt: string;
}

export interface TurnFinishedData {
  draftId: string;
  turnId: string;
  actor: WebhookActor;
  /** The draft's version when the turn finished. */
  version: number;
  /** Counts of the turn: ops, steps, repairs, refused. */
  summary: Record<string, number>;
  finishedAt: string;
}

export interface StepRefusedData {
  draftId: string;
  /** The version written beside the refusals, or null when the whole step was refused. */
  version: number | null;
  opId: string;
  actor: WebhookActor;
  turnId: string | null;
  refused: Refusal[];
  at: string;
}

export interface WebhookDataByType {
  'draft.version.committed': VersionCommittedData;
  'draft.turn.finished': TurnFinishedData;
  'draft.step.refused': StepRefusedData;
}

export interface WebhookPayload<T extends WebhookEventType = WebhookEventType> {
  type: T;
  /** ISO 8601 (UTC): when the event happened (not when it was sent; that is `webhook-timestamp`). */
  timestamp: string;
  data: WebhookDataByType[T];
}

/**
 * One event ready for fan-out: its id (the `webhook-id`, the same for every endpoint and retry)
 * and body. Log events' ids derive from the row (`evt_<draft>_<version>_<position>_committed`),
 * so every fan-out of a step makes the same id; live events get a random one.
 */
export interface WebhookMessage {
  eventId: string;
  type: WebhookEventType;
  draftId: string;
  /** When it happened; endpoints created after this do not receive it. */
  at: Date;
  body: string;
}

/** Standard Webhooks recommends bodies under ~20 KB: larger ops are left out (read them from the log). */
const OPS_INLINE_MAX = 16 * 1024;

/** A logged step as the fan-out reads it (the store's row, minus what is not sent). */
export interface LoggedStepLike {
  /** The log row's global position: never reused, so a draft deleted and made again under its id gets new event ids. */
  position: number;
  draftId: string; version: number; opId: string; actor: string; actorKind: string;
  sessionId: string | null; turnId: string | null; kind: 'do' | 'undo' | 'redo';
  ops: Op[]; notes: Note[]; refused: Refusal[]; createdAt: Date;
}

/** The messages a committed step makes: always `draft.version.committed`, plus `draft.step.refused` when some ops were refused. */
export function stepMessages(s: LoggedStepLike): WebhookMessage[] {
  const at = s.createdAt.toISOString();
  const actor = { id: s.actor, kind: s.actorKind };
  const opsText = JSON.stringify(s.ops);
  const committed: VersionCommittedData = {
    draftId: s.draftId, version: s.version, opId: s.opId, actor, sessionId: s.sessionId, turnId: s.turnId, kind: s.kind,
    ...(opsText.length <= OPS_INLINE_MAX ? { ops: s.ops } : { opsOmitted: true as const }),
    repairs: s.notes, refusedCount: s.refused.length, committedAt: at,
  };
  const key = `${s.draftId}_${s.version}_${s.position}`;
  const out = [message(`evt_${key}_committed`, WebhookEventType.versionCommitted, s.draftId, s.createdAt, committed)];
  if (s.refused.length > 0) {
    const refused: StepRefusedData = { draftId: s.draftId, version: s.version, opId: s.opId, actor, turnId: s.turnId, refused: s.refused, at };
    out.push(message(`evt_${key}_refused`, WebhookEventType.stepRefused, s.draftId, s.createdAt, refused));
  }
  return out;
}

/** A step refused whole (no version): `eventId` is the caller's (unique per refusal). */
export function wholeRefusalMessage(eventId: string, d: Omit<StepRefusedData, 'version' | 'at'>, at: Date): WebhookMessage {
  return message(eventId, WebhookEventType.stepRefused, d.draftId, at, { ...d, version: null, at: at.toISOString() });
}

/** A finished turn (a turn finishes once; `eventId` is the caller's, unique). */
export function turnFinishedMessage(eventId: string, d: Omit<TurnFinishedData, 'finishedAt'>, at: Date): WebhookMessage {
  return message(eventId, WebhookEventType.turnFinished, d.draftId, at, { ...d, finishedAt: at.toISOString() });
}

function message<T extends WebhookEventType>(eventId: string, type: T, draftId: string, at: Date, data: WebhookDataByType[T]): WebhookMessage {
  const payload: WebhookPayload<T> = { type, timestamp: at.toISOString(), data };
  return { eventId, type, draftId, at, body: JSON.stringify(payload as unknown as Json) };
}

// ---- the admin routes' bodies (docs/api.md "Webhooks") ----

export interface CreateWebhookRequest {
  url: string;
  /** Absent or null: every draft. */
  draftId?: string | null;
  /** Default: every type. */
  eventTypes?: WebhookEventType[];
  description?: string;
}
export interface WebhookEndpointView {
  id: string;
  url: string;
  draftId: string | null;
  eventTypes: WebhookEventType[];
  description: string;
  createdAt: string;
  /** Set when the receiver answered 410 Gone: nothing is queued or sent until `POST /v1/webhooks/:id/enable`. */
  disabledAt: string | null;
  disabledReason: string | null;
  /** After `POST /v1/webhooks/:id/rotate`: until when the previous secret also signs. */
  previousSecretUntil: string | null;
}
/** The signing secret is in this answer only (create and rotate). */
export interface CreateWebhookResponse { endpoint: WebhookEndpointView; secret: string }

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';
export interface WebhookAttemptView { attempt: number; at: string; ms: number; status?: number; error?: string }
export interface WebhookDeliveryView {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  draftId: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  /** The newest 20 attempts. */
  attemptLog: WebhookAttemptView[];
}
export interface WebhookDeliveriesResponse { deliveries: WebhookDeliveryView[]; next: string | null }
