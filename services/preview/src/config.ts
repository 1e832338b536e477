// Config parsed once by main.ts (CONVENTIONS.md §15). `previewEnv`: what the preview needs wherever
// it runs (also read by `npm start`); `standaloneEnv`: the standalone process (main.ts) on top.
// docs/config.md is generated from both.
import { int, optional, optionalUrl, parseEnv, postgresEnv, str, url } from '@weft/ops';
import type { PreviewConfig } from './app.ts';

export const previewEnv = {
  WEFT_SESSION_URL: optionalUrl('Base URL of the session API the Build view calls from the browser; unset = the page\'s own origin (behind one proxy, or in `npm start`). Another origin must be allowed there: WEFT_CORS_ORIGINS on the session', ['http', 'https']),
  WEFT_PREVIEW_SECRET: optional('HMAC key for view tickets; unset = generated once and kept under WEFT_DATA_DIR (required by the standalone preview). Set the same value on every preview and session node (the session takes the tickets on reader actions)', { secret: true }),
} as const;

export const standaloneEnv = {
  PORT: int('HTTP port (0 = any free port)', 8081, 0, 65535),
  HOST: str('Interface to listen on', '127.0.0.1'),
  DATABASE_URL: url('Postgres URL', ['postgres', 'postgresql']),
  ...postgresEnv,
  NATS_URL: url('NATS URL', ['nats', 'tls']),
  WEFT_ADMIN_TOKEN: optional('The session\'s admin token, accepted like a minted token', { secret: true }),
} as const;

/** Throws ConfigError (one line naming the variable) on a bad value; the result is frozen. */
export function parseConfig(env: Readonly<Record<string, string | undefined>>, adminToken: string | null): Readonly<PreviewConfig> {
  const e = parseEnv(previewEnv, env);
  return Object.freeze({ sessionUrl: e.WEFT_SESSION_URL ?? '', ticketSecret: e.WEFT_PREVIEW_SECRET, adminToken });
}

export function parseStandalone(env: Readonly<Record<string, string | undefined>>): { readonly port: number; readonly host: string; readonly databaseUrl: string; readonly dbPrepare: boolean; readonly startWaitS: number; readonly natsUrl: string; readonly adminToken: string | null } {
  const e = parseEnv(standaloneEnv, env);
  return Object.freeze({ port: e.PORT, host: e.HOST, databaseUrl: e.DATABASE_URL, dbPrepare: e.WEFT_DB_PREPARE, startWaitS: e.WEFT_START_WAIT_S, natsUrl: e.NATS_URL, adminToken: e.WEFT_ADMIN_TOKEN });
}
