// Folding one page of committed steps into a draft: the one definition of replay, used on the main
// thread for short tails and in the replay worker for long logs. Pure (no I/O).
// The apply module alone: the worker starts without compiling the core's schemas (ajv).
import { applyOwned } from '@weft/core/apply';
import type { Draft, Op } from '@weft/core';

/** Applies the page's steps (versions first, first+1, …) in order; throws naming the step that fails. */
export function foldPage(draftId: string, draft: Draft, first: number, text: string): void {
  const steps = JSON.parse(text) as Op[][];
  for (let i = 0; i < steps.length; i++) {
    // Committed ops were validated before append: a failure here is corruption, never skipped.
    // The parsed steps are this fold's own (dropped after it), so the draft takes their values.
    const r = applyOwned(draft, steps[i]!);
    if (!r.ok) throw new Error(`draft ${draftId} v${first + i} does not replay: op ${r.error.index}: ${r.error.message}`);
  }
}
