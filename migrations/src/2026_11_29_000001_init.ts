import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// The initial schema (RELIABILITY.md promises 2–4). Forward-only: never edit once shipped.
// One statement per `execute`, because PGlite's extended protocol rejects multi-statement text.
//
// Name choices: `events` holds one row per *step* (one opId's applied ops, atomic); `version` is
// gapless per draft (PK), `position` is a global insert order for the outbox relay, which must
// read below the xid8 horizon (`tx_id`) because identity values are assigned at insert, not commit.
const statements = [
  `CREATE TABLE drafts (
    id text PRIMARY KEY,
    title text NOT NULL DEFAULT '',
    created_by text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    head_version bigint NOT NULL DEFAULT 0,
    epoch int NOT NULL DEFAULT 0
  )`,
  `CREATE TABLE events (
    draft_id text NOT NULL REFERENCES drafts(id),
    version bigint NOT NULL,
    position bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
    op_id text NOT NULL,
    body_hash text NOT NULL,
    actor text NOT NULL,
    actor_kind text NOT NULL,
    session_id text,
    turn_id text,
    ops jsonb NOT NULL,
    inverse jsonb NOT NULL,
    notes jsonb NOT NULL DEFAULT '[]',
    refused jsonb NOT NULL DEFAULT '[]',
    y_update bytea,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (draft_id, version),
    UNIQUE (draft_id, op_id),
    CHECK (version > 0)
  )`,
  `CREATE INDEX events_turn_idx ON events (draft_id, turn_id) WHERE turn_id IS NOT NULL`,
  // The relay's cursor is (tx_id, position); xid8 has a btree opclass from PG13 on.
  `CREATE INDEX events_tx_position_idx ON events (tx_id, position)`,
  `CREATE TABLE snapshots (
    draft_id text NOT NULL REFERENCES drafts(id),
    version bigint NOT NULL,
    epoch int NOT NULL DEFAULT 0,
    doc jsonb NOT NULL,
    y_state bytea,
    reason text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (draft_id, version)
  )`,
  `CREATE TABLE tokens (
    id text PRIMARY KEY,
    actor_id text NOT NULL,
    actor_kind text NOT NULL CHECK (actor_kind IN ('human', 'agent', 'admin')),
    name text NOT NULL DEFAULT '',
    scopes jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz,
    revoked_at timestamptz
  )`,
  `CREATE TABLE sessions (
    id text PRIMARY KEY,
    draft_id text NOT NULL REFERENCES drafts(id),
    actor_id text NOT NULL,
    opened_at timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    closed_at timestamptz
  )`,
  `CREATE INDEX sessions_draft_idx ON sessions (draft_id) WHERE closed_at IS NULL`,
  `CREATE TABLE turns (
    id text PRIMARY KEY,
    draft_id text NOT NULL REFERENCES drafts(id),
    session_id text REFERENCES sessions(id),
    actor_id text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    op_count int NOT NULL DEFAULT 0,
    summary jsonb
  )`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of statements) await sql.raw(s).execute(db);
}
