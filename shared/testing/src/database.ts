// One fresh database per test file, cloned from the migrated template (CONVENTIONS.md §11).
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { inject } from 'vitest';
import { connectPostgres } from '@weft/store';
import type { DB } from '@weft/store';
import { TEMPLATE_DB, withDatabase } from './provided.ts';
import './provided.ts';

export interface TestDatabase {
  url: string;
  db: Kysely<DB>;
  /** Closes `db` and drops the database WITH (FORCE). */
  drop(): Promise<void>;
}

export function databaseUrl(): string {
  return inject('databaseUrl');
}

export function natsUrl(): string {
  return inject('natsUrl');
}

export async function createTestDatabase(opts: { max?: number; prepare?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = databaseUrl();
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, async (admin) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await sql`CREATE DATABASE ${sql.id(name)} TEMPLATE ${sql.id(TEMPLATE_DB)}`.execute(admin);
      } catch (e) {
        // 55006: the template is in use (another run's setup is migrating it); wait and retry.
        if ((e as { code?: string }).code !== '55006' || attempt >= 20) throw e;
        await new Promise((r) => setTimeout(r, 100 + attempt * 50));
      }
    }
  });
  const url = withDatabase(adminUrl, name);
  const conn = connectPostgres(url, { max: opts.max ?? 10, ...(opts.prepare === undefined ? {} : { prepare: opts.prepare }) });
  let dropped = false;
  return {
    url,
    db: conn.db,
    async drop() {
      if (dropped) return;
      dropped = true;
      await conn.close();
      await withAdmin(adminUrl, (admin) => sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin));
    },
  };
}

async function withAdmin<T>(adminUrl: string, f: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  const admin = connectPostgres(adminUrl, { max: 1 });
  try {
    return await f(admin.db);
  } finally {
    await admin.close();
  }
}
