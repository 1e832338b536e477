// Standalone checkpointer: DATABASE_URL + NATS_URL. Drains (final snapshots) on SIGTERM.
import { createNatsBus } from '@weft/bus';
import { connectPostgres, EventStore } from '@weft/store';
import { build } from './app.ts';
import { parseConfig } from './config.ts';

async function main(): Promise<void> {
  const config = parseConfig(process.env);
  const conn = connectPostgres(config.databaseUrl);
  const bus = await createNatsBus(config.natsUrl);
  const worker = build({ store: new EventStore(conn.db), bus }, config);
  await worker.run();
  console.log(`checkpointer running (quiet ${config.quietMs} ms, every ${config.everyOps} ops)`);
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: draining`);
    await worker.drain();
    await worker.stop();
    await bus.close();
    await conn.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
