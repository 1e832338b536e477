// Real Postgres through postgres.js + kysely-postgres-js (PLATFORM.md pins). postgres.js is
// patched (patches/postgres+3.4.9.patch): unpatched, a postmaster killed mid-query crashed the
// process and lost queries across reconnects (porsager/postgres#1154, #1208).
import { CompiledQuery, Kysely } from 'kysely';
import type { DatabaseConnection, Driver } from 'kysely';
import { PostgresJSDialect, PostgresJSDriver } from 'kysely-postgres-js';
import type { PostgresJSDialectConfig } from 'kysely-postgres-js';
import postgres from 'postgres';
import type { ReservedSql, Sql } from 'postgres';
import type { DB } from './schema.ts';
import { registerRowStream } from './replay/row-stream.ts';

export interface ConnectOptions {
  /** Pool size, default 10. */
  max?: number;
  /** Kills a connection left idle inside a transaction (RELIABILITY.md promise 4), default 60 s. */
  idleInTransactionTimeoutMs?: number;
  /** Seconds to wait for a connection before a query fails (a down database answers fast), default 5. */
  connectTimeoutS?: number;
  /**
   * Named prepared statements, cached per connection (default true). Without, postgres.js sends
   * every query with parameters twice: a describe to learn their types, then the execute after the
   * answer. False for a pooler in transaction mode that does not track them (PgBouncer < 1.21).
   */
  prepare?: boolean;
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
    // Reconnect soon (50 ms doubling to 1 s; postgres.js' default grows to 20 s): a query waits for
    // the next attempt, and a down database must answer a typed 503 fast, not hang the caller.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
    // jit off: every query here is short, and the JIT only ever kicked in on the replay's one
    // streamed query (its cost estimate crosses jit_above_cost), compiling it for 95–185 ms before
    // the first row — longer than the whole 100k-step replay takes without it.
    connection: { idle_in_transaction_session_timeout: opts.idleInTransactionTimeoutMs ?? 60_000, jit: 'off' },
  });
  const db = new Kysely<DB>({ dialect: new Dialect({ postgres: opts.prepare === false ? pg : preparing(pg) }) });
  registerRowStream(db as Kysely<never>, (text, params, onRow) => {
    const q = pg.unsafe(text, params as never[], { prepare: opts.prepare !== false });
    return { done: q.forEach((row) => onRow(row)).then(() => {}), cancel: () => { q.cancel(); } };
  });
  // A stopping process gives queries still in flight 1 s (postgres.js otherwise waits for them all:
  // a cluster node's SIGTERM hung 4.5 s here on one that never came back), then drops them.
  return { db, close: async () => { await pg.end({ timeout: 1 }); await db.destroy(); } };
}

/**
 * kysely-postgres-js runs every query through `unsafe(sql, params)`, which postgres.js does not
 * prepare: each one is parsed and described by Postgres before it can run, one more round trip
 * (most of a 1,000-draft run's socket writes). Its reserved connections here prepare instead; the
 * statements are cached per connection by their text and parameter types (postgres.js), and the
 * connections are recycled by postgres.js's max_lifetime.
 */
function preparing(pg: Sql): Sql {
  const prepared = (c: ReservedSql): ReservedSql => new Proxy(c, {
    get(target, key, receiver) {
      if (key !== 'unsafe') return Reflect.get(target, key, receiver) as unknown;
      return (query: string, args?: unknown[], options?: Record<string, unknown>) => target.unsafe(query, args as never, { prepare: true, ...options });
    },
  });
  return new Proxy(pg, {
    get(target, key, receiver) {
      if (key !== 'reserve') return Reflect.get(target, key, receiver) as unknown;
      return async () => prepared(await target.reserve());
    },
  });
}

/**
 * kysely-postgres-js 3 inherits Kysely 0.28's `rollbackTransaction`, which on a failed ROLLBACK
 * (a dead connection) calls a private method of Kysely's own pg connection and throws a TypeError
 * in place of the connection error. Ours rethrows the real error; postgres.js itself retires the
 * dead connection.
 */
class RollbackDriver extends PostgresJSDriver {
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
}

class Dialect extends PostgresJSDialect {
  readonly #config: PostgresJSDialectConfig;
  constructor(config: PostgresJSDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new RollbackDriver(this.#config);
  }
}
