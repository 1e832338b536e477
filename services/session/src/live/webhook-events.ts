// The webhook events the log cannot yield (ARCHITECTURE.md "Webhooks"): a turn that finished and a
// step refused whole write no version, so the session queues their deliveries itself, once, at the
// moment they happen (one INSERT … SELECT over the matching endpoints). Best effort like the turn
// audit: when the database is down at that moment the event is logged as lost. Committed versions
// and the refusals beside them are fanned out from the log by the dispatcher instead.
import { randomUUID } from 'node:crypto';
import { turnFinishedMessage, wholeRefusalMessage } from '@weft/protocol';
import type { WebhookMessage } from '@weft/protocol';
import type { Refusal } from '@weft/core';
import type { Logger } from '@weft/ops';
import type { WebhookStore } from '@weft/store';

export interface WebhookEvents {
  turnFinished(d: { draftId: string; turnId: string; actor: string; actorKind: string; version: number; summary: Record<string, number> }, at: number): void;
  refusedWhole(d: { draftId: string; opId: string; actor: string; actorKind: string; turnId: string | null; refused: Refusal[] }, at: number): void;
}

export function webhookEvents(store: WebhookStore, log: Logger): WebhookEvents {
  const queue = (m: WebhookMessage): void => {
    store.enqueue([m]).catch((e: unknown) => log.warn('webhook event lost (not queued)', { eventId: m.eventId, type: m.type, draftId: m.draftId, error: String(e) }));
  };
  return {
    turnFinished: (d, at) => queue(turnFinishedMessage(`evt_${d.draftId}_turn_${randomUUID()}`, { draftId: d.draftId, turnId: d.turnId, actor: { id: d.actor, kind: d.actorKind }, version: d.version, summary: d.summary }, new Date(at))),
    refusedWhole: (d, at) => queue(wholeRefusalMessage(`evt_${d.draftId}_refused_${randomUUID()}`, {
      draftId: d.draftId, opId: d.opId, actor: { id: d.actor, kind: d.actorKind }, turnId: d.turnId, refused: d.refused,
    }, new Date(at))),
  };
}
