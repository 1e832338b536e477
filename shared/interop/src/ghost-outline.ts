// The ghost of a step still being written (RFC 000 §6 "Ghosts"): from the JSON prefix the model
// has sent so far, the component(s) it is writing — id, type and a line of text — and where they
// go. Unvalidated and never stored: viewers draw it as an outline until the step is judged.
import type { Json } from '@weft/core';
import { parsePartial } from './lenient-json.ts';
import { isObject } from './json-util.ts';

export interface GhostOutlineItem { id: string | null; component: string | null; text: string | null; depth: number }
export interface GhostOutline { path: string | null; label: string; outline: GhostOutlineItem[] }

const TEXT_PROPS = ['text', 'label', 'title', 'value', 'alt'];
const MAX_ITEMS = 40;

/** null while too little is written to say anything (not even an op's path). */
export function ghostOutline(partialStep: string): GhostOutline | null {
  const v = parsePartial(partialStep);
  if (v === null) return null;
  const ops = Array.isArray(v) ? v : isObject(v) && Array.isArray(v['ops']) ? v['ops'] : isObject(v) && isObject(v['ops']) ? [v['ops']] : isObject(v) && typeof v['op'] === 'string' ? [v] : [];
  const outline: GhostOutlineItem[] = [];
  let path: string | null = null;
  for (const op of ops) {
    if (!isObject(op)) continue;
    const p = typeof op['path'] === 'string' ? op['path'] : null;
    path ??= p;
    const value = op['value'];
    if (isObject(value) && isObject(value['components'])) outline.push(...sectionItems(value['components']));
    else if (isObject(value) && (typeof value['component'] === 'string' || typeof value['id'] === 'string')) outline.push(item(value, p, 0));
    else if (p !== null) outline.push({ id: lastComponentId(p), component: null, text: typeof value === 'string' ? clip(value) : null, depth: 0 });
    if (outline.length >= MAX_ITEMS) break;
  }
  if (path === null && outline.length === 0) return null;
  const first = outline.find((o) => o.component) ?? outline[0];
  const label = first ? `${first.component ? `a ${first.component}` : 'a change'}${first.id ? ` (${first.id})` : ''}${outline.length > 1 ? ` and ${outline.length - 1} more` : ''}` : `a change at ${path}`;
  return { path, label, outline: outline.slice(0, MAX_ITEMS) };
}

/** A section's components in tree order from root (depth by children), then any not reached yet. */
function sectionItems(components: { [k: string]: Json }): GhostOutlineItem[] {
  const out: GhostOutlineItem[] = [];
  const seen = new Set<string>();
  const walk = (id: string, depth: number): void => {
    if (seen.has(id) || !Object.hasOwn(components, id) || depth > 8) return;
    seen.add(id);
    const c = components[id]!;
    out.push(item(isObject(c) ? c : {}, null, depth, id));
    const kids = isObject(c) && Array.isArray(c['children']) ? c['children'] : [];
    for (const k of kids) if (typeof k === 'string') walk(k, depth + 1);
  };
  if (Object.hasOwn(components, 'root')) walk('root', 0);
  for (const id of Object.keys(components)) walk(id, 0);
  return out;
}

function item(c: { [k: string]: Json }, path: string | null, depth: number, key?: string): GhostOutlineItem {
  const props = isObject(c['props']) ? c['props'] : {};
  let text: string | null = null;
  for (const k of TEXT_PROPS) if (Object.hasOwn(props, k) && typeof props[k] === 'string') { text = clip(props[k] as string); break; }
  const id = typeof c['id'] === 'string' ? c['id'] : key ?? (path ? lastComponentId(path) : null);
  return { id, component: typeof c['component'] === 'string' ? c['component'] : null, text, depth };
}

function lastComponentId(path: string): string | null {
  const m = /\/components\/([^/]+)/.exec(path);
  return m && m[1] !== '-' ? m[1]!.replace(/~1/g, '/').replace(/~0/g, '~') : null;
}

const clip = (s: string): string => (s.length > 80 ? `${s.slice(0, 79)}…` : s);
