export type { DB, DraftsTable, EventsTable, SnapshotsTable, TokensTable, SessionsTable, TurnsTable } from './schema.ts';
export { connectPostgres } from './connect-postgres.ts';
export type { Connection, ConnectOptions } from './connect-postgres.ts';
