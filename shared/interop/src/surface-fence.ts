// ```surface fences in markdown (RFC 000 §5): one JSON value per line, each a component or a
// {"data":…} merge; components buffered until root exists; an unfinished last line is ignored
// while streaming.
import { defaultCatalog, emptyDraft, refusalOf, validateDraft } from '@weft/core';
import type { Catalog, Component, JsonObject, Note, Refusal, Rule, SurfaceSection } from '@weft/core';
import { parseLenient } from './lenient-json.ts';
import { FORBIDDEN, isJson, isObject } from './json-util.ts';
import { note } from './notes.ts';
import type { InteropNote } from './notes.ts';

export interface SurfaceFence {
  /** The info string after the fence marker, e.g. `surface {"id":"pricing","catalog":"blog@1"}`. */
  info: string;
  body: string;
  /** 0-based line numbers of the opening fence and of the closing fence (or last line if open). */
  startLine: number;
  endLine: number;
  closed: boolean;
}

export interface FenceError { line: number; message: string }

export interface ParsedFence {
  section: SurfaceSection;
  /** False while the fence is still streaming (not closed). */
  complete: boolean;
  notes: InteropNote[];
  errors: FenceError[];
}

export const DEFAULT_FENCE_CATALOG = 'weft@1';

const OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/** Every ```surface (or ~~~surface) fence, skipping fences that sit inside other code blocks. */
export function findSurfaceFences(markdown: string): SurfaceFence[] {
  const lines = markdown.split('\n');
  const out: SurfaceFence[] = [];
  let i = 0;
  while (i < lines.length) {
    const m = OPEN.exec(stripCr(lines[i] as string));
    if (m === null) {
      i++;
      continue;
    }
    const marker = m[2] as string;
    const info = (m[3] as string).trim();
    // A backtick fence's info string may not contain backticks (CommonMark); then it is not a fence.
    if (marker[0] === '`' && info.includes('`')) {
      i++;
      continue;
    }
    let j = i + 1;
    let closed = false;
    for (; j < lines.length; j++) {
      const c = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(stripCr(lines[j] as string));
      if (c !== null && (c[1] as string)[0] === marker[0] && (c[1] as string).length >= marker.length) {
        closed = true;
        break;
      }
    }
    if (/^surface(\s|$)/.test(info)) {
      out.push({ info, body: lines.slice(i + 1, j).join('\n'), startLine: i, endLine: Math.min(j, lines.length - 1), closed });
    }
    i = j + 1;
  }
  return out;
}

function stripCr(s: string): string {
  return s.endsWith('\r') ? s.slice(0, -1) : s;
}

/** `surface {"id":…,"catalog":…}` → id and catalog (or an error). */
export function parseFenceInfo(info: string): { id: string; catalog: string } | { error: string } {
  const rest = info.replace(/^surface/, '').trim();
  if (rest === '') return { error: 'The fence info string has no {"id":…}.' };
  const r = parseLenient(rest);
  if (!r.ok || !isObject(r.value) || typeof r.value['id'] !== 'string') return { error: 'The fence info string is not {"id":"…","catalog":"…"}.' };
  if (FORBIDDEN.has(r.value['id'])) return { error: `"${r.value['id']}" cannot be a surface id.` };
  return { id: r.value['id'], catalog: typeof r.value['catalog'] === 'string' ? r.value['catalog'] : DEFAULT_FENCE_CATALOG };
}

const COMPONENT_KEYS = new Set(['id', 'component', 'props', 'children', 'visible']);

/** Reads a fence body line by line. `streaming`: the fence is still open (its last line may be cut). */
export function parseSurfaceFence(body: string, info: string, opts: { streaming?: boolean } = {}): ParsedFence {
  const notes: InteropNote[] = [];
  const errors: FenceError[] = [];
  const head = parseFenceInfo(info);
  if ('error' in head) errors.push({ line: 0, message: head.error });
  const id = 'error' in head ? 'surface' : head.id;
  const catalog = 'error' in head ? DEFAULT_FENCE_CATALOG : head.catalog;
  const components: Record<string, Component> = {};
  const data: JsonObject = {};
  const lines = body.split('\n');
  const streaming = opts.streaming === true;
  for (const [n, rawLine] of lines.entries()) {
    const line = rawLine.trim();
    if (line === '') continue;
    const last = n === lines.length - 1;
    const r = parseLenient(line);
    if (!r.ok || line.slice(r.end).trim() !== '') {
      // A line is complete or not: a cut last line while streaming is simply not there yet.
      if (!(streaming && last)) errors.push({ line: n + 1, message: `Line ${n + 1} is not one JSON value.` });
      continue;
    }
    const v = r.value;
    if (isObject(v) && isObject(v['data']) && Object.keys(v).length === 1) {
      // Merged in place (a spread per line would make many data lines quadratic).
      for (const [k, x] of Object.entries(v['data'] as JsonObject)) if (!FORBIDDEN.has(k)) data[k] = x;
      continue;
    }
    if (!isObject(v) || typeof v['id'] !== 'string' || typeof v['component'] !== 'string') {
      errors.push({ line: n + 1, message: `Line ${n + 1} is neither a component {"id","component",…} nor {"data":…}.` });
      continue;
    }
    if (FORBIDDEN.has(v['id'])) {
      errors.push({ line: n + 1, message: `Line ${n + 1}: "${v['id']}" cannot be a component id.` });
      continue;
    }
    const c: Component = { id: v['id'], component: v['component'] };
    const inline: JsonObject = {};
    for (const [k, x] of Object.entries(v)) if (!COMPONENT_KEYS.has(k) && isJson(x)) inline[k] = x;
    if (isObject(v['props'])) c.props = v['props'] as JsonObject;
    if (Object.keys(inline).length > 0) {
      // A2UI habit: props written inline. Moved under props, as the RFC's list form is.
      c.props = { ...inline, ...(c.props ?? {}) };
      notes.push(note('component-mapped', `/${n + 1}`, `Props of "${c.id}" were written inline; moved under props.`, false));
    }
    if (Array.isArray(v['children'])) c.children = v['children'].filter((x): x is string => typeof x === 'string');
    if (v['visible'] !== undefined && isJson(v['visible'])) c.visible = v['visible'] as unknown as NonNullable<Component['visible']>;
    if (Object.hasOwn(components, c.id)) notes.push(note('component-mapped', `/${n + 1}`, `"${c.id}" was written again; the later line replaces the earlier.`, false));
    components[c.id] = c;
  }
  const hasRoot = Object.hasOwn(components, 'root');
  if (!hasRoot && Object.keys(components).length > 0) {
    notes.push(note('components-buffered', '', `${Object.keys(components).length} component(s) wait for "root" before they show.`, false));
  }
  const section: SurfaceSection = { id, kind: 'surface', catalog, components: hasRoot ? components : {}, data };
  return { section, complete: !streaming, notes, errors };
}

/**
 * Checks every surface fence of a markdown body with the page-surface rules (core validateDraft),
 * plus what only fences can get wrong: an unclosed fence, a bad info string, a duplicate fence
 * id, a line that is not one JSON value, or an entry `$source` (page surfaces only). `index` is
 * the fence's position in the body; paths are `/sections/<fence id>/…` as in a draft.
 */
export function checkBodySurfaces(markdown: string, catalog: Catalog = defaultCatalog): { refusals: Refusal[]; notes: Note[] } {
  const refusals: Refusal[] = [];
  const notes: Note[] = [];
  const refuse = (rule: Rule, path: string, message: string, index: number): void => {
    refusals.push(refusalOf(rule, path, message, index));
  };
  const draft = emptyDraft('body');
  const fenceOf = new Map<string, number>();
  for (const [i, f] of findSurfaceFences(markdown).entries()) {
    const where = `fence ${i + 1} (line ${f.startLine + 1})`;
    if (!f.closed) refuse('invalid_surface', `/fences/${i}`, `${where} is not closed.`, i);
    const parsed = parseSurfaceFence(f.body, f.info);
    for (const e of parsed.errors) refuse('invalid_surface', `/fences/${i}`, `${where}: ${e.message}`, i);
    const id = parsed.section.id;
    if (fenceOf.has(id)) {
      refuse('invalid_surface', `/sections/${id}`, `${where} reuses the surface id "${id}".`, i);
      continue;
    }
    if (Object.hasOwn(parsed.section.data, '$source')) {
      refuse('invalid_source', `/sections/${id}/data/$source`, `${where}: entry sources work in page surfaces only.`, i);
    }
    fenceOf.set(id, i);
    draft.sections[id] = parsed.section;
    draft.order.push(id);
  }
  const checked = validateDraft(draft, catalog);
  const indexOf = (path: string): number => fenceOf.get((path.split('/')[2] ?? '').replaceAll('~1', '/').replaceAll('~0', '~')) ?? -1;
  for (const r of checked.refusals) refusals.push({ ...r, index: indexOf(r.path) });
  for (const n of checked.notes) notes.push({ ...n, index: indexOf(n.path) });
  return { refusals, notes };
}
