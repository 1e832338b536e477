import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect } from '@nats-io/transport-node';
import { createTestDatabase, natsUrl } from './database.ts';
import type { TestDatabase } from './database.ts';

describe('test harness', () => {
  let t: TestDatabase;
  beforeAll(async () => { t = await createTestDatabase(); });
  afterAll(async () => { await t.drop(); });

  it('runs queries on a real Postgres 15+ cloned from the migrated template', async () => {
    const { rows } = await sql<{ v: string }>`SELECT current_setting('server_version_num') AS v`.execute(t.db);
    expect(Number(rows[0]?.v)).toBeGreaterThanOrEqual(150000);
    await t.db.insertInto('drafts').values({ id: 'd1', title: 'Hello', created_by: 'u1' }).execute();
    const d = await t.db.selectFrom('drafts').selectAll().where('id', '=', 'd1').executeTakeFirstOrThrow();
    expect(d.title).toBe('Hello');
    expect(Number(d.head_version)).toBe(0);
  });

  it('keeps fsync on and sets idle_in_transaction_session_timeout', async () => {
    const { rows } = await sql<{ f: string; t: string }>`SELECT current_setting('fsync') AS f, current_setting('idle_in_transaction_session_timeout') AS t`.execute(t.db);
    expect(rows[0]?.t).not.toBe('0');
    expect(rows[0]?.f).toBe('on'); // durability tests rely on it
  });

  it('gives each test database its own data', async () => {
    const other = await createTestDatabase();
    try {
      expect(await other.db.selectFrom('drafts').selectAll().execute()).toEqual([]);
    } finally {
      await other.drop();
    }
  });

  it('round-trips a message through the real nats-server', async () => {
    const nc = await connect({ servers: natsUrl() });
    try {
      const sub = nc.subscribe('weft.harness.ping', { max: 1 });
      const got = (async () => { for await (const m of sub) return m.string(); return undefined; })();
      nc.publish('weft.harness.ping', 'pong');
      expect(await got).toBe('pong');
    } finally {
      await nc.close();
    }
  });
});
