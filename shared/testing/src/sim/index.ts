// Reusable simulation helpers (CONVENTIONS.md §12). Not yet re-exported from the package index
// (shared/testing/src/index.ts belongs to its owner): import this file directly until it is.
export { randomEdit, treeBreakingPair, simSection, parentOf, subtree, applies } from './edits.ts';
export type { SimEdit, EditIntent } from './edits.ts';
export { simLog, withSimLog } from './log.ts';
export type { SimLog } from './log.ts';
export { until, settle, sleep, percentile, jsonDiff } from './converge.ts';
