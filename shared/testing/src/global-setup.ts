// vitest globalSetup for the `int` project (CONVENTIONS.md §11): real Postgres 15 and nats-server,
// reused from TEST_DATABASE_URL / TEST_NATS_URL when set, else started here and torn down after.
// Builds `weft_template` (migrated to latest) once; each test file clones it (database.ts).
import type { TestProject } from 'vitest/node';
import { sql } from 'kysely';
import { migrateToLatest } from '@weft/migrations';
import { connectPostgres } from '@weft/store';
import { startPostgres } from './postgres.ts';
import type { PostgresServer } from './postgres.ts';
import { startNats } from './nats.ts';
import type { NatsServer } from './nats.ts';
import { TEMPLATE_DB, withDatabase } from './provided.ts';
import './provided.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let pg: PostgresServer | undefined;
  let nats: NatsServer | undefined;
  try {
    const givenDb = process.env['TEST_DATABASE_URL'];
    const givenNats = process.env['TEST_NATS_URL'];
    // allSettled, so a failure of one never leaves the other running un-torn-down.
    const [dbR, natsR] = await Promise.allSettled([
      givenDb !== undefined && givenDb !== '' ? givenDb : startPostgres().then((s) => { pg = s; return s.url; }),
      givenNats !== undefined && givenNats !== '' ? givenNats : startNats().then((s) => { nats = s; return s.url; }),
    ]);
    if (dbR.status === 'rejected') throw dbR.reason;
    if (natsR.status === 'rejected') throw natsR.reason;
    const databaseUrl = dbR.value, natsUrl = natsR.value;
    await buildTemplate(databaseUrl);
    project.provide('databaseUrl', databaseUrl);
    project.provide('natsUrl', natsUrl);
    // For child processes spawned by e2e tests.
    process.env['TEST_DATABASE_URL'] = databaseUrl;
    process.env['TEST_NATS_URL'] = natsUrl;
  } catch (e) {
    await Promise.allSettled([pg?.destroy(), nats?.destroy()]);
    throw e;
  }
  return async () => {
    await Promise.allSettled([pg?.destroy(), nats?.destroy()]);
  };
}

/** Creates (or brings up to date) the template database; safe against a concurrent run. */
async function buildTemplate(adminUrl: string): Promise<void> {
  const admin = connectPostgres(adminUrl, { max: 1 });
  try {
    const exists = await sql<{ n: number }>`SELECT 1 AS n FROM pg_database WHERE datname = ${TEMPLATE_DB}`.execute(admin.db);
    if (exists.rows.length === 0) {
      try {
        await sql`CREATE DATABASE ${sql.id(TEMPLATE_DB)}`.execute(admin.db);
      } catch (e) {
        if ((e as { code?: string }).code !== '42P04') throw e; // created meanwhile by another run
      }
    }
  } finally {
    await admin.close();
  }
  const tpl = connectPostgres(withDatabase(adminUrl, TEMPLATE_DB), { max: 1 });
  try {
    await migrateToLatest(tpl.db);
  } finally {
    await tpl.close(); // a template with open connections cannot be cloned
  }
}
