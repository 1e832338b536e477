// The Postgres connection switches every process with a DATABASE_URL reads (docs/config.md), passed
// to connectPostgres (shared/store/src/connect-postgres.ts), and how long such a process waits at
// start for Postgres and NATS (waitForDatabase, createNatsBus).
import { bool, int } from './env.ts';

export const postgresEnv = {
  WEFT_DB_PREPARE: bool('Run Postgres queries as prepared statements (one round trip each, parsed once per connection); 0 behind a pooler in transaction mode that does not track them (PgBouncer before 1.21)', true),
  WEFT_START_WAIT_S: int('At start, how long to wait for Postgres (and NATS, with NATS_URL) to accept connections while they may still be starting, seconds; each try is logged. 0 = give up at the first failure. A wrong password or database name fails at once', 30, 0, 3600),
} as const;
