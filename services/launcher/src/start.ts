// `npm start` (through tsx) and the image's `node dist/launcher.js`: the services WEFT_SERVICES
// names in one process (default all: session, preview, checkpointer, webhooks). Embedded default: PGlite
// under WEFT_DATA_DIR and the in-process bus, no server installed. With DATABASE_URL / NATS_URL:
// real Postgres and NATS; `WEFT_SERVICES=session` with both is the session service alone (compose).
// The only place that reads process.env: every service's schema parses it here, once.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { agentHandler, parseModelConfig } from '@weft/agent';
import { BusUnreachable, createMemoryBus, createNatsBus } from '@weft/bus';
import { build as buildCheckpointer, checkpointerMetrics, parseConfig as parseCheckpointerConfig } from '@weft/checkpointer';
import { migrateToLatest } from '@weft/migrations';
import { accessLog, ConfigError, createLogger, createRegistry, exitOnStartupError, logEnv, parseEnv, probes, routeConsole } from '@weft/ops';
import type { ReadinessChecks } from '@weft/ops';
import { build as buildPreview, parseConfig as parsePreviewConfig, Tickets } from '@weft/preview';
import { actionsExtension, collabExtension, listen, mcpExtension, parseConfig } from '@weft/session';
import { connectPostgres, DamagedDataDir, DatabaseUnreachable, DataDirInUse, EventStore, openPGlite, SessionStore, TokenStore, waitForDatabase, WebhookStore } from '@weft/store';
import { build as buildWebhooks, parseConfig as parseWebhooksConfig, webhookMetrics } from '@weft/webhooks';
import { launcherEnv, SERVICES } from './config.ts';

/** The services that learn of the session's steps only from the bus (webhooks poll the database). */
const BUS_LISTENERS = ['preview', 'checkpointer'] as const;

/** Every variable parsed before anything starts, so a bad one stops the process in one line. */
function readConfig(env: NodeJS.ProcessEnv) {
  const services = parseEnv(launcherEnv, env).WEFT_SERVICES;
  const logging = parseEnv(logEnv, env);
  const base = parseConfig(env);
  if (!base.databaseUrl && services.size < SERVICES.length) throw new ConfigError('WEFT_SERVICES', 'fewer than all services needs DATABASE_URL (the embedded PGlite lives inside one process)');
  // The preview and the checkpointer hear of new steps only on the bus: without the session in the
  // same process, the in-process bus is silent and their pages and snapshots would never move.
  const listeners = BUS_LISTENERS.filter((s) => services.has(s));
  if (!base.natsUrl && !services.has('session') && listeners.length > 0) {
    throw new ConfigError('NATS_URL', `the ${listeners.join(' and ')} without the session in this process hear${listeners.length > 1 ? '' : 's'} of new steps only over NATS: set NATS_URL (the session's too), or add session to WEFT_SERVICES`);
  }
  return {
    services, logging, base,
    preview: parsePreviewConfig(env, null),
    checkpointer: parseCheckpointerConfig(env),
    webhooks: parseWebhooksConfig(env),
    model: parseModelConfig(env),
  };
}

async function main(): Promise<void> {
  const cfg = readConfig(process.env);
  const { services } = cfg;
  const name = services.size === SERVICES.length ? 'weft' : [...services].join('+');
  const logger = (service: string) => createLogger({ service, level: cfg.logging.WEFT_LOG_LEVEL, ...(cfg.logging.WEFT_NODE_ID ? { node: cfg.logging.WEFT_NODE_ID } : {}) });
  const log = logger(name);
  // Libraries that print (Hocuspocus, the bus's fallbacks) write JSON lines too.
  routeConsole(log);

  const dataDir = resolve(cfg.base.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const adminToken = cfg.base.adminToken ?? persistedAdminToken(dataDir);
  // A token the operator supplied (WEFT_ADMIN_TOKEN) is theirs already: never echo it to a log.
  const shownToken = cfg.base.adminToken === null ? adminToken : '$WEFT_ADMIN_TOKEN';
  const config = Object.freeze({ ...cfg.base, adminToken, dataDir });

  const conn = config.databaseUrl ? connectPostgres(config.databaseUrl, { prepare: config.dbPrepare }) : await openPGlite(join(dataDir, 'pglite'));
  const wait = { waitMs: config.startWaitS * 1000, onWait: (message: string, fields: Record<string, unknown>) => log.warn(message, fields) };
  if (config.databaseUrl) {
    await waitForDatabase(conn.db, { url: config.databaseUrl, ...wait });
    await migrateToLatest(conn.db);
  }
  const bus = config.natsUrl ? await createNatsBus(config.natsUrl, { name: `weft-${name}`, ...wait }) : createMemoryBus();
  const elsewhere = BUS_LISTENERS.filter((s) => !services.has(s));
  if (!config.natsUrl && services.has('session') && elsewhere.length > 0) {
    // Allowed (an API-only node), but a preview or checkpointer in another process hears nothing.
    log.warn(`no NATS_URL: a ${elsewhere.join(' or ')} in another process will not hear of this session's steps (live pages stay still, no snapshots are taken)`, { services: [...services] });
  }
  const store = new EventStore(conn.db);
  const tokens = new TokenStore(conn.db);
  const registry = createRegistry();

  // One ticket key for the preview (which mints view tickets) and the session (which takes them on
  // reader actions): the same WEFT_PREVIEW_SECRET on every node, or one kept under the data dir.
  const ticketSecret = cfg.preview.ticketSecret ?? persistedSecret(dataDir, 'preview-secret');
  const preview = services.has('preview')
    ? buildPreview({ store, tokens, bus, log: logger('preview'), registry }, { ...cfg.preview, ticketSecret, adminToken })
    : null;
  // Tickets are stateless (an HMAC under that key): checking one needs only the key.
  const tickets = new Tickets(ticketSecret, Date.now);
  const checkpointer = services.has('checkpointer')
    ? buildCheckpointer({ store, bus, log: logger('checkpointer'), onCheckpoint: checkpointerMetrics(registry) }, cfg.checkpointer)
    : null;
  await checkpointer?.run();
  const hookStore = new WebhookStore(conn.db);
  const webhooks = services.has('webhooks')
    ? buildWebhooks({ store: hookStore, bus, log: logger('webhooks'), metrics: webhookMetrics(registry, () => hookStore.countPending()) }, cfg.webhooks)
    : null;
  await webhooks?.run();
  const ready: ReadinessChecks = { database: () => store.ping().then(() => true), bus: () => bus.connected };

  let url: string;
  let closeHttp: () => Promise<void>;
  if (services.has('session')) {
    // The Build chat's agent: POST /agent/briefs, acting with the caller's token against this session.
    let sessionUrl = '';
    const agent = agentHandler({ sessionUrl: () => sessionUrl, model: cfg.model.ok ? cfg.model.value : null });
    const session = await listen(
      { store, tokens, sessions: new SessionStore(conn.db), bus, log: logger('session'), registry },
      config, [collabExtension(), mcpExtension(), actionsExtension({ verifyTicket: (ticket, draftId) => tickets.valid(ticket, draftId) })],
      (req, res) => agent(req, res) || (preview?.handle(req, res) ?? false),
    );
    url = sessionUrl = session.url;
    closeHttp = () => session.close();
  } else {
    // Preview and/or checkpointer alone: their pages and the operator's endpoints.
    const probe = probes(name, registry, ready);
    const access = accessLog(log);
    const server = createServer((req, res) => {
      access(req, res);
      if (probe.handle(req, res) || preview?.handle(req, res)) return;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No such route on this process.' } }));
    });
    await new Promise<void>((r) => server.listen(config.port, config.host, () => r()));
    const addr = server.address();
    url = `http://${config.host}:${typeof addr === 'object' && addr ? addr.port : config.port}`;
    closeHttp = async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    };
  }

  // Test harnesses and scripts wait for "Weft is running at <url> " in this line.
  log.info(`Weft is running at ${url} (${[...services].join(', ')})`, {
    url, services: [...services],
    storage: config.databaseUrl ? 'postgres' : 'pglite', bus: config.natsUrl ? 'nats' : 'in-process',
    model: cfg.model.ok ? cfg.model.value.model : null,
  });
  // A person at a terminal (`npm start`), or one whose admin token was just made, gets it and the
  // two things to do next on stderr; containers given WEFT_ADMIN_TOKEN get only JSON lines.
  if (services.has('session') && (process.stderr.isTTY || cfg.base.adminToken === null)) {
    process.stderr.write(`
  Weft is running at ${url}   (${[...services].join(', ')})
    storage: ${config.databaseUrl ? 'Postgres (DATABASE_URL)' : `embedded PGlite in ${join(dataDir, 'pglite')}`}
    bus:     ${config.natsUrl ? 'NATS (NATS_URL)' : 'in-process'}
    admin token: ${shownToken === adminToken ? `${adminToken}  (kept in ${join(dataDir, 'admin-token')})` : 'from WEFT_ADMIN_TOKEN (not printed)'}

  ${services.has('preview') ? `Open ${url} for your drafts (paste the token when asked), or from a shell:` : 'Try:'}
        export WEFT=${url} TOKEN=${shownToken}
        curl -s -X POST $WEFT/v1/drafts -H "authorization: Bearer $TOKEN" -d '{"id":"home","title":"Home"}'
        open ${url}/build/home  (paste the token when asked)

`);
  }

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info('draining and stopping', { signal });
    // Orchestrators kill at 10–30 s: whatever still hangs after 4.5 s (a peer that never closes, a
    // query that never returns) is left behind. Leases go first (in closeHttp), commits are fenced,
    // so nothing acknowledged depends on finishing the rest.
    setTimeout(() => {
      log.error('still stopping after 4.5 s; exiting', { signal, at });
      process.exit(0);
    }, 4500).unref();
    let at = 'http';
    const step = async (name: string, f: () => Promise<unknown> | undefined): Promise<void> => {
      at = name;
      await Promise.resolve(f()).catch((e: unknown) => log.warn('shutdown step failed', { signal, step: name, err: e }));
    };
    await step('http', closeHttp);
    await step('preview', () => preview?.close());
    await step('checkpointer drain', () => checkpointer?.drain());
    await step('checkpointer', () => checkpointer?.stop());
    await step('webhooks', () => webhooks?.stop());
    await step('bus', () => bus.close());
    await step('database', () => conn.close());
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** Kept under the data dir so restarts keep the same admin token (the file is only the owner's). */
function persistedAdminToken(dataDir: string): string {
  return persistedSecret(dataDir, 'admin-token', 'wft_admin_');
}

/**
 * A secret generated once and kept under the data dir (only the owner may read it). The preview's
 * ticket key too: with a key per process, a restart made every open Build view's frame stop
 * following the draft (its ticket refused).
 */
function persistedSecret(dataDir: string, name: string, prefix = ''): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = `${prefix}${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

main().catch((e: unknown) => {
  // A damaged data dir, one another process holds, or a database or NATS that never answered is the user's
  // to act on: its message says which and what to do, no stack. Written straight to stderr: the
  // console is routed through the JSON logger, which would quote it.
  if (e instanceof DamagedDataDir || e instanceof DataDirInUse || e instanceof DatabaseUnreachable || e instanceof BusUnreachable) {
    process.stderr.write(`\n  ${e.message}\n\n`);
    process.exit(1);
  }
  exitOnStartupError(e, 'weft');
});
