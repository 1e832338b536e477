// Real Postgres through postgres.js + kysely-postgres-js (PLATFORM.md pins).
import { Kysely } from 'kysely';
import { PostgresJSDialect } from 'kysely-postgres-js';
import postgres from 'postgres';
import type { DB } from './schema.ts';

export interface ConnectOptions {
  /** Pool size, default 10. */
  max?: number;
  /** Kills a connection left idle inside a transaction (RELIABILITY.md promise 4), default 60 s. */
  idleInTransactionTimeoutMs?: number;
  /** Seconds to wait for a connection before a query fails (a down database answers fast), default 5. */
  connectTimeoutS?: number;
}

export interface Connection {
  db: Kysely<DB>;
  close(): Promise<void>;
}

export function connectPostgres(url: string, opts: ConnectOptions = {}): Connection {
  const pg = postgres(url, {
    max: opts.max ?? 10,
    onnotice: () => {},
    connect_timeout: opts.connectTimeoutS ?? 5,
    connection: { idle_in_transaction_session_timeout: opts.idleInTransactionTimeoutMs ?? 60_000 },
  });
  const db = new Kysely<DB>({ dialect: new PostgresJSDialect({ postgres: pg }) });
  return { db, close: () => db.destroy() };
}
