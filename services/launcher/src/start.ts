// `npm start`: every service in one process. Embedded default: PGlite under WEFT_DATA_DIR and the
// in-process bus, no server installed. With DATABASE_URL / NATS_URL: real Postgres and NATS.
// WEFT_SERVICES picks which services this process runs (default all: session,preview,checkpointer);
// `WEFT_SERVICES=session` with DATABASE_URL and NATS_URL is the session service alone (compose).
// The only place that reads process.env (with the services' own config parsers).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { agentHandler, parseModelConfig } from '@weft/agent';
import { createMemoryBus, createNatsBus } from '@weft/bus';
import { build as buildCheckpointer, parseConfig as parseCheckpointerConfig } from '@weft/checkpointer';
import { migrateToLatest } from '@weft/migrations';
import { build as buildPreview } from '@weft/preview';
import { collabExtension, listen, mcpExtension, parseConfig } from '@weft/session';
import { connectPostgres, DamagedDataDir, EventStore, openPGlite, SessionStore, TokenStore } from '@weft/store';

const ALL = ['session', 'preview', 'checkpointer'] as const;
type ServiceName = (typeof ALL)[number];

async function main(): Promise<void> {
  const env = process.env;
  const services = parseServices(env['WEFT_SERVICES']);
  const base = parseConfig(env);
  const dataDir = resolve(base.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const adminToken = base.adminToken ?? persistedAdminToken(dataDir);
  // A token the operator supplied (WEFT_ADMIN_TOKEN) is theirs already: never echo it to a log.
  const shownToken = base.adminToken === null ? adminToken : '$WEFT_ADMIN_TOKEN';
  const config = parseConfig(env, { adminToken, dataDir });
  if (!config.databaseUrl && services.size < ALL.length) throw new Error('WEFT_SERVICES needs DATABASE_URL: the embedded PGlite lives inside one process');

  const conn = config.databaseUrl ? connectPostgres(config.databaseUrl) : await openPGlite(join(dataDir, 'pglite'));
  if (config.databaseUrl) await migrateToLatest(conn.db);
  const bus = config.natsUrl ? await createNatsBus(config.natsUrl) : createMemoryBus();
  const store = new EventStore(conn.db);
  const tokens = new TokenStore(conn.db);

  const preview = services.has('preview') ? buildPreview({ store, tokens, bus }, { sessionUrl: env['WEFT_SESSION_URL'] ?? '', adminToken, ticketSecret: env['WEFT_PREVIEW_SECRET'] ?? null }) : null;
  const checkpointerConfig = services.has('checkpointer') ? parseCheckpointerConfig({ DATABASE_URL: 'in-process', NATS_URL: 'in-process', ...env }) : null;
  const checkpointer = checkpointerConfig ? buildCheckpointer({ store, bus }, checkpointerConfig) : null;
  await checkpointer?.run();

  let url: string;
  let closeHttp: () => Promise<void>;
  if (services.has('session')) {
    // "Ask the agent": POST /agent/briefs, acting with the caller's token against this session.
    const modelConfig = parseModelConfig(env);
    let sessionUrl = '';
    const agent = agentHandler({ sessionUrl: () => sessionUrl, model: modelConfig.ok ? modelConfig.value : null });
    const session = await listen({ store, tokens, sessions: new SessionStore(conn.db), bus }, config, [collabExtension(), mcpExtension()], (req, res) => agent(req, res) || (preview?.handle(req, res) ?? false));
    url = sessionUrl = session.url;
    closeHttp = () => session.close();
  } else {
    const server = createServer((req, res) => {
      if (req.url === '/healthz') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, services: [...services], bus: bus.connected }));
        return;
      }
      if (!preview?.handle(req, res)) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No such route on this process.' } }));
      }
    });
    await new Promise<void>((r) => server.listen(config.port, config.host, () => r()));
    const addr = server.address();
    url = `http://${config.host}:${typeof addr === 'object' && addr ? addr.port : config.port}`;
    closeHttp = async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    };
  }

  console.log(`
  Weft is running at ${url}   (${[...services].join(', ')})
    storage: ${config.databaseUrl ? 'Postgres (DATABASE_URL)' : `embedded PGlite in ${join(dataDir, 'pglite')}`}
    bus:     ${config.natsUrl ? 'NATS (NATS_URL)' : 'in-process'}
    admin token: ${shownToken === adminToken ? `${adminToken}  (kept in ${join(dataDir, 'admin-token')})` : 'from WEFT_ADMIN_TOKEN (not printed)'}
${services.has('session') ? `
  Try:  export WEFT=${url} TOKEN=${shownToken}
        curl -s -X POST $WEFT/v1/drafts -H "authorization: Bearer $TOKEN" -d '{"id":"home","title":"Home"}'
        open ${url}/build/home  (paste the token when asked)
` : ''}`);

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: draining and stopping`);
    await closeHttp();
    await preview?.close();
    await checkpointer?.drain().catch(() => {});
    await checkpointer?.stop();
    await bus.close();
    await conn.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

function parseServices(raw: string | undefined): Set<ServiceName> {
  if (!raw) return new Set(ALL);
  const out = new Set<ServiceName>();
  for (const s of raw.split(',').map((x) => x.trim()).filter(Boolean)) {
    if (!(ALL as readonly string[]).includes(s)) throw new Error(`WEFT_SERVICES: unknown service "${s}" (known: ${ALL.join(', ')})`);
    out.add(s as ServiceName);
  }
  return out;
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
  // A damaged data dir is the user's to act on: its message says which and what to do, no stack.
  console.error(e instanceof DamagedDataDir ? `\n  ${e.message}\n` : e);
  process.exit(1);
});
