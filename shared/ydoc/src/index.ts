export { draftToYDoc, yDocToDraft, readEpoch, draftRoots, genesis, epochBase, isStaleEpoch } from './mirror.ts';
export type { DraftRoots } from './mirror.ts';
export { applyOpsToYDoc, applyOpToYDoc } from './apply-ops.ts';
export { yEventsToOps, observeDraftOps } from './events-to-ops.ts';
export { createShadow, UpdateGuard, EMPTY_UPDATE } from './update-guard.ts';
export { hasMissingParents } from './dependencies.ts';
export type { GuardResult } from './update-guard.ts';
export { YDocPathError, parsePointer, formatPointer } from './pointer.ts';
export { META, ORDER, SECTIONS_ROOT } from './shape.ts';
