// A step's ops as `json` (the text as appended), not `jsonb`: the log is read back whole and never
// queried inside, and replay renders pages of ops as text (shared/store/src/replay/ops-page.ts),
// which for jsonb meant re-serialising every row (about half of Postgres's time per page, and
// longer text with spaces for the reader to parse). Rewrites the table once.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE events ALTER COLUMN ops TYPE json USING ops::json`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only');
}
