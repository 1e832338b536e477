// Webhook endpoints and their delivery log (migrations/src/2026_12_01_000007_webhooks.ts). The
// delivery rows are the outbox too: one per (endpoint, event id), inserted by whoever turns an
// event into deliveries (ON CONFLICT DO NOTHING, so several nodes and restarts insert it once),
// claimed by a sender under FOR UPDATE SKIP LOCKED.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Json } from '@weft/core';
import type { LoggedStepLike, WebhookAttemptView, WebhookDeliveryStatus, WebhookEventType, WebhookMessage } from '@weft/protocol';
import { stepMessages } from '@weft/protocol';
import type { DB, WebhookDeliveriesTable, WebhookEndpointsTable } from './schema.ts';
import { int } from './rows.ts';

export type DeliveryStatus = WebhookDeliveryStatus;

export interface WebhookEndpoint {
  id: string;
  url: string;
  /** null: every draft. */
  draftId: string | null;
  eventTypes: WebhookEventType[];
  description: string;
  createdAt: Date;
  /** Set when the receiver answered 410 Gone (Standard Webhooks: stop sending); cleared by `enableEndpoint`. */
  disabledAt: Date | null;
  disabledReason: string | null;
  /** After a rotation: until when the previous secret also signs. */
  previousSecretUntil: Date | null;
}

/** One attempt as the delivery log keeps it (the newest 20 per delivery): the wire's shape. */
export type DeliveryAttempt = WebhookAttemptView;

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  draftId: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
  attemptLog: DeliveryAttempt[];
}

/** A delivery a sender claimed: everything needed to send it, the secret included. */
export interface ClaimedDelivery {
  id: string;
  /** This claim's attempt number; the result is recorded only if no later claim took the row. */
  attempt: number;
  eventId: string;
  body: string;
  endpointId: string;
  url: string;
  /** Every secret that signs now: the current one, and the previous one during a rotation's overlap. */
  secrets: string[];
}

/** What one attempt came to: delivered, retry after `retryInS`, or failed for good. */
export type AttemptOutcome =
  | { result: 'delivered'; status: number; ms: number }
  | { result: 'retry'; retryInS: number; status?: number; error?: string; ms: number }
  | { result: 'failed'; status?: number; error?: string; ms: number };

const ATTEMPT_LOG_MAX = 20;

const toEndpoint = (r: Selectable<WebhookEndpointsTable>): WebhookEndpoint => ({
  id: r.id, url: r.url, draftId: r.draft_id, eventTypes: r.event_types as WebhookEventType[], description: r.description, createdAt: r.created_at,
  disabledAt: r.disabled_at, disabledReason: r.disabled_reason,
  previousSecretUntil: r.previous_secret_until !== null && r.previous_secret_until.getTime() > Date.now() ? r.previous_secret_until : null,
});

const toDelivery = (r: Selectable<WebhookDeliveriesTable>): WebhookDelivery => ({
  id: String(r.id), endpointId: r.endpoint_id, eventId: r.event_id, eventType: r.event_type, draftId: r.draft_id, status: r.status,
  attempts: r.attempts, nextAttemptAt: r.status === 'pending' ? r.next_attempt_at : null, lastAttemptAt: r.last_attempt_at,
  lastStatus: r.last_status, lastError: r.last_error, deliveredAt: r.delivered_at, createdAt: r.created_at,
  attemptLog: r.attempt_log as unknown as DeliveryAttempt[],
});

/** `whsec_` + base64 of 24 random bytes (Standard Webhooks: at least 24). */
const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** Delivery ids are int8 on the wire as strings; anything else names no delivery. */
const DELIVERY_ID = /^[1-9][0-9]{0,17}$/;

export class WebhookStore {
  readonly db: Kysely<DB>;
  constructor(db: Kysely<DB>) { this.db = db; }

  /** Is the database answering? (readiness) */
  async ping(): Promise<void> { await sql`select 1`.execute(this.db); }

  /** The signing secret is returned here only (`whsec_` + base64 of 24 random bytes). */
  async createEndpoint(e: { url: string; draftId: string | null; eventTypes: readonly WebhookEventType[]; description?: string }): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const id = `wh_${randomBytes(12).toString('base64url')}`;
    const secret = newSecret();
    const row = await this.db.insertInto('webhook_endpoints').values({
      id, url: e.url, secret, draft_id: e.draftId, event_types: [...e.eventTypes], description: e.description ?? '',
    }).returningAll().executeTakeFirstOrThrow();
    return { endpoint: toEndpoint(row), secret };
  }

  async listEndpoints(opts: { draftId?: string } = {}): Promise<WebhookEndpoint[]> {
    let q = this.db.selectFrom('webhook_endpoints').selectAll();
    if (opts.draftId !== undefined) q = q.where('draft_id', '=', opts.draftId);
    return (await q.orderBy('created_at').orderBy('id').execute()).map(toEndpoint);
  }

  async getEndpoint(id: string): Promise<WebhookEndpoint | null> {
    const row = await this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : toEndpoint(row);
  }

  /**
   * A new secret, returned here only; the old one keeps signing (both signatures in
   * webhook-signature) for `overlapS`, so receivers switch without a gap. null: no such endpoint.
   */
  async rotateSecret(id: string, overlapS: number): Promise<{ endpoint: WebhookEndpoint; secret: string } | null> {
    const secret = newSecret();
    const row = await this.db.updateTable('webhook_endpoints')
      .set((eb) => ({ previous_secret: eb.ref('secret'), previous_secret_until: sql<Date>`now() + make_interval(secs => ${overlapS})`, secret }))
      .where('id', '=', id).returningAll().executeTakeFirst();
    return row === undefined ? null : { endpoint: toEndpoint(row), secret };
  }

  /** Stops deliveries to it (fan-out and sends) until enabled again; false when there was none. */
  async disableEndpoint(id: string, reason: string): Promise<boolean> {
    const r = await this.db.updateTable('webhook_endpoints').set({ disabled_at: sql<Date>`now()`, disabled_reason: reason.slice(0, 500) })
      .where('id', '=', id).where('disabled_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Sends again: its pending deliveries are due now. null when there is no such endpoint. */
  async enableEndpoint(id: string): Promise<WebhookEndpoint | null> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx.updateTable('webhook_endpoints').set({ disabled_at: null, disabled_reason: null }).where('id', '=', id).returningAll().executeTakeFirst();
      if (row === undefined) return null;
      await tx.updateTable('webhook_deliveries').set({ next_attempt_at: sql<Date>`now()` }).where('endpoint_id', '=', id).where('status', '=', 'pending').execute();
      return toEndpoint(row);
    });
  }

  /** Deletes the endpoint and its delivery log; false when there was none. */
  async deleteEndpoint(id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Newest first; `before` pages on (a delivery id). */
  async listDeliveries(opts: { endpointId?: string; status?: DeliveryStatus; before?: string; limit?: number } = {}): Promise<WebhookDelivery[]> {
    let q = this.db.selectFrom('webhook_deliveries').selectAll();
    if (opts.endpointId !== undefined) q = q.where('endpoint_id', '=', opts.endpointId);
    if (opts.status !== undefined) q = q.where('status', '=', opts.status);
    if (opts.before !== undefined) {
      if (!DELIVERY_ID.test(opts.before)) return [];
      q = q.where('id', '<', opts.before as never);
    }
    return (await q.orderBy('id', 'desc').limit(opts.limit ?? 100).execute()).map(toDelivery);
  }

  async getDelivery(id: string): Promise<WebhookDelivery | null> {
    if (!DELIVERY_ID.test(id)) return null;
    const row = await this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id as never).executeTakeFirst();
    return row === undefined ? null : toDelivery(row);
  }

  /** Sends it again from now on a fresh schedule (a failed one, or a delivered one on request). */
  async retryDelivery(id: string): Promise<WebhookDelivery | null> {
    if (!DELIVERY_ID.test(id)) return null;
    const row = await this.db.updateTable('webhook_deliveries')
      .set({ status: 'pending', attempts: 0, next_attempt_at: sql<Date>`now()`, delivered_at: null })
      .where('id', '=', id as never).returningAll().executeTakeFirst();
    return row === undefined ? null : toDelivery(row);
  }

  /** Live events (a turn finished, a step refused whole): one delivery per matching endpoint; the count inserted. */
  enqueue(messages: readonly WebhookMessage[]): Promise<number> {
    return insertDeliveries(this.db, messages, false);
  }

  /**
   * Turns the log's next steps into deliveries and moves the cursor past them, in one transaction.
   * Reads only below the xid8 horizon, so a step committed later can never sort before the cursor.
   * null: another node holds the cursor right now (it does the work).
   */
  async fanOutLog(limit = 200): Promise<{ steps: number; deliveries: number } | null> {
    return this.db.transaction().execute(async (tx) => {
      const { rows: [found] } = await sql<{ tx_id: string; position: string | number; ahead: boolean }>`
        SELECT tx_id::text AS tx_id, position, tx_id > pg_current_xact_id() AS ahead FROM webhook_cursor WHERE name = 'events' FOR UPDATE SKIP LOCKED`.execute(tx);
      if (found === undefined) return null;
      // A cursor ahead of the cluster's transaction counter means the database was restored into
      // another cluster (pg_dump): start over from the beginning; the unique delivery rows and the
      // endpoints' creation times keep that from sending anything twice or from before its time.
      const cur = found.ahead ? { tx_id: '0', position: 0 } : found;
      const { rows } = await sql<StepRow>`
        SELECT draft_id, version, position, tx_id::text AS tx_id, op_id, actor, actor_kind, session_id, turn_id, kind, ops, notes, refused, created_at
        FROM events
        WHERE (tx_id, position) > (${cur.tx_id}::xid8, ${cur.position})
          AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY tx_id, position LIMIT ${limit}`.execute(tx);
      const last = rows.at(-1);
      if (last === undefined) return { steps: 0, deliveries: 0 };
      const messages = rows.flatMap((r) => stepMessages(toLogged(r)));
      const deliveries = await insertDeliveries(tx, messages, true);
      await sql`UPDATE webhook_cursor SET tx_id = ${last.tx_id}::xid8, position = ${last.position} WHERE name = 'events'`.execute(tx);
      return { steps: rows.length, deliveries };
    });
  }

  /**
   * Claims up to `limit` due deliveries: each one's attempt count goes up and its next attempt moves
   * `leaseS` ahead, so if this sender dies the row is due again then (at-least-once).
   */
  async claimDue(limit: number, leaseS: number): Promise<ClaimedDelivery[]> {
    const { rows } = await sql<{ id: string | number; attempts: number; event_id: string; body: string; endpoint_id: string; url: string; secret: string; previous_secret: string | null }>`
      UPDATE webhook_deliveries d
      SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseS})
      FROM (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
              AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE disabled_at IS NULL)
            ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED) c, webhook_endpoints e
      WHERE d.id = c.id AND e.id = d.endpoint_id
      RETURNING d.id, d.attempts, d.event_id, d.body, d.endpoint_id, e.url, e.secret,
        CASE WHEN e.previous_secret_until > now() THEN e.previous_secret END AS previous_secret`.execute(this.db);
    return rows.map((r) => ({ id: String(r.id), attempt: r.attempts, eventId: r.event_id, body: r.body, endpointId: r.endpoint_id, url: r.url, secrets: r.previous_secret ? [r.secret, r.previous_secret] : [r.secret] }));
  }

  /**
   * Records attempts' outcomes in one statement (the dispatcher batches them); returns the ids
   * recorded. A row a later claim (or a manual retry) took meanwhile is left as it is.
   */
  async recordAttempts(results: readonly { claim: Pick<ClaimedDelivery, 'id' | 'attempt'>; outcome: AttemptOutcome }[]): Promise<Set<string>> {
    if (results.length === 0) return new Set();
    const at = new Date().toISOString();
    const rows = results.map(({ claim: c, outcome: o }) => {
      const error = 'error' in o && o.error !== undefined ? o.error.slice(0, 500) : null;
      const entry: DeliveryAttempt = { attempt: c.attempt, at, ms: Math.round(o.ms), ...(o.status !== undefined ? { status: o.status } : {}), ...(error !== null ? { error } : {}) };
      return {
        id: c.id, attempt: c.attempt, status: o.result === 'retry' ? 'pending' : o.result, retry_in_s: o.result === 'retry' ? o.retryInS : 0,
        last_status: o.status ?? null, last_error: error, entry,
      };
    });
    const { rows: done } = await sql<{ id: string | number }>`
      UPDATE webhook_deliveries d SET
        status = m.status,
        next_attempt_at = CASE WHEN m.status = 'pending' THEN now() + make_interval(secs => m.retry_in_s) ELSE d.next_attempt_at END,
        last_attempt_at = now(), last_status = m.last_status, last_error = m.last_error,
        delivered_at = CASE WHEN m.status = 'delivered' THEN now() ELSE d.delivered_at END,
        attempt_log = (CASE WHEN jsonb_array_length(d.attempt_log) >= ${ATTEMPT_LOG_MAX} THEN d.attempt_log - 0 ELSE d.attempt_log END) || jsonb_build_array(m.entry)
      FROM jsonb_to_recordset(${rows as never}::jsonb) AS m(id bigint, attempt int, status text, retry_in_s float8, last_status int, last_error text, entry jsonb)
      WHERE d.id = m.id AND d.attempts = m.attempt AND d.status = 'pending'
      RETURNING d.id`.execute(this.db);
    return new Set(done.map((r) => String(r.id)));
  }

  /** Deliveries waiting to be sent (the backlog gauge; the partial index answers it). */
  async countPending(): Promise<number> {
    const row = await this.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<string | number>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow();
    return int(row.n);
  }

  /** Deletes up to `limit` delivered or failed rows created more than `days` ago; the count deleted. */
  async pruneDeliveries(days: number, limit: number): Promise<number> {
    const r = await sql`
      DELETE FROM webhook_deliveries WHERE id IN (
        SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND created_at < now() - make_interval(days => ${days}) ORDER BY id LIMIT ${limit})`.execute(this.db);
    return Number(r.numAffectedRows ?? 0);
  }
}

interface StepRow {
  draft_id: string; version: string | number; position: string | number; tx_id: string; op_id: string; actor: string; actor_kind: string;
  session_id: string | null; turn_id: string | null; kind: 'do' | 'undo' | 'redo'; ops: Json; notes: Json; refused: Json; created_at: Date;
}

const toLogged = (r: StepRow): LoggedStepLike => ({
  position: int(r.position), draftId: r.draft_id, version: int(r.version), opId: r.op_id, actor: r.actor, actorKind: r.actor_kind, sessionId: r.session_id,
  turnId: r.turn_id, kind: r.kind, ops: r.ops as never, notes: r.notes as never, refused: r.refused as never, createdAt: new Date(r.created_at),
});

/**
 * One delivery per (message, matching endpoint): an endpoint matches by draft (or all drafts) and
 * event type; with `since`, only endpoints created by the time the event happened get it (a new
 * endpoint does not receive the log's past).
 */
async function insertDeliveries(db: Kysely<DB> | Transaction<DB>, messages: readonly WebhookMessage[], since: boolean): Promise<number> {
  if (messages.length === 0) return 0;
  const rows = messages.map((m) => ({ event_id: m.eventId, type: m.type, draft_id: m.draftId, body: m.body, at: since ? m.at.toISOString() : null }));
  const r = await sql`
    INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, draft_id, body)
    SELECT e.id, m.event_id, m.type, m.draft_id, m.body
    FROM jsonb_to_recordset(${rows as never}::jsonb) AS m(event_id text, type text, draft_id text, body text, at timestamptz)
    JOIN webhook_endpoints e ON e.disabled_at IS NULL AND (e.draft_id IS NULL OR e.draft_id = m.draft_id)
      AND e.event_types @> to_jsonb(m.type) AND (m.at IS NULL OR e.created_at <= m.at)
    ON CONFLICT (endpoint_id, event_id) DO NOTHING`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
