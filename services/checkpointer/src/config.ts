// Config parsed once by main.ts (CONVENTIONS.md §15): each option with its env name and check.
export interface CheckpointerEnvConfig {
  readonly databaseUrl: string;
  readonly natsUrl: string;
  readonly quietMs: number;
  readonly everyOps: number;
  readonly headCheckMs: number;
  readonly cacheDrafts: number;
}

const int = (env: Record<string, string | undefined>, name: string, dflt: number, min: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
};

export function parseConfig(env: Record<string, string | undefined>): CheckpointerEnvConfig {
  const databaseUrl = env['DATABASE_URL'];
  const natsUrl = env['NATS_URL'];
  if (!databaseUrl) throw new Error('DATABASE_URL is required (the checkpointer runs standalone on Postgres)');
  if (!natsUrl) throw new Error('NATS_URL is required (standalone; the in-process bus only exists inside `npm start`)');
  return Object.freeze({
    databaseUrl,
    natsUrl,
    quietMs: int(env, 'WEFT_CHECKPOINT_QUIET_MS', 2000, 1),
    everyOps: int(env, 'WEFT_CHECKPOINT_EVERY_OPS', 50, 1),
    headCheckMs: int(env, 'WEFT_CHECKPOINT_HEAD_CHECK_MS', 5000, 100),
    // Open folds kept between snapshots (one Y.Doc + JSON each); 0 = always fold from the stored state.
    cacheDrafts: int(env, 'WEFT_CHECKPOINT_CACHE_DRAFTS', 256, 0),
  });
}
