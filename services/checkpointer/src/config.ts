// Config parsed once by main.ts (CONVENTIONS.md §15). `checkpointerEnv`: the worker's tuning (also
// read by `npm start`'s in-process checkpointer); `standaloneEnv`: what the standalone worker
// (main.ts) needs on top. docs/config.md is generated from both.
import { int, parseEnv, postgresEnv, str, url } from '@weft/ops';
import type { CheckpointerConfig } from './app.ts';

export const checkpointerEnv = {
  WEFT_CHECKPOINT_QUIET_MS: int('Snapshot a draft after this long without a new version, ms', 2000, 1),
  WEFT_CHECKPOINT_QUIET_GAP_MS: int('At most one quiet snapshot of a draft this often (an editor pausing between single edits would otherwise snapshot every op), ms', 30_000, 0),
  WEFT_CHECKPOINT_EVERY_OPS: int('Snapshot once this many ops accumulated since the last snapshot', 50, 1),
  WEFT_CHECKPOINT_HEAD_CHECK_MS: int('How often followed drafts compare against the log head (catch-up after bus outages), ms', 5000, 100),
  WEFT_CHECKPOINT_CACHE_DRAFTS: int('Open folds kept between snapshots (one Y.Doc + JSON each); 0 = always fold from the stored state', 256, 0),
  WEFT_CHECKPOINT_BATCH_DRAFTS: int('Drafts snapshotted together at most (snapshots that come due together are read and written in one statement each)', 100, 1),
  WEFT_CHECKPOINT_PER_SECOND: int('Snapshots started per second at most: a burst is spread over seconds in small batches (0 = unpaced)', 100, 0),
} as const;

export const standaloneEnv = {
  PORT: int('Port of the operator endpoints /healthz, /readyz, /metrics (0 = any free port)', 8082, 0, 65535),
  HOST: str('Interface to listen on', '127.0.0.1'),
  DATABASE_URL: url('Postgres URL', ['postgres', 'postgresql']),
  ...postgresEnv,
  NATS_URL: url('NATS URL', ['nats', 'tls']),
} as const;

export type CheckpointerEnvConfig = Readonly<Required<Pick<CheckpointerConfig, 'quietMs' | 'quietGapMs' | 'everyOps' | 'headCheckMs' | 'cacheDrafts' | 'batchDrafts' | 'perSecond'>>>;

/** Throws ConfigError (one line naming the variable) on a bad value; the result is frozen. */
export function parseConfig(env: Readonly<Record<string, string | undefined>>): CheckpointerEnvConfig {
  const e = parseEnv(checkpointerEnv, env);
  return Object.freeze({
    quietMs: e.WEFT_CHECKPOINT_QUIET_MS, quietGapMs: e.WEFT_CHECKPOINT_QUIET_GAP_MS, everyOps: e.WEFT_CHECKPOINT_EVERY_OPS,
    headCheckMs: e.WEFT_CHECKPOINT_HEAD_CHECK_MS, cacheDrafts: e.WEFT_CHECKPOINT_CACHE_DRAFTS,
    batchDrafts: e.WEFT_CHECKPOINT_BATCH_DRAFTS, perSecond: e.WEFT_CHECKPOINT_PER_SECOND,
  });
}

export function parseStandalone(env: Readonly<Record<string, string | undefined>>): { readonly port: number; readonly host: string; readonly databaseUrl: string; readonly dbPrepare: boolean; readonly startWaitS: number; readonly natsUrl: string } {
  const e = parseEnv(standaloneEnv, env);
  return Object.freeze({ port: e.PORT, host: e.HOST, databaseUrl: e.DATABASE_URL, dbPrepare: e.WEFT_DB_PREPARE, startWaitS: e.WEFT_START_WAIT_S, natsUrl: e.NATS_URL });
}
