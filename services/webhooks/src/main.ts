// Standalone webhook dispatcher: DATABASE_URL (+ NATS_URL for wake-ups, PORT/HOST for /healthz,
// /readyz, /metrics). Only this file reads process.env (CONVENTIONS.md §15). Several can run:
// the delivery rows are claimed with SKIP LOCKED.
import { createNatsBus } from '@weft/bus';
import type { Bus } from '@weft/bus';
import { createRegistry, exitOnStartupError, loggerFromEnv, operatorServer, probes, routeConsole, stopOnSignals } from '@weft/ops';
import { connectPostgres, waitForDatabase, WebhookStore } from '@weft/store';
import { build } from './app.ts';
import { parseConfig, parseStandalone } from './config.ts';
import { webhookMetrics } from './metrics.ts';

async function main(): Promise<void> {
  const env = process.env;
  const config = parseConfig(env);
  const standalone = parseStandalone(env);
  const log = loggerFromEnv('webhooks', env);
  routeConsole(log);
  const conn = connectPostgres(standalone.databaseUrl, { prepare: standalone.dbPrepare });
  const wait = { waitMs: standalone.startWaitS * 1000, onWait: (message: string, fields: Record<string, unknown>) => log.warn(message, fields) };
  await waitForDatabase(conn.db, { url: standalone.databaseUrl, ...wait });
  const bus: Bus | null = standalone.natsUrl ? await createNatsBus(standalone.natsUrl, { name: 'weft-webhooks', ...wait }) : null;
  const store = new WebhookStore(conn.db);
  const registry = createRegistry();
  const dispatcher = build({ store, ...(bus ? { bus } : {}), log, metrics: webhookMetrics(registry, () => store.countPending()) }, config);
  await dispatcher.run();
  const probe = probes('webhooks', registry, { database: () => store.ping().then(() => true), ...(bus ? { bus: () => bus.connected } : {}) });
  const server = operatorServer(probe);
  server.listen(standalone.port, standalone.host, () => log.info('webhook dispatcher running', { ...config, port: standalone.port }));
  stopOnSignals(async (signal) => {
    log.info('stopping', { signal });
    server.close();
    await dispatcher.stop();
    await bus?.close();
    await conn.close();
    process.exit(0);
  });
}

main().catch((e: unknown) => exitOnStartupError(e, 'webhooks'));
