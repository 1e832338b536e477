// `npm start`: every service in one process. Embedded default: PGlite under WEFT_DATA_DIR and the
// in-process bus, no server installed. With DATABASE_URL / NATS_URL: real Postgres and NATS.
// The only place that reads process.env (with the services' own config parsers).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createMemoryBus, createNatsBus } from '@weft/bus';
import { migrateToLatest } from '@weft/migrations';
import { collabExtension, listen, parseConfig } from '@weft/session';
import { connectPostgres, EventStore, openPGlite, SessionStore, TokenStore } from '@weft/store';

async function main(): Promise<void> {
  const env = process.env;
  const base = parseConfig(env);
  const dataDir = resolve(base.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const adminToken = base.adminToken ?? persistedAdminToken(dataDir);
  const config = parseConfig(env, { adminToken, dataDir });

  const conn = config.databaseUrl ? connectPostgres(config.databaseUrl) : await openPGlite(join(dataDir, 'pglite'));
  if (config.databaseUrl) await migrateToLatest(conn.db);
  const bus = config.natsUrl ? await createNatsBus(config.natsUrl) : createMemoryBus();
  const store = new EventStore(conn.db);
  const session = await listen({ store, tokens: new TokenStore(conn.db), sessions: new SessionStore(conn.db), bus }, config, [collabExtension()]);

  console.log(`
  Weft is running at ${session.url}
    storage: ${config.databaseUrl ? 'Postgres (DATABASE_URL)' : `embedded PGlite in ${join(dataDir, 'pglite')}`}
    bus:     ${config.natsUrl ? 'NATS (NATS_URL)' : 'in-process'}
    admin token: ${adminToken}

  Try:  export WEFT=${session.url} TOKEN=${adminToken}
        curl -s -X POST $WEFT/v1/drafts -H "authorization: Bearer $TOKEN" -d '{"id":"home","title":"Home"}'
`);

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: draining and stopping`);
    await session.close();
    await bus.close();
    await conn.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** Kept under the data dir so restarts keep the same admin token (the file is only the owner's). */
function persistedAdminToken(dataDir: string): string {
  const file = join(dataDir, 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = `wft_admin_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, token + '\n', { mode: 0o600 });
  return token;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
