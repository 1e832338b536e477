// Kysely table types for migrations/src/*.ts (init, then each later migration's columns and tables).
// int8 columns are `string | number` on read: postgres.js returns strings, PGlite numbers.
// The repository layer converts them (see rows.ts); callers never see these types' quirks.
import type { ColumnType } from 'kysely';
import type { Json } from '@weft/core';

type Int8 = ColumnType<string | number, number | bigint | string, number | bigint | string>;
type Int8Default = ColumnType<string | number, number | bigint | string | undefined, number | bigint | string>;
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type StampNull = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb: always pass objects/arrays, never a JSON string (PLATFORM.md "Driver divergence"). */
type Jsonb<T = Json> = ColumnType<T, T, T>;
type JsonbDefault<T = Json> = ColumnType<T, T | undefined, T>;

export interface DraftsTable {
  id: string;
  title: ColumnType<string, string | undefined, string>;
  created_by: string;
  created_at: Stamp;
  head_version: Int8Default;
  epoch: ColumnType<number, number | undefined, number>;
  /** The lease (several session nodes): who owns the draft, where to reach it, the fencing token. */
  owner_node: ColumnType<string | null, string | null | undefined, string | null>;
  owner_url: ColumnType<string | null, string | null | undefined, string | null>;
  lease_epoch: Int8Default;
  lease_expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface EventsTable {
  draft_id: string;
  version: Int8;
  position: ColumnType<string | number, never, never>;
  /** xid8 comes back as a string on both drivers. */
  tx_id: ColumnType<string, never, never>;
  op_id: string;
  body_hash: string;
  actor: string;
  actor_kind: string;
  session_id: string | null;
  turn_id: string | null;
  ops: Jsonb; // a json column (migration 0008), read back whole
  inverse: Jsonb;
  notes: JsonbDefault;
  refused: JsonbDefault;
  y_update: Uint8Array | null;
  created_at: Stamp;
  kind: ColumnType<'do' | 'undo' | 'redo', 'do' | 'undo' | 'redo' | undefined, never>;
  undo_of: JsonbDefault;
}

export interface SnapshotsTable {
  draft_id: string;
  version: Int8;
  epoch: ColumnType<number, number | undefined, number>;
  doc: Jsonb;
  y_state: Uint8Array | null;
  reason: ColumnType<string, string | undefined, string>;
  created_at: Stamp;
}

export interface TokensTable {
  id: string;
  actor_id: string;
  actor_kind: 'human' | 'agent' | 'admin';
  name: ColumnType<string, string | undefined, string>;
  scopes: JsonbDefault<Record<string, string[]>>;
  created_at: Stamp;
  expires_at: StampNull;
  revoked_at: StampNull;
}

export interface SessionsTable {
  id: string;
  draft_id: string;
  actor_id: string;
  opened_at: Stamp;
  last_seen_at: Stamp;
  closed_at: StampNull;
}

export interface TurnsTable {
  id: string;
  draft_id: string;
  session_id: string | null;
  actor_id: string;
  started_at: Stamp;
  finished_at: StampNull;
  op_count: ColumnType<number, number | undefined, number>;
  summary: ColumnType<Json | null, Json | null | undefined, Json | null>;
}

export interface RunsTable {
  draft_id: string;
  id: string;
  actor: string;
  status: ColumnType<'running' | 'done' | 'failed' | 'cancelled', 'running' | undefined, 'running' | 'done' | 'failed' | 'cancelled'>;
  brief: string;
  scope: ColumnType<Json | null, Json | null | undefined, Json | null>;
  model: ColumnType<string | null, string | null | undefined, string | null>;
  started_at: Stamp;
  finished_at: StampNull;
  result: ColumnType<Json | null, Json | null | undefined, Json | null>;
  error: ColumnType<Json | null, Json | null | undefined, Json | null>;
  cancel_requested: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface RunEventsTable {
  draft_id: string;
  run_id: string;
  seq: number;
  event: Jsonb;
}

export interface WebhookEndpointsTable {
  id: string;
  url: string;
  secret: string;
  draft_id: string | null;
  event_types: Jsonb<string[]>;
  description: ColumnType<string, string | undefined, string>;
  created_at: Stamp;
  disabled_at: StampNull;
  disabled_reason: ColumnType<string | null, string | null | undefined, string | null>;
  previous_secret: ColumnType<string | null, string | null | undefined, string | null>;
  previous_secret_until: StampNull;
}

export interface WebhookDeliveriesTable {
  id: ColumnType<string | number, never, never>;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  draft_id: string;
  body: string;
  status: ColumnType<'pending' | 'delivered' | 'failed', 'pending' | 'delivered' | 'failed' | undefined, 'pending' | 'delivered' | 'failed'>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Stamp;
  last_attempt_at: StampNull;
  last_status: ColumnType<number | null, number | null | undefined, number | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  attempt_log: JsonbDefault<Json[]>;
  delivered_at: StampNull;
  created_at: Stamp;
}

export interface WebhookCursorTable {
  name: string;
  tx_id: ColumnType<string, string, string>;
  position: Int8;
}

/** Migration 000005: observable activity, the newest 120 per draft. */
export interface ActivityTable {
  draft_id: string;
  seq: ColumnType<string | number, never, never>;
  kind: string;
  status: string;
  label: string;
  detail: string | null;
  actor: string;
  at: Int8;
}

/** The outbox cursor (migration 0009): every version of the draft up to it was delivered to the bus. */
export interface OutboxCursorsTable {
  draft_id: string;
  published_version: Int8;
}

export interface DB {
  drafts: DraftsTable;
  events: EventsTable;
  snapshots: SnapshotsTable;
  tokens: TokensTable;
  sessions: SessionsTable;
  turns: TurnsTable;
  runs: RunsTable;
  run_events: RunEventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_cursor: WebhookCursorTable;
  activity: ActivityTable;
  outbox_cursors: OutboxCursorsTable;
}

