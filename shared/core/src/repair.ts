// Deterministic repairs (RFC §6 step 2), each reported as a Note: snap names and enum values
// (edit distance ≤ 2, unique best), fill required props from the example, drop unknown props,
// rewrite positional / list-form paths to ids, keep order in step with sections.
import type { Catalog, CatalogEntry, JSONSchema } from './catalog/types.ts';
import { nearest } from './distance.ts';
import type { Draft, Json, JsonObject, Op } from './draft.ts';
import { cloneJson } from './json.ts';
import { isValidId } from './limits.ts';
import { arrayIndex, escapeSegment, formatPointer } from './pointer.ts';
import type { Problem } from './problem.ts';

/** An op ready to apply: pointers parsed, repairs done. */
export interface PreparedOp {
  op: Op;
  segs: string[];
  from: string[] | null;
}

const isObj = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Snaps enum values, drops unknown props and fills required ones, in place. */
export function repairProps(entry: CatalogEntry, props: JsonObject, at: string, notes: Problem[]): void {
  const schemaProps = entry.props['properties'] as Record<string, JSONSchema>;
  for (const k of Object.keys(props)) {
    const s = Object.hasOwn(schemaProps, k) ? schemaProps[k] : undefined;
    if (!s) {
      delete props[k];
      notes.push({ rule: 'dropped_prop', path: `${at}/${escapeSegment(k)}`, message: `dropped the unknown prop "${k}"; ${entry.name} takes ${Object.keys(schemaProps).join(', ') || 'no props'}` });
      continue;
    }
    const snapped = snapEnum(s, props[k]!);
    if (snapped !== null) {
      notes.push({ rule: 'snapped_name', path: `${at}/${escapeSegment(k)}`, message: `"${String(props[k])}" is not a value of ${entry.name}.${k}; snapped to "${snapped}"` });
      props[k] = snapped;
    }
  }
  for (const k of entry.required) {
    if (Object.hasOwn(props, k) || !Object.hasOwn(entry.example, k)) continue;
    props[k] = cloneJson(entry.example[k]!);
    notes.push({ rule: 'filled_required', path: `${at}/${escapeSegment(k)}`, message: `${entry.name} requires "${k}"; filled from the example with ${JSON.stringify(props[k]).slice(0, 100)}. Replace it with the real value` });
  }
}

/** The enum member a wrong string value snaps to, or null. */
export function snapEnum(schema: JSONSchema, v: Json): string | null {
  if (typeof v !== 'string') return null;
  const lit = schema['x-bindable'] === true ? ((schema['anyOf'] as JSONSchema[])[0] as JSONSchema) : schema;
  const en = lit['enum'] as string[] | undefined;
  if (!en || en.includes(v)) return null;
  return nearest(v, en, 2);
}

/** Snaps the component name, then repairs props. Unknown names are kept and flagged. */
export function repairComponent(c: JsonObject, catalog: Catalog, at: string, notes: Problem[]): void {
  const name = c['component'];
  if (typeof name !== 'string') return;
  let entry = catalog.getEntry(name);
  if (!entry) {
    const snapped = nearest(name, catalog.componentNames, 2);
    if (snapped !== null) {
      c['component'] = snapped;
      entry = catalog.getEntry(snapped);
      notes.push({ rule: 'snapped_name', path: `${at}/component`, message: `"${name}" is not in the catalog; snapped to "${snapped}"` });
    } else {
      notes.push({ rule: 'unknown_component', path: `${at}/component`, message: `"${name}" is not in the catalog; kept and shown as a placeholder. Catalog components: ${catalog.componentNames.join(', ')}` });
      return;
    }
  }
  if (!entry) return;
  if (c['props'] === undefined) {
    if (entry.required.length === 0) return;
    c['props'] = {};
  }
  const props = c['props'];
  if (isObj(props)) repairProps(entry, props, `${at}/props`, notes);
}

/** A section value: list-form components become the id-keyed map; every component repaired. */
function repairSectionValue(v: Json, sid: string, catalog: Catalog, at: string, notes: Problem[]): Problem | null {
  if (!isObj(v)) return null;
  if (v['id'] === undefined) {
    v['id'] = sid;
    notes.push({ rule: 'filled_required', path: `${at}/id`, message: `section id filled from the path: "${sid}"` });
  }
  if (v['kind'] === undefined) {
    v['kind'] = 'surface';
    notes.push({ rule: 'filled_required', path: `${at}/kind`, message: 'section kind filled: "surface"' });
  }
  if (v['catalog'] === undefined) {
    v['catalog'] = catalog.id;
    notes.push({ rule: 'filled_required', path: `${at}/catalog`, message: `section catalog filled: "${catalog.id}"` });
  }
  if (v['data'] === undefined) v['data'] = {};
  if (v['components'] === undefined) v['components'] = {};
  const list = v['components'];
  if (Array.isArray(list)) {
    const map: JsonObject = {};
    for (let i = 0; i < list.length; i++) {
      const c = list[i];
      const id = isObj(c) ? c['id'] : undefined;
      if (!isValidId(id)) return { rule: 'invalid_id', path: `${at}/components/${i}`, message: `component ${i} of section "${sid}" needs an "id" matching [a-z][a-z0-9-]{0,40}` };
      if (Object.hasOwn(map, id)) return { rule: 'duplicate_id', path: `${at}/components/${i}`, message: `component id "${id}" is used twice in section "${sid}"; ids are unique per surface` };
      map[id] = c!;
    }
    v['components'] = map;
    notes.push({ rule: 'rewrote_path', path: `${at}/components`, message: `components given as a list were keyed by id (components is a map: {"root": {...}, ...})` });
  }
  const comps = v['components'];
  if (isObj(comps)) {
    for (const id of Object.keys(comps)) {
      const c = comps[id];
      if (isObj(c)) repairComponent(c, catalog, `${at}/components/${escapeSegment(id)}`, notes);
    }
  }
  return null;
}

/** Rewrites `/sections/<n>/…` (an index into order) to `/sections/<id>/…`. */
function rewriteSectionIndex(d: Draft, segs: string[], notes: Problem[], original: string): Problem | null {
  if (segs[0] !== 'sections' || segs.length < 2) return null;
  const i = arrayIndex(segs[1]!);
  if (i < 0) return null;
  const id = d.order[i];
  if (id === undefined) {
    return { rule: 'path_not_found', path: original, message: `there is no section at position ${i} (the page has ${d.order.length}); address sections by id: /sections/<id>` };
  }
  segs[1] = id;
  notes.push({ rule: 'rewrote_path', path: original, message: `section position ${i} rewritten to its id: ${formatPointer(segs)}` });
  return null;
}

/**
 * Repairs one op (already shape-checked, pointers parsed). Returns the ops to apply (one, or
 * two when order follows a section) with the notes, or a problem when it cannot be made sense of.
 */
export function repairOp(d: Draft, op: Op, segs: string[], from: string[] | null, catalog: Catalog): { ok: true; ops: PreparedOp[]; notes: Problem[] } | { ok: false; error: Problem } {
  const notes: Problem[] = [];
  let s = segs;
  let f = from;
  // Positional section paths.
  if (s[0] === 'sections' && s.length >= 2 && arrayIndex(s[1]!) >= 0) {
    s = [...s];
    const p = rewriteSectionIndex(d, s, notes, op.path);
    if (p) return { ok: false, error: p };
  }
  if (f && f[0] === 'sections' && f.length >= 2 && arrayIndex(f[1]!) >= 0) {
    f = [...f];
    const p = rewriteSectionIndex(d, f, notes, (op as { from: string }).from);
    if (p) return { ok: false, error: p };
  }
  const hasValue = op.op === 'add' || op.op === 'replace';
  const value = hasValue ? (op as { value: Json }).value : undefined;
  // "/sections/-" with a section value.
  if (op.op === 'add' && s[0] === 'sections' && s.length === 2 && s[1] === '-') {
    const id = isObj(value) ? value['id'] : undefined;
    if (!isValidId(id)) return { ok: false, error: { rule: 'invalid_id', path: op.path, message: 'a section added at /sections/- needs an "id" matching [a-z][a-z0-9-]{0,40}; better: add it at /sections/<id>' } };
    s = ['sections', id];
    notes.push({ rule: 'rewrote_path', path: op.path, message: `"/sections/-" rewritten to the section's id: /sections/${id}` });
  }
  // "/sections/<sid>/components/-" or ".../<n>" with a component value.
  if (op.op === 'add' && s[0] === 'sections' && s.length === 4 && s[2] === 'components' && (s[3] === '-' || arrayIndex(s[3]!) >= 0)) {
    const id = isObj(value) ? value['id'] : undefined;
    if (!isValidId(id)) return { ok: false, error: { rule: 'invalid_id', path: op.path, message: 'a component added to a list position needs an "id" matching [a-z][a-z0-9-]{0,40}; components is keyed by id: add at /sections/<sid>/components/<id>' } };
    const before = formatPointer(s);
    s = [...s.slice(0, 3), id];
    notes.push({ rule: 'rewrote_path', path: op.path, message: `${before} rewritten to the component's id: ${formatPointer(s)}` });
  }
  const path = s === segs ? op.path : formatPointer(s);
  const fromPath = f === from ? (op as { from?: string }).from : f ? formatPointer(f) : undefined;
  let out: Op;
  if (op.op === 'move' || op.op === 'copy') out = { op: op.op, from: fromPath!, path };
  else if (op.op === 'remove') out = { op: 'remove', path };
  else out = { ...op, path } as Op;
  const ops: PreparedOp[] = [{ op: out, segs: s, from: f }];

  if (s[0] === 'sections' && hasValue && isObj(value)) {
    const sid = s[1]!;
    if (s.length === 2) {
      const p = repairSectionValue(value, sid, catalog, path, notes);
      if (p) return { ok: false, error: p };
      if (op.op === 'add' && !d.order.includes(sid) && !Object.hasOwn(d.sections, sid)) {
        ops.push({ op: { op: 'add', path: '/order/-', value: sid }, segs: ['order', '-'], from: null });
        notes.push({ rule: 'rewrote_path', path: '/order/-', message: `section "${sid}" appended to order` });
      }
    } else if (s.length === 4 && s[2] === 'components') {
      if (value['id'] === undefined) {
        value['id'] = s[3]!;
        notes.push({ rule: 'filled_required', path: `${path}/id`, message: `component id filled from the path: "${s[3]}"` });
      }
      repairComponent(value, catalog, path, notes);
    } else if (s.length === 5 && s[2] === 'components' && s[4] === 'props') {
      const c = d.sections[sid]?.components[s[3]!];
      const entry = c ? catalog.getEntry(c.component) : undefined;
      if (entry) repairProps(entry, value, path, notes);
    }
  }
  if (s[0] === 'sections' && hasValue && s.length === 5 && s[2] === 'components' && s[4] === 'component' && typeof value === 'string') {
    if (!catalog.getEntry(value)) {
      const snapped = nearest(value, catalog.componentNames, 2);
      if (snapped !== null) {
        (out as { value: Json }).value = snapped;
        notes.push({ rule: 'snapped_name', path, message: `"${value}" is not in the catalog; snapped to "${snapped}"` });
      } else notes.push({ rule: 'unknown_component', path, message: `"${value}" is not in the catalog; kept and shown as a placeholder` });
    }
  }
  if (s[0] === 'sections' && hasValue && s.length === 6 && s[2] === 'components' && s[4] === 'props' && typeof value === 'string') {
    const c = d.sections[s[1]!]?.components[s[3]!];
    const entry = c ? catalog.getEntry(c.component) : undefined;
    const ps = entry ? (entry.props['properties'] as Record<string, JSONSchema>)[s[5]!] : undefined;
    if (entry && ps && Object.hasOwn(entry.props['properties'] as object, s[5]!)) {
      const snapped = snapEnum(ps, value);
      if (snapped !== null) {
        (out as { value: Json }).value = snapped;
        notes.push({ rule: 'snapped_name', path, message: `"${value}" is not a value of ${entry.name}.${s[5]}; snapped to "${snapped}"` });
      }
    }
  }
  // Removing a section takes it out of order too.
  if (op.op === 'remove' && s[0] === 'sections' && s.length === 2) {
    const i = d.order.indexOf(s[1]!);
    if (i >= 0) {
      ops.push({ op: { op: 'remove', path: `/order/${i}` }, segs: ['order', String(i)], from: null });
      notes.push({ rule: 'rewrote_path', path: `/order/${i}`, message: `section "${s[1]}" removed from order too` });
    }
  }
  return { ok: true, ops, notes };
}
