// Agent runs (issue 17): a model-driven turn as one AG-UI run, kept with its transcript so the
// Build chat shows it after a reload or a restart. `run_events` holds the run's events in order,
// the streaming deltas of one message or one step merged into one event (partial step text is
// never stored: a step's args are written only once the step is complete). A run belongs to its
// draft (deleted with it); its id is the turn id of its steps in `events`.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

const statements = [
  `CREATE TABLE runs (
    draft_id text NOT NULL REFERENCES drafts(id),
    id text NOT NULL,
    actor text NOT NULL,
    status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed', 'cancelled')),
    brief text NOT NULL,
    scope jsonb,
    model text,
    started_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    result jsonb,
    error jsonb,
    cancel_requested boolean NOT NULL DEFAULT false,
    PRIMARY KEY (draft_id, id)
  )`,
  `CREATE INDEX runs_draft_started_idx ON runs (draft_id, started_at DESC)`,
  `CREATE INDEX runs_running_idx ON runs (status) WHERE status = 'running'`,
  `CREATE TABLE run_events (
    draft_id text NOT NULL,
    run_id text NOT NULL,
    seq int NOT NULL,
    event jsonb NOT NULL,
    PRIMARY KEY (draft_id, run_id, seq),
    FOREIGN KEY (draft_id, run_id) REFERENCES runs(draft_id, id)
  )`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of statements) await sql.raw(s).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only');
}
