// One step: what one submission (an opId) applied, as the log keeps it — the one type of the
// concept. The store's row extends it (version, position, time, body hash, Yjs bytes), the room's
// committed step adds what fan-out needs, and the wire view (`StepView` in @weft/protocol) derives
// from it.
import type { Note, Refusal } from './errors.ts';
import type { Op } from './draft.ts';

/** `undo`/`redo` steps reverse the versions in `undoOf`. */
export type StepKind = 'do' | 'undo' | 'redo';

export interface Step {
  opId: string;
  actor: string;
  actorKind: string;
  sessionId: string | null;
  turnId: string | null;
  /** The ops as applied, after repair. */
  ops: Op[];
  /** Their inverse, newest first (undo applies it). */
  inverse: Op[];
  notes: Note[];
  refused: Refusal[];
  kind: StepKind;
  undoOf: number[];
}

