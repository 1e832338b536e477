// The invariants and limits of RFC §1, as pure checks over a draft. The pipeline calls the
// narrow ones for the part an op touched; validateDraft runs them all.
import type { Catalog } from './catalog/types.ts';
import { defaultCatalog } from './catalog/catalog.ts';
import { checkCondition } from './conditions.ts';
import type { Draft, SurfaceSection } from './draft.ts';
import { refusalOf } from './errors.ts';
import type { Note, Refusal, Rule } from './errors.ts';
import { Limits, isValidId } from './limits.ts';
import { escapeSegment } from './pointer.ts';
import { checkSources } from './sources.ts';
import type { Problem } from './problem.ts';

/** Problems that only wait for a later op (RFC status: held steps). */
// double_parent: a move written add-first (a Yjs transaction's events, a model's step) waits for the
// later op that takes the child out of its old parent.
// missing_section: a component (or a prop of one) written before the op that adds its section.
export const HOLDABLE_RULES: ReadonlySet<Rule> = new Set<Rule>(['missing_root', 'missing_child', 'unreachable', 'double_parent', 'missing_section']);

const SECTION_KEYS = new Set(['id', 'kind', 'catalog', 'components', 'data', 'style']);
const COMPONENT_KEYS = new Set(['id', 'component', 'props', 'children', 'visible']);
const STYLE_ENUMS: Record<string, readonly string[]> = {
  width: ['narrow', 'normal', 'wide', 'full'],
  tone: ['default', 'muted', 'accent', 'inverse'],
  motion: ['none', 'fade', 'rise'],
};

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function sectionPath(sid: string): string {
  return `/sections/${escapeSegment(sid)}`;
}
export function componentPath(sid: string, cid: string): string {
  return `/sections/${escapeSegment(sid)}/components/${escapeSegment(cid)}`;
}

/** The section object itself: id, kind, catalog (one the server has), style, and the types of
 *  data/components. */
export function checkSectionShell(s: unknown, key: string, catalog: Catalog = defaultCatalog): Problem | null {
  const at = sectionPath(key);
  if (!isObj(s)) return { rule: 'invalid_section', path: at, message: `section "${key}" must be an object {id, kind:"surface", catalog, components, data}` };
  if (!isValidId(key) || s['id'] !== key) {
    return { rule: 'invalid_id', path: at, message: `section id must match [a-z][a-z0-9-]{0,40} and equal its key "${key}"; got ${JSON.stringify(s['id'])}` };
  }
  if (s['kind'] !== 'surface') return { rule: 'invalid_section', path: `${at}/kind`, message: `section "${key}" must have kind "surface"` };
  if (typeof s['catalog'] !== 'string' || s['catalog'].length > 100) return { rule: 'invalid_section', path: `${at}/catalog`, message: `section "${key}" needs catalog "<theme>@<major>", e.g. "${catalog.id}"` };
  // Refused, not flagged (docs/catalog.md "The catalog id"): components can only be judged
  // against the catalog the surface was written for, and this server has no other.
  if (s['catalog'] !== catalog.id) return { rule: 'unknown_catalog', path: `${at}/catalog`, message: `section "${key}" names the catalog ${JSON.stringify(s['catalog'].slice(0, 100))}, which this server does not have; known catalogs: ${catalog.id}. Write "catalog":"${catalog.id}"` };
  if (!isObj(s['components'])) return { rule: 'invalid_section', path: `${at}/components`, message: `components of "${key}" must be an object keyed by component id` };
  if (!isObj(s['data'])) return { rule: 'invalid_section', path: `${at}/data`, message: `data of "${key}" must be a JSON object` };
  for (const k of Object.keys(s)) {
    if (!SECTION_KEYS.has(k)) return { rule: 'invalid_section', path: `${at}/${escapeSegment(k)}`, message: `section "${key}" has the unknown field "${k}"; fields are ${[...SECTION_KEYS].join(', ')}` };
  }
  if (s['style'] !== undefined) {
    const st = s['style'];
    if (!isObj(st)) return { rule: 'invalid_section', path: `${at}/style`, message: 'style must be an object {width, tone, motion}' };
    for (const [k, v] of Object.entries(st)) {
      const allowed = Object.hasOwn(STYLE_ENUMS, k) ? STYLE_ENUMS[k] : undefined; // "toString" is no style field
      if (!allowed) return { rule: 'invalid_section', path: `${at}/style/${escapeSegment(k)}`, message: `style has no field "${k}"; use width, tone or motion` };
      if (!allowed.includes(v as string)) return { rule: 'invalid_section', path: `${at}/style/${k}`, message: `style.${k} must be one of ${allowed.join(', ')}` };
    }
  }
  return null;
}

/** A component's own fields (not its props schema, not the tree). */
export function checkComponentShape(c: unknown, key: string, sid: string): Problem | null {
  const at = componentPath(sid, key);
  if (!isObj(c)) return { rule: 'invalid_section', path: at, message: `component "${key}" must be an object {id, component, props, children}` };
  if (!isValidId(key) || c['id'] !== key) {
    return { rule: 'invalid_id', path: at, message: `component id must match [a-z][a-z0-9-]{0,40} and equal its key "${key}"; got ${JSON.stringify(c['id'])}` };
  }
  if (typeof c['component'] !== 'string' || c['component'].length === 0 || c['component'].length > 100) {
    return { rule: 'invalid_section', path: `${at}/component`, message: `component "${key}" needs a "component" name from the catalog` };
  }
  for (const k of Object.keys(c)) {
    if (!COMPONENT_KEYS.has(k)) return { rule: 'invalid_section', path: `${at}/${escapeSegment(k)}`, message: `component "${key}" has the unknown field "${k}"; put props under "props"` };
  }
  if (c['props'] !== undefined && !isObj(c['props'])) return { rule: 'invalid_props', path: `${at}/props`, message: `props of "${key}" must be an object` };
  const ch = c['children'];
  if (ch !== undefined) {
    if (!Array.isArray(ch)) return { rule: 'invalid_section', path: `${at}/children`, message: `children of "${key}" must be an array of component ids` };
    for (let i = 0; i < ch.length; i++) {
      if (typeof ch[i] !== 'string') return { rule: 'invalid_section', path: `${at}/children/${i}`, message: `children of "${key}" must be component ids (strings)` };
    }
  }
  if (c['visible'] !== undefined) return checkCondition(c['visible'], `${at}/visible`);
  return null;
}

/**
 * Structure of one surface: component count, children exist / allowed / single parent, root,
 * acyclic, depth ≤ 8, all reachable. Also flags unknown components (notes). Collects every
 * problem so the pipeline can tell "only waiting" (holdable) from "wrong".
 */
export function checkSurfaceTree(s: SurfaceSection, sid: string, catalog: Catalog, notes?: Problem[]): Problem[] {
  const out: Problem[] = [];
  const comps = s.components;
  const ids = Object.keys(comps);
  if (ids.length > Limits.maxComponents) {
    out.push({ rule: 'too_many_components', path: `${sectionPath(sid)}/components`, message: `surface "${sid}" has ${ids.length} components, more than ${Limits.maxComponents}; remove some or split into another surface` });
  }
  const parent = new Map<string, string>();
  for (const id of ids) {
    const c = comps[id]!;
    const shape = checkComponentShape(c, id, sid);
    if (shape) {
      out.push(shape);
      continue;
    }
    const entry = catalog.getEntry(c.component);
    if (!entry && notes) {
      notes.push({ rule: 'unknown_component', path: `${componentPath(sid, id)}/component`, message: `"${c.component}" is not in the catalog; kept and shown as a placeholder. Catalog components: ${catalog.componentNames.join(', ')}` });
    }
    const children = c.children;
    if (!children || children.length === 0) continue;
    if (entry && entry.children === 'none') {
      out.push({ rule: 'children_not_allowed', path: `${componentPath(sid, id)}/children`, message: `${c.component} "${id}" takes no children; put them in a Stack or another container instead` });
    }
    for (let i = 0; i < children.length; i++) {
      const ch = children[i]!;
      const at = `${componentPath(sid, id)}/children/${i}`;
      const child = Object.hasOwn(comps, ch) ? comps[ch] : undefined;
      if (!child) {
        out.push({ rule: 'missing_child', path: at, message: `"${id}" lists the child "${ch}", which is not in surface "${sid}"; add component "${ch}" in the same step or remove it from children` });
        continue;
      }
      if (entry && Array.isArray(entry.children) && !(entry.children as readonly string[]).includes(child.component)) {
        out.push({ rule: 'children_not_allowed', path: at, message: `${c.component} "${id}" takes only ${(entry.children as readonly string[]).join(', ')} as children, not ${child.component} "${ch}"` });
      }
      const prev = parent.get(ch);
      if (prev !== undefined) {
        out.push({ rule: prev === id ? 'duplicate_id' : 'double_parent', path: at, message: prev === id ? `"${ch}" is listed twice in the children of "${id}"; list it once` : `"${ch}" is already a child of "${prev}"; remove it from one parent's children (a component has one parent)` });
      } else parent.set(ch, id);
    }
  }
  if (!Object.hasOwn(comps, 'root')) {
    out.push({ rule: 'missing_root', path: `${sectionPath(sid)}/components`, message: `surface "${sid}" has no component "root"; add {"id":"root","component":"Stack",...} in the same step` });
    return out;
  }
  if (parent.has('root')) {
    out.push({ rule: 'cycle', path: `${componentPath(sid, 'root')}`, message: `"root" is listed as a child of "${parent.get('root')}"; root cannot be a child (cycle)` });
  }
  // BFS from root for depth and reachability (parents are unique by now, or reported).
  const depth = new Map<string, number>([['root', 1]]);
  const queue = ['root'];
  let tooDeep = false;
  for (let qi = 0; qi < queue.length; qi++) {
    const id = queue[qi]!;
    const d = depth.get(id)!;
    const children = comps[id]?.children;
    if (!children) continue;
    for (const ch of children) {
      if (depth.has(ch) || !Object.hasOwn(comps, ch) || parent.get(ch) !== id) continue;
      if (d + 1 > Limits.maxTreeDepth && !tooDeep) {
        tooDeep = true;
        out.push({ rule: 'too_deep', path: componentPath(sid, ch), message: `"${ch}" is at level ${d + 1}; a surface is at most ${Limits.maxTreeDepth} levels deep. Flatten the nesting` });
      }
      depth.set(ch, d + 1);
      queue.push(ch);
    }
  }
  if (depth.size < ids.length) {
    for (const id of ids) {
      if (depth.has(id)) continue;
      // Follow parents: a loop means a cycle; otherwise it hangs off nothing.
      const seen = new Set<string>([id]);
      let cur = parent.get(id);
      let cyc = false;
      while (cur !== undefined) {
        if (seen.has(cur)) {
          cyc = true;
          break;
        }
        seen.add(cur);
        cur = parent.get(cur);
      }
      out.push(
        cyc
          ? { rule: 'cycle', path: `${componentPath(sid, id)}/children`, message: `the children of "${id}" form a cycle; a component cannot contain its own ancestor` }
          : { rule: 'unreachable', path: componentPath(sid, id), message: `component "${id}" is not reachable from root: add "${id}" to a parent's children in the same step` },
      );
    }
  }
  return out;
}

/** Size of a data model as JSON text. */
export function jsonSize(v: unknown): number {
  return JSON.stringify(v).length;
}

export function checkData(s: SurfaceSection, sid: string): Problem | null {
  const n = jsonSize(s.data);
  return n > Limits.maxDataBytes
    ? { rule: 'data_too_large', path: `${sectionPath(sid)}/data`, message: `data of "${sid}" is ${n} bytes of JSON, more than ${Limits.maxDataBytes}; keep the data model small` }
    : checkSources(s.data, `${sectionPath(sid)}/data`);
}

/** order lists every section exactly once and nothing else; at most 30 surfaces. */
export function checkOrder(d: Draft): Problem | null {
  if (!Array.isArray(d.order)) return { rule: 'invalid_section', path: '/order', message: 'order must be an array of section ids' };
  const keys = Object.keys(d.sections);
  if (keys.length > Limits.maxSurfaces) {
    return { rule: 'too_many_surfaces', path: '/sections', message: `the page has ${keys.length} surfaces, more than ${Limits.maxSurfaces}; remove one first` };
  }
  const seen = new Set<string>();
  for (let i = 0; i < d.order.length; i++) {
    const id = d.order[i];
    if (typeof id !== 'string' || !Object.hasOwn(d.sections, id)) {
      return { rule: 'path_not_found', path: `/order/${i}`, message: `order lists ${JSON.stringify(id)}, which is not a section; order holds section ids only` };
    }
    if (seen.has(id)) return { rule: 'duplicate_id', path: `/order/${i}`, message: `order lists "${id}" twice; each section appears once (adding a section appends it to order already)` };
    seen.add(id);
  }
  if (seen.size !== keys.length) {
    const missing = keys.find((k) => !seen.has(k));
    return { rule: 'path_not_found', path: '/order', message: `section "${missing}" is missing from order; add it with {"op":"add","path":"/order/-","value":"${missing}"}` };
  }
  return null;
}

/** All props of a surface's known components against the catalog. */
export function checkSurfaceProps(s: SurfaceSection, sid: string, catalog: Catalog): Problem[] {
  const out: Problem[] = [];
  for (const id of Object.keys(s.components)) {
    const c = s.components[id]!;
    if (!isObj(c) || typeof c.component !== 'string') continue;
    const p = catalog.checkProps(c.component, c.props ?? {}, `${componentPath(sid, id)}/props`);
    if (p) out.push(p);
  }
  return out;
}

/** Every problem of one surface (shell, tree, data, props), plus unknown-component notes. */
export function validateSurface(s: unknown, sid: string, catalog: Catalog = defaultCatalog): { problems: Problem[]; notes: Problem[] } {
  const notes: Problem[] = [];
  const shell = checkSectionShell(s, sid, catalog);
  if (shell) return { problems: [shell], notes };
  const sec = s as SurfaceSection;
  const problems = checkSurfaceTree(sec, sid, catalog, notes);
  const data = checkData(sec, sid);
  if (data) problems.push(data);
  problems.push(...checkSurfaceProps(sec, sid, catalog));
  return { problems, notes };
}

/** Checks a whole draft (tests, replay checks, interop). Refusals carry index -1. */
export function validateDraft(draft: Draft, catalog: Catalog = defaultCatalog): { refusals: Refusal[]; notes: Note[] } {
  const refusals: Refusal[] = [];
  const notes: Note[] = [];
  const refuse = (p: Problem) => refusals.push(refusalOf(p.rule, p.path, p.message, -1));
  if (!isObj(draft) || typeof draft.title !== 'string' || !isObj(draft.sections)) {
    refuse({ rule: 'invalid_section', path: '', message: 'a draft is {id, title, order, sections}' });
    return { refusals, notes };
  }
  if (draft.title.length > Limits.maxTitle) refuse({ rule: 'value_too_large', path: '/title', message: `title is longer than ${Limits.maxTitle} chars` });
  const order = checkOrder(draft);
  if (order) refuse(order);
  for (const sid of Object.keys(draft.sections)) {
    const r = validateSurface(draft.sections[sid], sid, catalog);
    r.problems.forEach(refuse);
    for (const n of r.notes) notes.push({ ...n, index: -1 });
  }
  return { refusals, notes };
}
