// Conversion notes: every import or export says what it changed or left out (PROTOCOLS.md §5).
import type { Json } from '@weft/core';

/** Stable note codes; README.md lists them with their meaning. */
export const NOTE_CODES = [
  'id-renamed', 'template-expanded', 'component-dropped', 'component-unknown', 'component-mapped',
  'prop-dropped', 'action-dropped', 'function-unknown', 'function-mapped', 'visibility-dropped',
  'style-unmapped', 'children-mismatch', 'root-synthesized', 'unreachable-dropped', 'data-invalid',
  'message-invalid', 'surface-deleted', 'surface-skipped', 'value-invalid', 'condition-mapped',
  'components-buffered',
] as const;
export type NoteCode = (typeof NOTE_CODES)[number];

export interface InteropNote {
  code: NoteCode;
  /** JSON Pointer into the source document (import) or the section (export). */
  path: string;
  message: string;
  /** True when information was lost (a round trip cannot restore it). */
  lossy: boolean;
  /** Machine-readable detail; `id-renamed` carries `{ from, to }` so export can restore ids. */
  detail?: { [key: string]: Json };
}

/** A conversion result: the value plus everything that was not carried over 1:1. */
export interface Converted<T> { value: T; notes: InteropNote[] }

export function note(code: NoteCode, path: string, message: string, lossy: boolean, detail?: { [key: string]: Json }): InteropNote {
  return detail === undefined ? { code, path, message, lossy } : { code, path, message, lossy, detail };
}
