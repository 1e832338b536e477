// The Postgres connection switch every process with a DATABASE_URL reads (docs/config.md), passed
// to connectPostgres (shared/store/src/connect-postgres.ts).
import { bool, int } from './env.ts';

export const postgresEnv = {
  WEFT_DB_PREPARE: bool('Run Postgres queries as prepared statements (one round trip each, parsed once per connection); 0 behind a pooler in transaction mode that does not track them (PgBouncer before 1.21)', true),
  WEFT_DB_WAIT_S: int('At start, how long to wait for Postgres to accept connections (it may still be starting), seconds; each try is logged. 0 = give up at the first failure. A wrong password or database name fails at once', 30, 0, 3600),
} as const;
