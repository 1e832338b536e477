// PGlite through our own Kysely dialect (PLATFORM.md "PGlite"): Kysely's Postgres adapter,
// introspector and compiler, plus a driver handing out ONE connection through a promise queue,
// since PGlite is a single session. Inside db.transaction() use only `tx`, or it deadlocks.
import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';
import { migrateToLatest } from '@weft/migrations';
import type { DB } from './schema.ts';
import type { Connection } from './connect-postgres.ts';

class PGliteConnection implements DatabaseConnection {
  readonly #pg: PGlite;
  constructor(pg: PGlite) { this.#pg = pg; }
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const r = await this.#pg.query<R>(q.sql, [...q.parameters]);
    return { rows: r.rows, ...(r.affectedRows !== undefined ? { numAffectedRows: BigInt(r.affectedRows) } : {}) };
  }
  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect: streaming is not supported');
  }
}

class PGliteDriver implements Driver {
  readonly #pg: PGlite;
  readonly #conn: PGliteConnection;
  #tail: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;
  constructor(pg: PGlite) { this.#pg = pg; this.#conn = new PGliteConnection(pg); }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const prev = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((r) => { release = r; });
    await prev;
    this.#release = release;
    return this.#conn;
  }
  async beginTransaction(c: DatabaseConnection): Promise<void> { await c.executeQuery(CompiledQuery.raw('begin')); }
  async commitTransaction(c: DatabaseConnection): Promise<void> { await c.executeQuery(CompiledQuery.raw('commit')); }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> { await c.executeQuery(CompiledQuery.raw('rollback')); }
  async releaseConnection(): Promise<void> {
    const r = this.#release;
    this.#release = undefined;
    r?.();
  }
  async destroy(): Promise<void> { await this.#pg.close(); }
}

function pgliteDialect(pg: PGlite): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PGliteDriver(pg),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

/** Opens (or creates) a PGlite database, in memory when dataDir is undefined, migrated to latest. */
export async function openPGlite(dataDir: string | undefined): Promise<Connection> {
  const pg = await PGlite.create(dataDir);
  const db = new Kysely<DB>({ dialect: pgliteDialect(pg) });
  try {
    await migrateToLatest(db);
  } catch (e) {
    await db.destroy();
    throw e;
  }
  return { db, close: () => db.destroy() };
}
