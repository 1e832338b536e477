// The state of one A2UI surface as messages arrive, and its conversion to a Weft SurfaceSection.
import type { Component, JsonObject, SurfaceSection } from '@weft/core';
import { childIds, templateOf, A2UI_CHILD_LINKS } from './a2ui-child-links.ts';
import { mapComponent } from './a2ui-components.ts';
import { IdMapper } from './ids.ts';
import { lookup, getAt, isObject, splitPointer } from './json-util.ts';
import { note } from './notes.ts';
import type { Converted, InteropNote } from './notes.ts';

export interface RawComponent { raw: Record<string, unknown>; at: string }

export interface RawSurface {
  surfaceId: string;
  catalogId: string;
  theme?: unknown;
  at: string;
  /** Upserted by id; a later definition replaces an earlier one (Map keeps first-insert order). */
  components: Map<string, RawComponent>;
  data: JsonObject;
}

export const MAX_COMPONENTS = 200;
export const MAX_DEPTH = 8;

/**
 * Both modes make a surface that passes validation: missing children are left out and
 * unreachable parts pruned (noted). `final` (fromA2ui) synthesizes a root if none came; `live`
 * (A2uiStream) instead holds everything back until root arrives (`components` empty, noted), so
 * each streamed step is valid when it is sent.
 */
export function convertSurface(s: RawSurface, sectionId: string, catalog: string, mode: 'final' | 'live'): Converted<SurfaceSection> {
  const notes: InteropNote[] = [];
  if (s.theme !== undefined) {
    notes.push(note('style-unmapped', `${s.at}/theme`, 'The A2UI theme (colours, icon, agent name) has no Weft equivalent; section style is left to defaults.', true));
  }
  const raws = expandTemplates(s, notes);
  const ids = new IdMapper();
  for (const fid of raws.keys()) ids.map(fid);
  const consumed = new Set<string>();
  const mapped: Component[] = [];
  for (const [fid, { raw, at }] of raws) {
    if (consumed.has(fid)) continue;
    mapped.push(
      ...mapComponent(raw, {
        notes,
        at,
        get: (f) => raws.get(f)?.raw,
        ref: (f) => ids.map(f),
        consume: (f) => consumed.add(f),
        fresh: (w) => ids.fresh(w),
      }),
    );
  }
  for (const [from, to] of ids.renamed()) {
    if (raws.has(from)) notes.push(note('id-renamed', `${s.at}`, `Id "${from}" became "${to}".`, false, { from, to }));
  }
  const gone = new Set([...consumed].map((f) => ids.map(f)));
  const components: Record<string, Component> = {};
  for (const c of mapped) if (!gone.has(c.id)) components[c.id] = c;
  const present = new Set(Object.keys(components));
  // Links to components that were left out (Icon, Image…) go with them; their note says so.
  const dropped = new Set([...raws.keys()].map((f) => ids.map(f)).filter((w) => !present.has(w)));
  for (const c of Object.values(components)) {
    if (c.children === undefined) continue;
    c.children = c.children.filter((k) => !dropped.has(k));
    {
      const missing = c.children.filter((k) => !present.has(k));
      if (missing.length > 0) {
        notes.push(note('children-mismatch', s.at, `"${c.id}" named missing children ${missing.join(', ')}; they were left out.`, true));
        c.children = c.children.filter((k) => present.has(k));
      }
    }
  }
  const section: SurfaceSection = { id: sectionId, kind: 'surface', catalog, components, data: s.data };
  if (mode === 'live' && components['root'] === undefined) {
    if (Object.keys(components).length > 0) notes.push(note('components-buffered', s.at, `${Object.keys(components).length} component(s) wait for "root".`, false));
    section.components = {};
    return { value: section, notes };
  }
  finalize(section, notes, s.at);
  return { value: section, notes };
}

/** Root, reachability, single parent and depth: what validation needs of a finished import. */
function finalize(section: SurfaceSection, notes: InteropNote[], at: string): void {
  const comps = section.components;
  if (comps['root'] === undefined) {
    const parented = new Set(Object.values(comps).flatMap((c) => c.children ?? []));
    const tops = Object.keys(comps).filter((k) => !parented.has(k));
    comps['root'] = { id: 'root', component: 'Stack', children: tops };
    notes.push(note('root-synthesized', at, 'No component "root" arrived; a Stack root holds the top-level components.', false));
  }
  const seen = new Set<string>();
  const walk = (id: string, depth: number): void => {
    seen.add(id);
    const c = comps[id];
    if (c?.children === undefined) return;
    c.children = c.children.filter((k) => {
      if (seen.has(k)) {
        notes.push(note('children-mismatch', at, `"${k}" already has a parent (or forms a cycle); the link from "${id}" was dropped.`, true));
        return false;
      }
      if (depth + 1 >= MAX_DEPTH) {
        notes.push(note('children-mismatch', at, `"${k}" is deeper than ${MAX_DEPTH} levels; it was left out.`, true));
        return false;
      }
      return true;
    });
    for (const k of c.children) walk(k, depth + 1);
  };
  walk('root', 0);
  for (const k of Object.keys(comps)) {
    if (!seen.has(k)) {
      delete comps[k];
      notes.push(note('unreachable-dropped', at, `"${k}" is not reachable from root and was left out.`, true));
    }
  }
  if (Object.keys(comps).length > MAX_COMPONENTS) {
    notes.push(note('component-dropped', at, `More than ${MAX_COMPONENTS} components; the surface will be refused as is.`, true));
  }
}

/**
 * Template children (`{componentId, path}`) expanded once from the current data: one copy of the
 * template subtree per item, ids suffixed with the index, relative paths made absolute.
 */
function expandTemplates(s: RawSurface, notes: InteropNote[]): Map<string, RawComponent> {
  const out = new Map(s.components);
  let budget = MAX_COMPONENTS * 2;
  for (let pass = 0; pass < 4; pass++) {
    let changed = false;
    for (const [fid, rc] of [...out]) {
      const t = templateOf(rc.raw);
      if (t === undefined) continue;
      changed = true;
      const base = t.path.startsWith('/') ? t.path : `/${t.path}`;
      const parts = splitPointer(base);
      const items = parts === undefined ? undefined : getAt(s.data, parts);
      const keys = Array.isArray(items) ? items.map((_, i) => String(i)) : isObject(items) ? Object.keys(items) : [];
      const instances: string[] = [];
      for (const key of keys) {
        const prefix = `${base === '/' ? '' : base}/${key}`;
        const cloned = cloneTree(t.componentId, `-${key}`, prefix, out, 0);
        if (cloned === undefined) continue;
        if ((budget -= cloned.size) < 0) break;
        for (const [k, v] of cloned) out.set(k, v);
        instances.push(`${t.componentId}-${key}`);
      }
      out.set(fid, { at: rc.at, raw: { ...rc.raw, [t.prop]: instances } });
      notes.push(note('template-expanded', `${rc.at}/${t.prop}`, `Template "${t.componentId}" over ${t.path} was expanded once from the data (${instances.length} item(s)); later data changes will not add items.`, true));
      removeTree(t.componentId, out, 0);
    }
    if (!changed) break;
  }
  return out;
}

/** Each component is copied once per instance (`seen`): repeated or cyclic children stay linear. */
function cloneTree(fid: string, suffix: string, prefix: string, from: Map<string, RawComponent>, depth: number, seen = new Set<string>()): Map<string, RawComponent> | undefined {
  const rc = from.get(fid);
  if (rc === undefined || depth > MAX_DEPTH || seen.has(fid)) return undefined;
  seen.add(fid);
  const result = new Map<string, RawComponent>();
  const raw = absolutize(rc.raw, prefix) as Record<string, unknown>;
  raw['id'] = fid + suffix;
  // Rename child links inside the copy.
  for (const l of lookup(A2UI_CHILD_LINKS, String(raw['component'])) ?? []) {
    const v = raw[l.prop];
    if (l.kind === 'id' && typeof v === 'string') raw[l.prop] = v + suffix;
    if (l.kind === 'list' && Array.isArray(v)) raw[l.prop] = v.map((x) => (typeof x === 'string' ? x + suffix : x));
    if (l.kind === 'items' && Array.isArray(v)) raw[l.prop] = v.map((x) => (isObject(x) && typeof x[l.key] === 'string' ? { ...x, [l.key]: `${String(x[l.key])}${suffix}` } : x));
  }
  result.set(fid + suffix, { at: rc.at, raw });
  for (const c of childIds(rc.raw)) {
    const sub = cloneTree(c, suffix, prefix, from, depth + 1, seen);
    if (sub) for (const [k, v] of sub) result.set(k, v);
  }
  const nested = templateOf(rc.raw);
  if (nested) {
    const sub = cloneTree(nested.componentId, suffix, prefix, from, depth + 1, seen);
    if (sub) for (const [k, v] of sub) result.set(k, v);
    const tv = raw[nested.prop] as Record<string, unknown>;
    raw[nested.prop] = { ...tv, componentId: nested.componentId + suffix };
  }
  return result;
}

function removeTree(fid: string, m: Map<string, RawComponent>, depth: number): void {
  const rc = m.get(fid);
  if (rc === undefined || depth > MAX_DEPTH) return;
  m.delete(fid);
  for (const c of childIds(rc.raw)) removeTree(c, m, depth + 1);
}

/** Relative `path`s (bindings, nested templates) and `${rel}` in formatString made absolute. */
function absolutize(v: unknown, prefix: string): unknown {
  if (Array.isArray(v)) return v.map((x) => absolutize(x, prefix));
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = absolutize(x, prefix);
  if (typeof out['path'] === 'string' && !out['path'].startsWith('/')) {
    out['path'] = out['path'] === '' || out['path'] === '.' ? prefix : `${prefix}/${out['path']}`;
  }
  if (out['call'] === 'formatString' && isObject(out['args']) && typeof out['args']['value'] === 'string') {
    const tpl = out['args']['value'];
    out['args'] = { ...out['args'], value: tpl.replace(/\$\{\s*([A-Za-z0-9_][A-Za-z0-9_~.\-/]*)\s*\}/g, (_m, rel: string) => `\${${prefix}/${rel}}`) };
  }
  return out;
}

