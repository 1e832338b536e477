// The bind invariant of reader actions: before any agent hears of a control's event, the server
// writes the value the reader set into the data model at the control's own {path} binding, so the
// agent's job is only the arithmetic downstream. Only that path, only a value the control could
// have produced (a Slider within min..max, one of a Toggle's options, …). Pure.
import { escapeSegment, formatPointer, isBinding, parsePointer, resolveValue } from '@weft/core';
import type { Draft, Json, Op } from '@weft/core';
import type { ReaderAction } from '@weft/protocol';

export type BoundWrite = { ok: true; ops: Op[]; written: string[] } | { ok: false; path: string; message: string };

const own = <T>(o: unknown, k: string): T | undefined =>
  o !== null && typeof o === 'object' && Object.hasOwn(o, k) ? (o as Record<string, T>)[k] : undefined;

export function boundWrite(draft: Draft, a: ReaderAction): BoundWrite {
  const section = own<Draft['sections'][string]>(draft.sections, a.surfaceId);
  if (section === undefined) return { ok: false, path: '/action/surfaceId', message: `No surface "${a.surfaceId}" in this draft.` };
  const comp = own<{ component?: unknown; props?: Record<string, Json> }>(section.components, a.sourceComponentId);
  if (comp === undefined) return { ok: false, path: '/action/sourceComponentId', message: `No component "${a.sourceComponentId}" in surface "${a.surfaceId}".` };
  const binding = own<Json>(comp.props, 'value');
  if (!isBinding(binding)) return { ok: true, ops: [], written: [] };
  const pointer = parsePointer(binding.path);
  if (!pointer.ok || !Object.hasOwn(a.context, binding.path)) return { ok: true, ops: [], written: [] };
  const at = `/action/context/${escapeSegment(binding.path)}`;
  const value = allowed(String(comp.component), comp.props ?? {}, a.context[binding.path] as Json, section.data);
  if (!value.ok) return { ok: false, path: at, message: value.message };
  const path = `/sections/${escapeSegment(a.surfaceId)}/data${formatPointer(pointer.value)}`;
  return { ok: true, ops: [{ op: 'add', path, value: value.value }], written: [binding.path] };
}

function allowed(kind: string, props: Record<string, Json>, v: Json, data: Json): { ok: true; value: Json } | { ok: false; message: string } {
  const num = (k: string, d?: number): number | undefined => {
    const r = Object.hasOwn(props, k) ? resolveValue(props[k] as Json, data) : undefined;
    return typeof r === 'number' && Number.isFinite(r) ? r : d;
  };
  switch (kind) {
    case 'Slider':
    case 'Counter': {
      const lo = num('min', kind === 'Slider' ? 0 : undefined);
      const hi = num('max');
      if (typeof v !== 'number' || !Number.isFinite(v)) return { ok: false, message: `${kind} values are numbers.` };
      if ((lo !== undefined && v < lo) || (hi !== undefined && v > hi)) return { ok: false, message: `${kind} value ${v} is outside ${lo ?? '-∞'}..${hi ?? '∞'}.` };
      return { ok: true, value: v };
    }
    case 'Toggle':
    case 'Select': {
      const options = Array.isArray(props['options']) ? props['options'] : [];
      for (const o of options) {
        const ov = o !== null && typeof o === 'object' && !Array.isArray(o) ? o['value'] : o;
        if (ov !== undefined && String(ov) === String(v)) return { ok: true, value: ov };
      }
      return { ok: false, message: `${JSON.stringify(v)?.slice(0, 40)} is not one of the ${kind}'s options.` };
    }
    case 'Checkbox':
      return typeof v === 'boolean' ? { ok: true, value: v } : { ok: false, message: 'Checkbox values are true or false.' };
    case 'TextField':
    case 'TextArea':
      return typeof v === 'string' && v.length <= 10_000 ? { ok: true, value: v } : { ok: false, message: 'Text values are strings of at most 10 000 characters.' };
    default:
      return { ok: false, message: `${kind} does not write a value.` };
  }
}
