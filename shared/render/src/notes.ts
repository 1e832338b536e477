import type { Rule } from '@weft/core';

/**
 * A fidelity note: something in the draft that did not render as written. `broken` means the
 * output is not what the draft asked for (a placeholder, an inert link); `approximate` means it
 * rendered the right thing inexactly (an unknown enum value fell back to its default).
 */
export interface RenderNote {
  componentId: string;
  sectionId: string;
  rule: Rule;
  message: string;
  severity: 'broken' | 'approximate';
}

/** True when any note says the output is not what the draft asked for. */
export function anyBroken(notes: readonly RenderNote[]): boolean {
  return notes.some((n) => n.severity === 'broken');
}
