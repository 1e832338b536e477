// Standalone preview: DATABASE_URL + NATS_URL (+ PORT, HOST, WEFT_SESSION_URL for the Build view's
// API calls, WEFT_ADMIN_TOKEN). Only this file reads process.env (CONVENTIONS.md §15).
import { createServer } from 'node:http';
import { createNatsBus } from '@weft/bus';
import { accessLog, ConfigError, createRegistry, exitOnStartupError, loggerFromEnv, probes, routeConsole } from '@weft/ops';
import { connectPostgres, waitForDatabase, EventStore, TokenStore } from '@weft/store';
import { build } from './app.ts';
import { parseConfig, parseStandalone } from './config.ts';

async function main(): Promise<void> {
  const env = process.env;
  const standalone = parseStandalone(env);
  const config = parseConfig(env, standalone.adminToken);
  // A key made up per process would refuse every open page's ticket after a restart, and the
  // session nodes could never take a reader action's ticket: the standalone preview needs the shared one.
  if (!config.ticketSecret) throw new ConfigError('WEFT_PREVIEW_SECRET', 'is required by the standalone preview: set the same value on the session nodes');
  const log = loggerFromEnv('preview', env);
  routeConsole(log);
  const conn = connectPostgres(standalone.databaseUrl, { prepare: standalone.dbPrepare });
  const wait = { waitMs: standalone.startWaitS * 1000, onWait: (message: string, fields: Record<string, unknown>) => log.warn(message, fields) };
  await waitForDatabase(conn.db, { url: standalone.databaseUrl, ...wait });
  const bus = await createNatsBus(standalone.natsUrl, { name: 'weft-preview', ...wait });
  const store = new EventStore(conn.db);
  const registry = createRegistry();
  const preview = build({ store, tokens: new TokenStore(conn.db), bus, log, registry }, config);
  const probe = probes('preview', registry, { database: () => store.ping().then(() => true), bus: () => bus.connected });
  const access = accessLog(log);
  const server = createServer((req, res) => {
    access(req, res);
    if (probe.handle(req, res) || preview.handle(req, res)) return;
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: `No route ${req.method} ${req.url}.` } }));
  });
  server.listen(standalone.port, standalone.host, () => log.info('preview listening', { port: standalone.port }));
  const stop = async (): Promise<void> => {
    await preview.close();
    server.closeAllConnections();
    server.close();
    await bus.close();
    await conn.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e: unknown) => exitOnStartupError(e, 'preview'));
