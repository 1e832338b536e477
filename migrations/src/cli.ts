// `npm run migrate`: migrates DATABASE_URL to the newest version; exits non-zero on failure.
// The one file here that needs a driver: the migrations themselves import `kysely` only.
import { Kysely } from 'kysely';
import { PostgresJSDialect } from 'kysely-postgres-js';
import postgres from 'postgres';
import { migrator } from './index.ts';

const url = process.env['DATABASE_URL'];
if (url === undefined || url === '') {
  console.error('DATABASE_URL is not set');
  process.exit(2);
}
const db = new Kysely<any>({ dialect: new PostgresJSDialect({ postgres: postgres(url, { max: 1, onnotice: () => {} }) }) });
try {
  const { error, results } = await migrator(db).migrateToLatest();
  for (const r of results ?? []) console.log(`${r.status.padEnd(7)} ${r.migrationName}`);
  if (error !== undefined) {
    console.error('migration failed:', error);
    process.exitCode = 1;
  } else if ((results ?? []).length === 0) {
    console.log('already at latest');
  }
} finally {
  await db.destroy();
}
