export { build, silentLogger } from './app.ts';
export type { Checkpointer, CheckpointerConfig, CheckpointerDeps, CheckpointRecord, Logger, SnapshotReason } from './app.ts';
export { DraftFold, foldSnapshot, yBaseOf } from './fold.ts';
export type { Folded, PrevSnapshot, TailStep, YBase } from './fold.ts';
export { parseConfig, parseStandalone, checkpointerEnv, standaloneEnv } from './config.ts';
export { checkpointerMetrics } from './metrics.ts';
export type { CheckpointerEnvConfig } from './config.ts';
