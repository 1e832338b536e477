// Rows handed over as Postgres sends them (postgres.js `forEach`), for the replay's one streamed
// query (ops-pages.ts). Kysely's own streaming is a cursor: one round trip per chunk, with Postgres
// idle while the client takes each one. Registered per Kysely instance by connectPostgres; a
// database without it (PGlite) has none, and replay reads page by page instead.
import type { Kysely } from 'kysely';

export interface RowStream {
  /** Calls `onRow` for each row as it arrives; resolves when the query ends. */
  done: Promise<void>;
  /** Stops the query (the consumer has what it needs, or gave up). */
  cancel(): void;
}
export type StreamRows = (text: string, params: readonly unknown[], onRow: (row: Record<string, unknown>) => void) => RowStream;

const streams = new WeakMap<Kysely<never>, StreamRows>();

export function registerRowStream(db: Kysely<never>, stream: StreamRows): void {
  streams.set(db, stream);
}

export function rowStreamOf(db: Kysely<never>): StreamRows | undefined {
  return streams.get(db);
}
