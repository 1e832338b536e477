// Standalone checkpointer: DATABASE_URL + NATS_URL (+ PORT/HOST for its operator endpoints:
// /healthz, /readyz, /metrics). Drains (final snapshots) on SIGTERM. Only this file reads
// process.env (CONVENTIONS.md §15).
import { createServer } from 'node:http';
import { createNatsBus } from '@weft/bus';
import { createRegistry, exitOnStartupError, loggerFromEnv, probes, routeConsole } from '@weft/ops';
import { connectPostgres, EventStore } from '@weft/store';
import { build } from './app.ts';
import { parseConfig, parseStandalone } from './config.ts';
import { checkpointerMetrics } from './metrics.ts';

async function main(): Promise<void> {
  const env = process.env;
  const config = parseConfig(env);
  const standalone = parseStandalone(env);
  const log = loggerFromEnv('checkpointer', env);
  routeConsole(log);
  const conn = connectPostgres(standalone.databaseUrl);
  const bus = await createNatsBus(standalone.natsUrl, { name: 'weft-checkpointer' });
  const store = new EventStore(conn.db);
  const registry = createRegistry();
  const worker = build({ store, bus, log, onCheckpoint: checkpointerMetrics(registry) }, config);
  await worker.run();
  const probe = probes('checkpointer', registry, { database: () => store.ping().then(() => true), bus: () => bus.connected });
  const server = createServer((req, res) => {
    if (probe.handle(req, res)) return;
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 'NOT_FOUND', message: 'Only /healthz, /readyz and /metrics.' }));
  });
  server.listen(standalone.port, standalone.host, () => log.info('checkpointer running', { ...config, port: standalone.port }));
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info('draining', { signal });
    server.close();
    await worker.drain();
    await worker.stop();
    await bus.close();
    await conn.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e: unknown) => exitOnStartupError(e, 'checkpointer'));
