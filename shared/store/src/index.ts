export type { DB, DraftsTable, EventsTable, SnapshotsTable, TokensTable, SessionsTable, TurnsTable } from './schema.ts';
export { connectPostgres } from './connect-postgres.ts';
export type { Connection, ConnectOptions } from './connect-postgres.ts';
export { DamagedDataDir, openPGlite } from './pglite.ts';
export { checkIntegrity } from './integrity.ts';
export type { IntegrityFault } from './integrity.ts';
export { EventStore } from './event-store.ts';
export { loadDraft } from './load-draft.ts';
export { TokenStore, hashToken } from './token-store.ts';
export { SessionStore } from './session-store.ts';
export { GLOBAL_START } from './types.ts';
export type {
  ActorKind, AppendError, DraftMeta, GlobalBatch, GlobalCursor, NewSnapshot, NewStep, Scope, SessionRecord, Snapshot,
  StoredStep, StepKind, TokenRecord, TurnRecord,
} from './types.ts';
