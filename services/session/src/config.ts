// Config parsed once by main.ts/start.ts; nothing else reads process.env (CONVENTIONS.md §15).

export interface SessionConfig {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string | null;
  readonly natsUrl: string | null;
  readonly dataDir: string;
  readonly adminToken: string | null;
  /** RFC budgets: ops per agent turn and ops per second per session. */
  readonly opsPerTurn: number;
  readonly opsPerSecond: number;
  readonly sessionIdleMs: number;
  /** Largest HTTP body / Yjs update accepted, bytes. */
  readonly maxBodyBytes: number;
  /** Group commit: most steps per transaction. */
  readonly maxBatch: number;
  /** Yjs compaction: a new epoch once a draft's lineage holds this many structs more than a fresh build (and twice as many). */
  readonly compactAfterStructs: number;
}

interface Option<K extends keyof SessionConfig> {
  env: string;
  description: string;
  parse: (raw: string | undefined) => SessionConfig[K];
}

const int = (name: string, dflt: number, min = 0) => (raw: string | undefined): number => {
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
};
const str = (dflt: string) => (raw: string | undefined): string => (raw === undefined || raw === '' ? dflt : raw);
const optional = (raw: string | undefined): string | null => (raw === undefined || raw === '' ? null : raw);

export const options: { [K in keyof SessionConfig]: Option<K> } = {
  port: { env: 'PORT', description: 'HTTP port (0 = any free port)', parse: int('PORT', 8080) },
  host: { env: 'HOST', description: 'Interface to listen on', parse: str('127.0.0.1') },
  databaseUrl: { env: 'DATABASE_URL', description: 'Postgres URL; unset = embedded PGlite under WEFT_DATA_DIR', parse: optional },
  natsUrl: { env: 'NATS_URL', description: 'NATS URL; unset = in-process bus', parse: optional },
  dataDir: { env: 'WEFT_DATA_DIR', description: 'Embedded data directory', parse: str('.weft') },
  adminToken: { env: 'WEFT_ADMIN_TOKEN', description: 'Admin bearer token (never printed); unset = generated, kept in the data dir and printed', parse: optional },
  opsPerTurn: { env: 'WEFT_OPS_PER_TURN', description: 'Op budget of one agent turn', parse: int('WEFT_OPS_PER_TURN', 500, 1) },
  opsPerSecond: { env: 'WEFT_OPS_PER_SECOND', description: 'Ops per second per session', parse: int('WEFT_OPS_PER_SECOND', 20, 1) },
  sessionIdleMs: { env: 'WEFT_SESSION_IDLE_MS', description: 'Close a session after this idle time', parse: int('WEFT_SESSION_IDLE_MS', 30 * 60_000, 1000) },
  maxBodyBytes: { env: 'WEFT_MAX_BODY_BYTES', description: 'Largest request body or Yjs update', parse: int('WEFT_MAX_BODY_BYTES', 512 * 1024, 1024) },
  maxBatch: { env: 'WEFT_MAX_BATCH', description: 'Most steps per group commit', parse: int('WEFT_MAX_BATCH', 64, 1) },
  compactAfterStructs: { env: 'WEFT_COMPACT_AFTER_STRUCTS', description: 'Start a new Yjs epoch (peers reload) once a draft\'s Yjs doc holds this many structs of history beyond a fresh build (and more than the build itself)', parse: int('WEFT_COMPACT_AFTER_STRUCTS', 500, 16) },
};

export function parseConfig(env: Record<string, string | undefined>, overrides: Partial<SessionConfig> = {}): SessionConfig {
  const out: Record<string, unknown> = {};
  for (const [key, opt] of Object.entries(options) as [keyof SessionConfig, Option<keyof SessionConfig>][]) {
    out[key] = key in overrides ? overrides[key] : opt.parse(env[opt.env]);
  }
  return Object.freeze(out) as unknown as SessionConfig;
}
