// PGlite through our own Kysely dialect (PLATFORM.md "PGlite"): Kysely's Postgres adapter,
// introspector and compiler, plus a driver handing out ONE connection through a promise queue,
// since PGlite is a single session. Inside db.transaction() use only `tx`, or it deadlocks.
import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';
import { migrateToLatest } from '@weft/migrations';
import type { DB } from './schema.ts';
import type { Connection } from './connect-postgres.ts';
import { checkIntegrity } from './integrity.ts';
import { lockDataDir } from './data-dir-lock.ts';

/**
 * The embedded database directory cannot be used as it is: names the directory and what to do.
 */
export class DamagedDataDir extends Error {
  readonly dataDir: string;
  constructor(dataDir: string, what: string) {
    super(`The embedded database in ${dataDir} is damaged: ${what}. Weft stopped before serving anything. `
      + `To keep its data, restore that directory from a backup; to start over, move it aside (mv ${dataDir} ${dataDir}.damaged) and start again, `
      + 'or point WEFT_DATA_DIR at another directory. With DATABASE_URL Weft uses a Postgres server instead.');
    this.name = 'DamagedDataDir';
    this.dataDir = dataDir;
  }
}

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

/**
 * Opens (or creates) a PGlite database, in memory when dataDir is undefined, migrated to latest
 * and checked whole (`checkIntegrity`). A directory PGlite cannot open (a truncated WAL aborts
 * its wasm runtime) or whose log has holes throws `DamagedDataDir`.
 */
export async function openPGlite(dataDir: string | undefined): Promise<Connection> {
  const where = dataDir ?? '(memory)';
  // Before anything touches the files: a second process on the same directory is refused (DataDirInUse).
  const unlock = dataDir === undefined ? () => {} : lockDataDir(dataDir);
  let pg: PGlite;
  try {
    pg = await PGlite.create(dataDir);
  } catch (e) {
    unlock();
    throw new DamagedDataDir(where, `PGlite could not open it (${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}); its files are damaged or were written by another PGlite version`);
  }
  const db = new Kysely<DB>({ dialect: pgliteDialect(pg) });
  try {
    await migrateToLatest(db);
    let faults;
    try {
      faults = await checkIntegrity(db);
    } catch (e) {
      throw new DamagedDataDir(where, `reading the event log failed (${e instanceof Error ? e.message : String(e)})`);
    }
    if (faults.length > 0) {
      const list = faults.map((f) => `draft "${f.draftId}": head version ${f.headVersion ?? 'missing'}, ${f.events} events up to version ${f.maxVersion}`).join('; ');
      throw new DamagedDataDir(where, `the event log has lost rows (${list})`);
    }
  } catch (e) {
    await db.destroy().catch(() => {});
    unlock();
    throw e;
  }
  return { db, close: () => db.destroy().finally(unlock) };
}
