export { build, silentLogger } from './app.ts';
export type { Checkpointer, CheckpointerConfig, CheckpointerDeps, CheckpointRecord, Logger, SnapshotReason } from './app.ts';
export { foldSnapshot } from './fold.ts';
export type { Folded, PrevSnapshot, TailStep } from './fold.ts';
export { parseConfig } from './config.ts';
export type { CheckpointerEnvConfig } from './config.ts';
