// The bus port: notifications that a draft moved to a new version (ARCHITECTURE.md §5, RELIABILITY.md
// promise 5). Never the store: a lost or duplicated message is repaired by the consumer from Postgres.

/** One committed version of a draft, as AG-UI events (shapes owned by shared/protocol). */
export interface BusMessage {
  draftId: string;
  /** The committed version; for a transient message, the head when it was sent. */
  version: number;
  events: unknown[];
  /**
   * Events that are not a version (a step refused whole, a finished turn, a reader action): sent
   * once, never refilled from the log, and never counted as the version they carry.
   */
  transient?: true;
}

export interface DeliveryMeta {
  /** This subscription already saw this draft at this version or later (redelivery, replay). */
  duplicate: boolean;
}

export type BusHandler = (msg: BusMessage, meta: DeliveryMeta) => void | Promise<void>;
export type SubscribePattern = 'all' | { draftId: string };

export interface Subscription {
  unsubscribe(): void;
}

export interface BusStats {
  published: number;
  /** Notifications dropped because the bus was down; consumers refill them from the store. */
  dropped: number;
  delivered: number;
  /** Received messages that were not a BusMessage (ignored). */
  malformed: number;
}

export interface Bus {
  /**
   * Never throws for a down bus: the notification is dropped, counted, and `false` is returned
   * (the relay publishes it again from the log). `true`: handed to the connection. Rejects a bad
   * draft id.
   */
  publish(draftId: string, msg: BusMessage): Promise<boolean>;
  subscribe(pattern: SubscribePattern, handler: BusHandler): Subscription;
  /** Called after the bus comes back from a disconnect: consumers catch up from the store. */
  onReconnect(listener: () => void): () => void;
  /** Resolves when what was published and subscribed so far reached the server (or the handlers). */
  flush(): Promise<void>;
  close(): Promise<void>;
  readonly connected: boolean;
  readonly stats: Readonly<BusStats>;
}

/** Draft ids are safe subject tokens: [a-z0-9-] only. */
export const DRAFT_ID = /^[a-z0-9-]{1,64}$/;

export function draftSubject(draftId: string): string {
  assertDraftId(draftId);
  return `weft.draft.${draftId}.events`;
}
export const ALL_DRAFTS_SUBJECT = 'weft.draft.*.events';

/** The NATS de-duplication id of a version. */
export const msgId = (draftId: string, version: number): string => `${draftId}:${version}`;

export function assertDraftId(draftId: string): void {
  if (!DRAFT_ID.test(draftId)) throw new TypeError(`not a draft id (a-z, 0-9, -): ${JSON.stringify(draftId)}`);
}

export function checkMessage(draftId: string, msg: BusMessage): void {
  assertDraftId(draftId);
  if (msg.draftId !== draftId) throw new TypeError(`message for ${msg.draftId} published as ${draftId}`);
  if (!Number.isSafeInteger(msg.version) || msg.version < 1) throw new TypeError(`bad version ${msg.version}`);
  if (!Array.isArray(msg.events)) throw new TypeError('events must be an array');
  if (msg.transient !== undefined && msg.transient !== true) throw new TypeError('transient must be true or absent');
}

export function isBusMessage(v: unknown): v is BusMessage {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  return typeof m['draftId'] === 'string' && DRAFT_ID.test(m['draftId']) && Number.isSafeInteger(m['version'])
    && (m['version'] as number) >= 1 && Array.isArray(m['events']) && (m['transient'] === undefined || m['transient'] === true);
}

/** Per-subscription duplicate flag: the highest version seen per draft. */
export function duplicateTracker(): (msg: BusMessage) => boolean {
  const seen = new Map<string, number>();
  return (msg) => {
    if (msg.transient) return false;
    const last = seen.get(msg.draftId) ?? 0;
    if (msg.version <= last) return true;
    seen.set(msg.draftId, msg.version);
    return false;
  };
}
