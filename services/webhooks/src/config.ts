// Config parsed once by main.ts / the launcher (CONVENTIONS.md §15); docs/config.md is generated
// from these declarations. WEFT_WEBHOOK_ALLOW_PRIVATE is @weft/ops' egressEnv: the session's
// registration check reads the same variable.
import { egressEnv, int, parseEnv, postgresEnv, str, url, optionalUrl } from '@weft/ops';

export const webhooksEnv = {
  ...egressEnv,
  WEFT_WEBHOOK_TIMEOUT_MS: int('One delivery attempt (connect, send, answer), ms; past it the attempt failed', 15_000, 100, 120_000),
  WEFT_WEBHOOK_MAX_ATTEMPTS: int('Attempts per delivery before it is marked failed (the default schedule spans about a day and a half)', 15, 1, 20),
  WEFT_WEBHOOK_BACKOFF_BASE_MS: int('Delay before the second attempt, ms; doubles per attempt (half of it random)', 5000, 1),
  WEFT_WEBHOOK_BACKOFF_MAX_MS: int('Longest delay between two attempts, ms (a receiver\'s Retry-After is honoured up to it)', 86_400_000, 1),
  WEFT_WEBHOOK_POLL_MS: int('How often the dispatcher looks for new log steps and due deliveries, ms (the bus wakes it sooner)', 1000, 10),
  WEFT_WEBHOOK_CONCURRENCY: int('Deliveries in flight at once per dispatcher', 8, 1, 256),
  WEFT_WEBHOOK_RETENTION_DAYS: int('Delivered and failed deliveries older than this many days are deleted from the delivery log (hourly)', 30, 1),
} as const;

export const standaloneEnv = {
  PORT: int('Port of the operator endpoints /healthz, /readyz, /metrics (0 = any free port)', 8083, 0, 65535),
  HOST: str('Interface to listen on', '127.0.0.1'),
  DATABASE_URL: url('Postgres URL', ['postgres', 'postgresql']),
  ...postgresEnv,
  NATS_URL: optionalUrl('NATS URL; unset = no wake-ups, the dispatcher polls', ['nats', 'tls']),
} as const;

export interface WebhooksConfig {
  readonly allowPrivate: boolean;
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly pollMs: number;
  readonly concurrency: number;
  readonly retentionDays: number;
}

/** Throws ConfigError (one line naming the variable) on a bad value; the result is frozen. */
export function parseConfig(env: Readonly<Record<string, string | undefined>>): WebhooksConfig {
  const e = parseEnv(webhooksEnv, env);
  return Object.freeze({
    allowPrivate: e.WEFT_WEBHOOK_ALLOW_PRIVATE, timeoutMs: e.WEFT_WEBHOOK_TIMEOUT_MS, maxAttempts: e.WEFT_WEBHOOK_MAX_ATTEMPTS,
    backoffBaseMs: e.WEFT_WEBHOOK_BACKOFF_BASE_MS, backoffMaxMs: e.WEFT_WEBHOOK_BACKOFF_MAX_MS, pollMs: e.WEFT_WEBHOOK_POLL_MS,
    concurrency: e.WEFT_WEBHOOK_CONCURRENCY, retentionDays: e.WEFT_WEBHOOK_RETENTION_DAYS,
  });
}

export function parseStandalone(env: Readonly<Record<string, string | undefined>>): { readonly port: number; readonly host: string; readonly databaseUrl: string; readonly dbPrepare: boolean; readonly startWaitS: number; readonly natsUrl: string | null } {
  const e = parseEnv(standaloneEnv, env);
  return Object.freeze({ port: e.PORT, host: e.HOST, databaseUrl: e.DATABASE_URL, dbPrepare: e.WEFT_DB_PREPARE, startWaitS: e.WEFT_START_WAIT_S, natsUrl: e.NATS_URL });
}
