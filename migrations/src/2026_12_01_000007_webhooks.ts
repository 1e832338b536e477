// Signed webhooks (Standard Webhooks, docs/api.md "Webhooks"): endpoints, a delivery log with one
// row per endpoint and event id, and the fan-out cursor over the log.
//
// - `webhook_endpoints.draft_id` NULL = every draft; a draft's own endpoints go with it. An
//   endpoint that answered 410 Gone is disabled (`disabled_at`): no new deliveries, none sent.
//   After a secret rotation the old secret also signs until `previous_secret_until`.
// - `webhook_deliveries` is the outbox and the log at once: UNIQUE (endpoint_id, event_id) makes
//   the fan-out idempotent across nodes and restarts; a sender claims a row by moving
//   `next_attempt_at` past its send timeout under FOR UPDATE SKIP LOCKED, so a crashed sender's
//   claim simply expires.
// - `webhook_cursor` ('events'): the (tx_id, position) up to which the log was turned into
//   deliveries; read below the xid8 horizon (init migration). Starts at this migration's
//   transaction: history from before webhooks existed is not delivered.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

const statements = [
  `CREATE TABLE webhook_endpoints (
    id text PRIMARY KEY,
    url text NOT NULL,
    secret text NOT NULL,
    draft_id text REFERENCES drafts(id) ON DELETE CASCADE,
    event_types jsonb NOT NULL,
    description text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    disabled_at timestamptz,
    disabled_reason text,
    previous_secret text,
    previous_secret_until timestamptz
  )`,
  `CREATE INDEX webhook_endpoints_draft_idx ON webhook_endpoints (draft_id)`,
  `CREATE TABLE webhook_deliveries (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    endpoint_id text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    event_id text NOT NULL,
    event_type text NOT NULL,
    draft_id text NOT NULL,
    body text NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts int NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_attempt_at timestamptz,
    last_status int,
    last_error text,
    attempt_log jsonb NOT NULL DEFAULT '[]',
    delivered_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (endpoint_id, event_id)
  )`,
  `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
  `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id)`,
  `CREATE TABLE webhook_cursor (
    name text PRIMARY KEY,
    tx_id xid8 NOT NULL,
    position bigint NOT NULL
  )`,
  `INSERT INTO webhook_cursor (name, tx_id, position) VALUES ('events', pg_current_xact_id(), 0)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of statements) await sql.raw(s).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only');
}
