export type { DB, DraftsTable, EventsTable, SnapshotsTable, TokensTable, SessionsTable, TurnsTable, RunsTable, RunEventsTable, WebhookEndpointsTable, WebhookDeliveriesTable, WebhookCursorTable, ActivityTable } from './schema.ts';
export { RunStore } from './run-store.ts';
export { ActivityStore } from './activity-store.ts';
export type { NewActivity } from './activity-store.ts';
export { connectPostgres } from './connect-postgres.ts';
export type { Connection, ConnectOptions } from './connect-postgres.ts';
export { DatabaseUnreachable, waitForDatabase } from './wait-for-database.ts';
export { DamagedDataDir, openPGlite } from './pglite.ts';
export { DataDirInUse } from './data-dir-lock.ts';
export { checkIntegrity } from './integrity.ts';
export type { IntegrityFault } from './integrity.ts';
export { EventStore } from './event-store.ts';
export { loadDraft } from './load-draft.ts';
export { MemoryLog } from './memory-log.ts';
export type { RoomLoad } from './load-room.ts';
export type { SnapshotTarget, StepRange } from './checkpoint-batch.ts';
export type { RoomLog } from './room-log.ts';
export type { StepViewsPage } from './read-step-views.ts';
export type { Fence, LeaseView } from './leases.ts';
export { TokenStore, hashToken } from './token-store.ts';
export { SessionStore } from './session-store.ts';
export { WebhookStore } from './webhook-store.ts';
export type { AttemptOutcome, ClaimedDelivery, DeliveryAttempt, DeliveryStatus, WebhookDelivery, WebhookEndpoint } from './webhook-store.ts';
export type {
  ActorKind, AppendError, DraftMeta, NewSnapshot, NewStep, Scope, SessionRecord, Snapshot, SnapshotEntry,
  StoredStep, StepKind, TokenRecord, TurnRecord,
} from './types.ts';
export { isDatabaseUnavailable } from './unavailable.ts';
