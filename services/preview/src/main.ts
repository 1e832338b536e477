// Standalone preview: DATABASE_URL + NATS_URL (+ PORT, WEFT_SESSION_URL for the Build view's API
// calls, WEFT_ADMIN_TOKEN). Only this file reads process.env (CONVENTIONS.md §15).
import { createServer } from 'node:http';
import { createNatsBus } from '@weft/bus';
import { connectPostgres, EventStore, TokenStore } from '@weft/store';
import { build } from './app.ts';

async function main(): Promise<void> {
  const env = process.env;
  const databaseUrl = env['DATABASE_URL'];
  const natsUrl = env['NATS_URL'];
  if (!databaseUrl || !natsUrl) throw new Error('DATABASE_URL and NATS_URL are required (standalone preview)');
  const port = Number(env['PORT'] ?? '8081');
  if (!Number.isInteger(port) || port < 0) throw new Error(`PORT must be an integer, got "${env['PORT']}"`);
  const conn = connectPostgres(databaseUrl);
  const bus = await createNatsBus(natsUrl, { name: 'weft-preview' });
  const preview = build({ store: new EventStore(conn.db), tokens: new TokenStore(conn.db), bus }, {
    sessionUrl: env['WEFT_SESSION_URL'] ?? '', adminToken: env['WEFT_ADMIN_TOKEN'] ?? null, ticketSecret: env['WEFT_PREVIEW_SECRET'] ?? null,
  });
  const server = createServer((req, res) => {
    if (!preview.handle(req, res)) { res.writeHead(404, { 'content-type': 'text/plain' }); res.end('not found'); }
  });
  server.listen(port, env['HOST'] ?? '127.0.0.1', () => console.log(`preview listening on :${port}`));
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

main().catch((e: unknown) => { console.error(e); process.exit(1); });
