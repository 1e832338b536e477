// Config parsed once by main.ts/start.ts; nothing else reads process.env (CONVENTIONS.md §15).
// `sessionEnv` declares every variable (docs/config.md is generated from it).
import { egressEnv, int, optional, optionalUrl, origins, parseEnv, postgresEnv, str } from '@weft/ops';
import type { EnvValues } from '@weft/ops';

export const sessionEnv = {
  PORT: int('HTTP port (0 = any free port)', 8080, 0, 65535),
  HOST: str('Interface to listen on', '127.0.0.1'),
  DATABASE_URL: optionalUrl('Postgres URL; unset = embedded PGlite under WEFT_DATA_DIR', ['postgres', 'postgresql']),
  ...postgresEnv,
  NATS_URL: optionalUrl('NATS URL; unset = in-process bus', ['nats', 'tls']),
  WEFT_DATA_DIR: str('Embedded data directory (PGlite, the generated admin token)', '.weft'),
  WEFT_ADMIN_TOKEN: optional('Admin bearer token (never printed); unset = generated, kept under WEFT_DATA_DIR and printed', { secret: true }),
  WEFT_OPS_PER_TURN: int('Op budget of one agent turn', 500, 1),
  WEFT_OPS_PER_SECOND: int('Ops per second per actor and draft', 20, 1),
  WEFT_ACTIVITY_PER_SECOND: int('Activity reports per second per actor and draft (POST /v1/drafts/:id/activity, MCP report_activity)', 10, 1),
  WEFT_SESSION_IDLE_MS: int('Close a build session after this idle time, ms', 30 * 60_000, 1000),
  WEFT_MAX_BODY_BYTES: int('Largest request body or Yjs update, bytes', 512 * 1024, 1024),
  WEFT_MAX_BATCH: int('Most steps per group commit', 64, 1),
  WEFT_NODE_ID: optional('This session node\'s id when several nodes share one Postgres (drafts are leased to one owner; other nodes forward to it); unset = a single node'),
  WEFT_NODE_URL: optionalUrl('The URL other session nodes use to reach this one (default http://HOST:PORT)', ['http', 'https']),
  WEFT_LEASE_MS: int('How long a draft\'s lease lasts without renewal, ms (several nodes): a dead owner\'s drafts move after it', 5000, 200),
  WEFT_CORS_ORIGINS: origins('Web origins whose pages may call this API from the browser (CORS), e.g. the Build view served from another origin with WEFT_SESSION_URL; unset = the same origin only. Tokens travel in Authorization headers, never cookies'),
  WEFT_COMPACT_AFTER_STRUCTS: int('Start a new Yjs epoch (peers reload) once a draft\'s Yjs doc holds this many structs of history beyond a fresh build (and more than the build itself)', 500, 16),
} as const;

export interface SessionConfig {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string | null;
  /** Postgres queries as prepared statements (WEFT_DB_PREPARE). */
  readonly dbPrepare: boolean;
  /** At start, seconds to wait for Postgres to accept connections (WEFT_START_WAIT_S). */
  readonly startWaitS: number;
  readonly natsUrl: string | null;
  readonly dataDir: string;
  readonly adminToken: string | null;
  /** RFC budgets: ops per agent turn and ops per second per session. */
  readonly opsPerTurn: number;
  readonly opsPerSecond: number;
  /** Activity reports per second per actor and draft. */
  readonly activityPerSecond: number;
  readonly sessionIdleMs: number;
  /** Largest HTTP body / Yjs update accepted, bytes. */
  readonly maxBodyBytes: number;
  /** Group commit: most steps per transaction. */
  readonly maxBatch: number;
  /** Yjs compaction: a new epoch once a draft's lineage holds this many structs more than a fresh build (and twice as many). */
  readonly compactAfterStructs: number;
  /** Several session nodes: this node's id (unset = one node, no leases). */
  readonly nodeId: string | null;
  /** …and where the other nodes reach it (default http://HOST:PORT). */
  readonly nodeUrl: string | null;
  /** …and how long a draft's lease lasts without renewal (a dead owner's drafts move after it). */
  readonly leaseMs: number;
  /** Origins allowed to call the API from a browser (CORS); empty = none, ['*'] = any. */
  readonly corsOrigins: readonly string[];
  /** Webhook endpoints may be on non-public addresses (WEFT_WEBHOOK_ALLOW_PRIVATE, @weft/ops egressEnv). */
  readonly webhookAllowPrivate: boolean;
}

const fromEnv = (e: EnvValues<typeof sessionEnv>): Omit<SessionConfig, 'webhookAllowPrivate'> => ({
  port: e.PORT, host: e.HOST, databaseUrl: e.DATABASE_URL, dbPrepare: e.WEFT_DB_PREPARE, startWaitS: e.WEFT_START_WAIT_S, natsUrl: e.NATS_URL, dataDir: e.WEFT_DATA_DIR,
  adminToken: e.WEFT_ADMIN_TOKEN, opsPerTurn: e.WEFT_OPS_PER_TURN, opsPerSecond: e.WEFT_OPS_PER_SECOND,
  activityPerSecond: e.WEFT_ACTIVITY_PER_SECOND,
  sessionIdleMs: e.WEFT_SESSION_IDLE_MS, maxBodyBytes: e.WEFT_MAX_BODY_BYTES, maxBatch: e.WEFT_MAX_BATCH,
  compactAfterStructs: e.WEFT_COMPACT_AFTER_STRUCTS,
  nodeId: e.WEFT_NODE_ID, nodeUrl: e.WEFT_NODE_URL, leaseMs: e.WEFT_LEASE_MS, corsOrigins: e.WEFT_CORS_ORIGINS,
});

/** Throws ConfigError (one line naming the variable) on a bad value; the result is frozen. */
export function parseConfig(env: Readonly<Record<string, string | undefined>>, overrides: Partial<SessionConfig> = {}): SessionConfig {
  const egress = parseEnv(egressEnv, env);
  return Object.freeze({ ...fromEnv(parseEnv(sessionEnv, env)), webhookAllowPrivate: egress.WEFT_WEBHOOK_ALLOW_PRIVATE, ...overrides });
}
