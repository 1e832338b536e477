// The fault-test handles: a crashed Postgres keeps every committed row (fsync on), and a killed
// nats-server comes back at the same URL.
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect } from '@nats-io/transport-node';
import { connectPostgres } from '@weft/store';
import { startPostgres } from './postgres.ts';
import { startNats } from './nats.ts';

describe('startPostgres', () => {
  it('survives an immediate (crash) stop with committed data, on the same port', async () => {
    const pg = await startPostgres();
    try {
      let c = connectPostgres(pg.url, { max: 1 });
      await sql`CREATE TABLE t (x int)`.execute(c.db);
      await sql`INSERT INTO t SELECT generate_series(1, 100)`.execute(c.db);
      await c.close();
      const pid = pg.pid;
      expect(pid).toBeGreaterThan(0);
      await pg.stop('immediate');
      expect(pg.pid).toBe(0);
      await pg.start();
      expect(pg.pid).not.toBe(pid);
      c = connectPostgres(pg.url, { max: 1 });
      const r = await sql<{ n: string }>`SELECT count(*) AS n FROM t`.execute(c.db);
      expect(Number(r.rows[0]?.n)).toBe(100);
      await c.close();
    } finally {
      await pg.destroy();
    }
  });
});

describe('startNats', () => {
  it('restarts at the same URL after a kill', async () => {
    const nats = await startNats();
    try {
      const url = nats.url;
      await nats.kill('SIGKILL');
      await nats.restart();
      expect(nats.url).toBe(url);
      const nc = await connect({ servers: url });
      const sub = nc.subscribe('x', { max: 1 });
      const got = (async () => { for await (const m of sub) return m.string(); return undefined; })();
      nc.publish('x', 'back');
      expect(await got).toBe('back');
      await nc.close();
    } finally {
      await nats.destroy();
    }
  });
});
