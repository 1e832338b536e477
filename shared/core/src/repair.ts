// Deterministic repairs (RFC §6 step 2), each reported as a Note: snap names and enum values
// (case- and separator-folded first, then edit distance ≤ 2, unique best), rename known aliases
// and move inline props under props, read quoted numbers/booleans the schema asks for, drop
// unknown props (nested ones too), fill required props from the example, rewrite positional /
// list-form paths and camelCase ids, and keep order in step with sections.
import type { Catalog, CatalogEntry, JSONSchema } from './catalog/types.ts';
import { snapName } from './distance.ts';
import type { Draft, Json, JsonObject, Op } from './draft.ts';
import { cloneJson, isJsonObject } from './json.ts';
import { isValidId } from './limits.ts';
import { arrayIndex, escapeSegment, formatPointer } from './pointer.ts';
import { clipText } from './text.ts';
import type { Problem } from './problem.ts';
import { kebabPath, kebabValue, lookup, rewriteComponentIndex, rewriteSectionIndex } from './repair-paths.ts';
import { conformValue } from './repair-values.ts';

/** An op ready to apply: pointers parsed, repairs done. */
export interface PreparedOp {
  op: Op;
  segs: string[];
  from: string[] | null;
}

/** Renames aliases, snaps enum values, conforms values, drops unknown props and fills required
 *  ones, in place. Aliases come first, so a fill never hides a prop sent under another name. */
export function repairProps(entry: CatalogEntry, props: JsonObject, at: string, notes: Problem[]): void {
  const schemaProps = entry.props['properties'] as Record<string, JSONSchema>;
  for (const k of Object.keys(props)) {
    const to = Object.hasOwn(entry.aliases, k) && !Object.hasOwn(schemaProps, k) ? entry.aliases[k]! : undefined;
    if (to === undefined || Object.hasOwn(props, to)) continue;
    props[to] = props[k]!;
    delete props[k];
    notes.push({ rule: 'renamed_prop', path: `${at}/${escapeSegment(k)}`, message: `${entry.name} has no prop "${k}"; read as "${to}"` });
  }
  const dropped: string[] = [];
  for (const k of Object.keys(props)) {
    const s = Object.hasOwn(schemaProps, k) ? schemaProps[k] : undefined;
    if (!s) {
      dropped.push(k);
      delete props[k];
      notes.push({ rule: 'dropped_prop', path: `${at}/${escapeSegment(k)}`, message: `dropped the unknown prop "${k}"; ${entry.name} takes ${Object.keys(schemaProps).join(', ') || 'no props'}` });
      continue;
    }
    const snapped = snapEnum(s, props[k]!);
    if (snapped !== null) {
      notes.push({ rule: 'snapped_name', path: `${at}/${escapeSegment(k)}`, message: `"${String(props[k])}" is not a value of ${entry.name}.${k}; snapped to "${snapped}"` });
      props[k] = snapped;
    }
    props[k] = conformValue(s, props[k]!, `${at}/${escapeSegment(k)}`, notes);
  }
  for (const k of entry.required) {
    if (Object.hasOwn(props, k) || !Object.hasOwn(entry.example, k)) continue;
    props[k] = cloneJson(entry.example[k]!);
    // Say what was dropped beside it: the model may have meant one of those as this prop.
    const meant = dropped.length > 0 ? ` (you sent ${dropped.map((x) => `"${x}"`).join(', ')}, which ${entry.name} does not take: if you meant "${k}", write "${k}")` : '';
    notes.push({ rule: 'filled_required', path: `${at}/${escapeSegment(k)}`, message: `${entry.name} requires "${k}"; filled from the example with ${clipText(JSON.stringify(props[k]), 100)}. Replace it with the real value${meant}` });
  }
}

/** The enum member a wrong string value snaps to, or null. */
export function snapEnum(schema: JSONSchema, v: Json): string | null {
  if (typeof v !== 'string') return null;
  const lit = schema['x-bindable'] === true ? ((schema['anyOf'] as JSONSchema[])[0] as JSONSchema) : schema;
  const en = lit['enum'] as string[] | undefined;
  if (!en || en.includes(v)) return null;
  return snapName(v, en, 2);
}

const COMPONENT_KEYS = new Set(['id', 'component', 'props', 'children', 'visible']);

/** Snaps the component name, then repairs props. Unknown names are kept and flagged. */
export function repairComponent(c: JsonObject, catalog: Catalog, at: string, notes: Problem[]): void {
  const name = c['component'];
  if (typeof name !== 'string') return;
  let entry = catalog.getEntry(name);
  if (!entry) {
    const snapped = snapName(name, catalog.componentNames, 2);
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
  // A2UI writes props inline beside id and component: what the entry knows moves under props.
  const known = entry.props['properties'] as Record<string, JSONSchema>;
  for (const k of Object.keys(c)) {
    if (COMPONENT_KEYS.has(k) || !(Object.hasOwn(known, k) || Object.hasOwn(entry.aliases, k))) continue;
    if (!isJsonObject(c['props'])) c['props'] = {};
    const props = c['props'] as JsonObject;
    if (!Object.hasOwn(props, k)) props[k] = c[k]!;
    delete c[k];
    notes.push({ rule: 'renamed_prop', path: `${at}/${escapeSegment(k)}`, message: `"${k}" written beside props; moved under props` });
  }
  if (c['props'] === undefined) {
    if (entry.required.length === 0) return;
    c['props'] = {};
  }
  const props = c['props'];
  if (isJsonObject(props)) repairProps(entry, props, `${at}/props`, notes);
}

/** A section value: list-form components become the id-keyed map; every component repaired. A
 *  leaf whose props still fail (an icon not in the set) is left out and refused on its own in
 *  `left`, so it does not refuse the whole section it sits in. */
function repairSectionValue(v: Json, sid: string, catalog: Catalog, at: string, notes: Problem[], left: Problem[]): Problem | null {
  if (!isJsonObject(v)) return null;
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
      const id = isJsonObject(c) ? c['id'] : undefined;
      if (!isValidId(id)) return { rule: 'invalid_id', path: `${at}/components/${i}`, message: `component ${i} of section "${sid}" needs an "id" matching [a-z][a-z0-9-]{0,40}` };
      if (Object.hasOwn(map, id)) return { rule: 'duplicate_id', path: `${at}/components/${i}`, message: `component id "${id}" is used twice in section "${sid}"; ids are unique per surface` };
      map[id] = c!;
    }
    v['components'] = map;
    notes.push({ rule: 'rewrote_path', path: `${at}/components`, message: `components given as a list were keyed by id (components is a map: {"root": {...}, ...})` });
  }
  const comps = v['components'];
  if (isJsonObject(comps)) {
    for (const id of Object.keys(comps)) {
      const c = comps[id];
      if (!isJsonObject(c)) continue;
      const cat = `${at}/components/${escapeSegment(id)}`;
      repairComponent(c, catalog, cat, notes);
      const leaf = !Array.isArray(c['children']) || c['children'].length === 0;
      const bad = id !== 'root' && leaf && typeof c['component'] === 'string' ? catalog.checkProps(c['component'], c['props'] ?? {}, `${cat}/props`) : null;
      if (!bad) continue;
      delete comps[id];
      for (const other of Object.values(comps)) {
        if (isJsonObject(other) && Array.isArray(other['children'])) other['children'] = other['children'].filter((x) => x !== id);
      }
      left.push({ ...bad, message: `${bad.message}. "${id}" was left out of section "${sid}" and the rest written: add it again with valid props` });
    }
  }
  return null;
}

/**
 * Repairs one op (already shape-checked, pointers parsed). Returns the ops to apply (none, one, or
 * two when order follows a section) with the notes and the parts of its value left out and
 * refused (`left`), or a problem when it cannot be made sense of.
 */
export function repairOp(d: Draft, op: Op, segs: string[], from: string[] | null, catalog: Catalog): { ok: true; ops: PreparedOp[]; notes: Problem[]; left: Problem[] } | { ok: false; error: Problem } {
  const notes: Problem[] = [];
  const left: Problem[] = [];
  let s = segs;
  let f = from;
  const renames = new Map<string, string>();
  s = kebabPath(s, renames);
  f = f && kebabPath(f, renames);
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
  // Positional component paths (an add at a list position takes its id from the value, below).
  if (s[0] === 'sections' && s[2] === 'components' && s.length >= 4 && arrayIndex(s[3]!) >= 0 && !(op.op === 'add' && s.length === 4)) {
    s = s === segs ? [...s] : s;
    const p = rewriteComponentIndex(d, s, notes, op.path);
    if (p) return { ok: false, error: p };
  }
  if (f && f[0] === 'sections' && f[2] === 'components' && f.length >= 4 && arrayIndex(f[3]!) >= 0) {
    f = f === from ? [...f] : f;
    const p = rewriteComponentIndex(d, f, notes, (op as { from: string }).from);
    if (p) return { ok: false, error: p };
  }
  const hasValue = op.op === 'add' || op.op === 'replace';
  const value = hasValue ? kebabValue(s, (op as { value: Json }).value, renames) : undefined;
  if (renames.size > 0) {
    notes.push({ rule: 'renamed_id', path: op.path, message: `ids are kebab-case: ${[...renames].map(([a, b]) => `"${a}" read as "${b}"`).join(', ')}` });
  }
  // The component a path into one names (props, children…), looked up once.
  const comp = s[0] === 'sections' && s[2] === 'components' && s.length >= 5 ? lookup(d, s, 4) : undefined;
  const compEntry = isJsonObject(comp) && typeof comp['component'] === 'string' ? catalog.getEntry(comp['component']) : undefined;
  // A prop written under an alias in the path (…/props/text of a Button) means the catalog's name.
  if (hasValue && compEntry && s.length === 6 && s[4] === 'props' && !Object.hasOwn(compEntry.props['properties'] as object, s[5]!) && Object.hasOwn(compEntry.aliases, s[5]!)) {
    const to = compEntry.aliases[s[5]!]!;
    s = [...s.slice(0, 5), to];
    notes.push({ rule: 'renamed_prop', path: op.path, message: `${compEntry.name} has no prop "${segs[5]}"; read as "${to}"` });
  }
  let kind = op.op;
  // A replace of a member that is not there yet means add.
  const parent = kind !== 'replace' || s[0] !== 'sections' || s.length < 3 ? undefined
    : s.length === 6 && s[4] === 'props' && isJsonObject(comp) ? comp['props'] : lookup(d, s, s.length - 1);
  if (isJsonObject(parent) && !Object.hasOwn(parent, s.at(-1)!)) {
    kind = 'add';
    notes.push({ rule: 'rewrote_op', path: op.path, message: `"${s.at(-1)}" does not exist yet; the replace was applied as add` });
  }
  // Appending to a children list that is not there yet creates it.
  let val = value;
  if (kind === 'add' && isJsonObject(comp) && s.length === 6 && s[4] === 'children' && s[5] === '-' && comp['children'] === undefined) {
    s = s.slice(0, 5);
    val = [value!];
    notes.push({ rule: 'rewrote_op', path: op.path, message: `"${s[3]}" had no children list; created it with ${JSON.stringify(value)}` });
  }
  // Adding a section already appends it to order: a later add of the same id changes nothing. It
  // becomes a test that it is there, so the step still applies (a Yjs door then brings a peer's
  // doc, which did append it, back to the draft, as for any repaired step).
  if (kind === 'add' && s.length === 2 && s[0] === 'order' && s[1] === '-' && typeof value === 'string' && d.order.includes(value)) {
    const at = d.order.indexOf(value);
    notes.push({ rule: 'rewrote_op', path: op.path, message: `"${value}" is already in order (adding a section appends it); nothing to do` });
    return { ok: true, ops: [{ op: { op: 'test', path: `/order/${at}`, value }, segs: ['order', String(at)], from: null }], notes, left };
  }
  // "/sections/-" with a section value.
  if (op.op === 'add' && s[0] === 'sections' && s.length === 2 && s[1] === '-') {
    const id = isJsonObject(value) ? value['id'] : undefined;
    if (!isValidId(id)) return { ok: false, error: { rule: 'invalid_id', path: op.path, message: 'a section added at /sections/- needs an "id" matching [a-z][a-z0-9-]{0,40}; better: add it at /sections/<id>' } };
    s = ['sections', id];
    notes.push({ rule: 'rewrote_path', path: op.path, message: `"/sections/-" rewritten to the section's id: /sections/${id}` });
  }
  // "/sections/<sid>/components/-" or ".../<n>" with a component value.
  if (op.op === 'add' && s[0] === 'sections' && s.length === 4 && s[2] === 'components' && (s[3] === '-' || arrayIndex(s[3]!) >= 0)) {
    const id = isJsonObject(value) ? value['id'] : undefined;
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
  else if (op.op === 'test') out = { op: 'test', path, value: op.value };
  else out = { op: kind as 'add' | 'replace', path, value: val! };
  const ops: PreparedOp[] = [{ op: out, segs: s, from: f }];

  if (s[0] === 'sections' && hasValue && isJsonObject(value)) {
    const sid = s[1]!;
    if (s.length === 2) {
      const p = repairSectionValue(value, sid, catalog, path, notes, left);
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
      if (compEntry) repairProps(compEntry, value, path, notes);
    }
  }
  if (s[0] === 'sections' && hasValue && s.length === 5 && s[2] === 'components' && s[4] === 'component' && typeof value === 'string') {
    if (!catalog.getEntry(value)) {
      const snapped = snapName(value, catalog.componentNames, 2);
      if (snapped !== null) {
        (out as { value: Json }).value = snapped;
        notes.push({ rule: 'snapped_name', path, message: `"${value}" is not in the catalog; snapped to "${snapped}"` });
      } else notes.push({ rule: 'unknown_component', path, message: `"${value}" is not in the catalog; kept and shown as a placeholder` });
    }
  }
  if (s[0] === 'sections' && hasValue && s.length === 6 && s[2] === 'components' && s[4] === 'props') {
    const entry = compEntry;
    const ps = entry && Object.hasOwn(entry.props['properties'] as object, s[5]!) ? (entry.props['properties'] as Record<string, JSONSchema>)[s[5]!] : undefined;
    if (entry && ps) {
      const snapped = typeof value === 'string' ? snapEnum(ps, value) : null;
      if (snapped !== null) {
        (out as { value: Json }).value = snapped;
        notes.push({ rule: 'snapped_name', path, message: `"${value}" is not a value of ${entry.name}.${s[5]}; snapped to "${snapped}"` });
      }
      (out as { value: Json }).value = conformValue(ps, (out as { value: Json }).value, path, notes);
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
  return { ok: true, ops, notes, left };
}
