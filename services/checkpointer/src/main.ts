// Standalone checkpointer: DATABASE_URL + NATS_URL (+ PORT/HOST for its operator endpoints:
// /healthz, /readyz, /metrics). Drains (final snapshots) on SIGTERM. Only this file reads
// process.env (CONVENTIONS.md §15).
import { createNatsBus } from '@weft/bus';
import { createRegistry, exitOnStartupError, loggerFromEnv, operatorServer, probes, routeConsole, stopOnSignals } from '@weft/ops';
import { connectPostgres, waitForDatabase, EventStore } from '@weft/store';
import { build } from './app.ts';
import { parseConfig, parseStandalone } from './config.ts';
import { checkpointerMetrics } from './metrics.ts';

async function main(): Promise<void> {
  const env = process.env;
  const config = parseConfig(env);
  const standalone = parseStandalone(env);
  const log = loggerFromEnv('checkpointer', env);
  routeConsole(log);
  const conn = connectPostgres(standalone.databaseUrl, { prepare: standalone.dbPrepare });
  const wait = { waitMs: standalone.startWaitS * 1000, onWait: (message: string, fields: Record<string, unknown>) => log.warn(message, fields) };
  await waitForDatabase(conn.db, { url: standalone.databaseUrl, ...wait });
  const bus = await createNatsBus(standalone.natsUrl, { name: 'weft-checkpointer', ...wait });
  const store = new EventStore(conn.db);
  const registry = createRegistry();
  const worker = build({ store, bus, log, onCheckpoint: checkpointerMetrics(registry) }, config);
  await worker.run();
  const probe = probes('checkpointer', registry, { database: () => store.ping().then(() => true), bus: () => bus.connected });
  const server = operatorServer(probe);
  server.listen(standalone.port, standalone.host, () => log.info('checkpointer running', { ...config, port: standalone.port }));
  stopOnSignals(async (signal) => {
    log.info('draining', { signal });
    server.close();
    await worker.drain();
    await worker.stop();
    await bus.close();
    await conn.close();
    process.exit(0);
  });
}

main().catch((e: unknown) => exitOnStartupError(e, 'checkpointer'));
