// The postmaster SIGKILLed under concurrent queries and transactions. postgres.js 3.4.9 crashed
// the process here (a write to the null socket of a closed connection, porsager/postgres#1154)
// and lost reserve requests across reconnects (a query that never settles, a pool connection
// never seen again); patches/postgres+3.4.9.patch fixes both. This cluster is this file's own:
// the shared one is never killed.
import { startPostgres } from '@weft/testing';
import type { PostgresServer } from '@weft/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from './connect-postgres.ts';
import type { Connection } from './connect-postgres.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const POOL = 10;

/** Rejects with `what` if `p` has not settled in `ms` (a hang guard, not a timing assertion). */
function guard<T>(p: Promise<T>, ms: number, what: string | (() => string)): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  const fail = (): Error => new Error(typeof what === 'string' ? what : what());
  return Promise.race([p, new Promise<never>((_, rej) => { t = setTimeout(() => rej(fail()), ms); })]).finally(() => clearTimeout(t));
}

describe('connectPostgres when the postmaster is SIGKILLed', () => {
  let pg: PostgresServer;
  let conn: Connection;
  beforeAll(async () => {
    pg = await startPostgres({ fsync: false });
    conn = connectPostgres(pg.url, { max: POOL, connectTimeoutS: 2 });
    await sql`CREATE TABLE t (x int)`.execute(conn.db);
  });
  afterAll(async () => {
    await conn?.close();
    await pg?.destroy();
  });

  it('keeps the process up, settles every query, and gives back the whole pool', async () => {
    let stop = false;
    let ok = 0;
    const failures = new Map<string, number>();
    // Half the workers autocommit, half run transactions (kysely's rollback after a dead
    // connection is the path that wrote to the null socket).
    const workers = Array.from({ length: 16 }, async (_, w) => {
      while (!stop) {
        try {
          if (w % 2 === 0) await sql`INSERT INTO t VALUES (${w})`.execute(conn.db);
          else await conn.db.transaction().execute(async (tx) => { await sql`INSERT INTO t VALUES (${w})`.execute(tx); await sql`SELECT count(*) FROM t`.execute(tx); });
          ok++;
        } catch (e) {
          const code = (e as { code?: unknown }).code;
          failures.set(String(code ?? (e as Error).message), (failures.get(String(code ?? (e as Error).message)) ?? 0) + 1);
          await sleep(5);
        }
      }
    });
    for (let round = 0; round < 3; round++) {
      const before = ok;
      await guard((async () => { while (ok < before + 100) await sleep(10); })(), 30_000, `round ${round}: no progress before the kill`);
      await pg.kill();
      await sleep(500);
      await pg.start();
      const at = ok;
      await guard((async () => { while (ok < at + 100) await sleep(10); })(), 30_000, `round ${round}: queries did not resume after the restart`);
    }
    stop = true;
    await guard(Promise.all(workers), 20_000, 'a query never settled after the crashes');
    console.log(`[pg-kill] 3 postmaster kills: ${ok} queries ok, failures ${JSON.stringify(Object.fromEntries(failures))}`);
    // Every failure is a connection error, each a rejected promise (never a process crash).
    for (const code of failures.keys()) expect(['CONNECTION_CLOSED', 'ECONNREFUSED', 'ECONNRESET', 'CONNECT_TIMEOUT', '57P01', '57P03']).toContain(code);

    // The whole pool is usable again: POOL transactions open at once on POOL distinct backends
    // (a connection lost to a dropped reserve request would keep the barrier from ever filling).
    const pids = new Set<number>();
    let release: () => void = () => {};
    const barrier = new Promise<void>((r) => { release = r; });
    const held = Array.from({ length: POOL }, () => conn.db.transaction().execute(async (tx) => {
      const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(tx);
      pids.add(rows[0]!.pid);
      if (pids.size === POOL) release();
      await barrier;
    }));
    await guard(barrier, 20_000, () => `only ${pids.size} of ${POOL} pool connections are usable after the crashes`);
    await Promise.all(held);
    expect(pids.size).toBe(POOL);
  }, 180_000);
});
