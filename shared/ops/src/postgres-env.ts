// The Postgres connection switch every process with a DATABASE_URL reads (docs/config.md), passed
// to connectPostgres (shared/store/src/connect-postgres.ts).
import { bool } from './env.ts';

export const postgresEnv = {
  WEFT_DB_PREPARE: bool('Run Postgres queries as prepared statements (one round trip each, parsed once per connection); 0 behind a pooler in transaction mode that does not track them (PgBouncer before 1.21)', true),
} as const;
