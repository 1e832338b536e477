// The stack under test, as separate processes on loopback: Postgres 15 (fsync on), nats-server,
// and the session / preview / checkpointer services through the launcher (WEFT_SERVICES).
import { WeftHttpClient } from '@weft/client';
import { startNats, startPostgres } from '@weft/testing';
import type { NatsServer, PostgresServer } from '@weft/testing';
import { spawnLauncher } from '../src/proc.ts';
import type { ServiceProcess } from '../src/proc.ts';

export const ADMIN_TOKEN = 'load-admin-token';

export interface Stack {
  pg: PostgresServer;
  nats: NatsServer;
  session: ServiceProcess;
  preview: ServiceProcess | null;
  checkpointer: ServiceProcess | null;
  admin: WeftHttpClient;
  env: Record<string, string>;
  /** Kills the session (default SIGKILL) and starts it again on the same port. */
  restartSession(signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Run the preview and checkpointer as their own processes (default true). */
  workers?: boolean;
  env?: Record<string, string>;
  pgSettings?: Record<string, string | number>;
}

export async function startStack(o: StackOptions = {}): Promise<Stack> {
  const pg = await startPostgres({ fsync: true, ...(o.pgSettings ? { settings: o.pgSettings } : {}) });
  const nats = await startNats();
  const env = {
    DATABASE_URL: pg.url, NATS_URL: nats.url, WEFT_ADMIN_TOKEN: ADMIN_TOKEN,
    WEFT_OPS_PER_SECOND: '1000000', WEFT_OPS_PER_TURN: '1000000', ...o.env,
  };
  // Sequential: each launcher runs the migrations at start.
  const session = await spawnLauncher('session', { ...env, WEFT_SERVICES: 'session' });
  const workers = o.workers ?? true;
  const preview = workers ? await spawnLauncher('preview', { ...env, WEFT_SERVICES: 'preview', WEFT_SESSION_URL: session.url }) : null;
  const checkpointer = workers ? await spawnLauncher('checkpointer', { ...env, WEFT_SERVICES: 'checkpointer' }) : null;
  const stack: Stack = {
    pg, nats, session, preview, checkpointer, env,
    admin: new WeftHttpClient(session.url, ADMIN_TOKEN),
    async restartSession(signal = 'SIGKILL') {
      const port = Number(new URL(stack.session.url).port);
      await stack.session.kill(signal);
      stack.session = await spawnLauncher('session', { ...env, WEFT_SERVICES: 'session' }, port);
    },
    async stop() {
      for (const p of [stack.session, checkpointer, preview]) await p?.kill('SIGTERM').catch(() => {});
      await nats.destroy().catch(() => {});
      await pg.destroy().catch(() => {});
    },
  };
  return stack;
}
