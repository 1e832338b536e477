// Drafts → HTML, one section at a time. The walk is total: whatever the draft holds mid-flight
// (unknown components, missing children, cycles, a component with two parents, throwing
// bindings) it returns HTML plus notes, renders each component at most once, and never loops.

import type { Component, Draft, Json, Rule, SurfaceSection } from '@weft/core';
import { condition, inCatalog, propsProblem } from './bindings.ts';
import { Comp, type Scope } from './comp.ts';
import { blocks } from './components/blocks.ts';
import { content } from './components/content.ts';
import { interactive } from './components/interactive.ts';
import { layout } from './components/layout.ts';
import type { Renderer } from './components/renderer.ts';
import { attr, escapeHtml, jsonForScript } from './escape.ts';
import { emptyLogic, logicJson } from './logic.ts';
import type { RenderNote } from './notes.ts';

export interface RenderOptions {
  /** Embed each section's data model in an inert `<script type="application/json">` (default true). */
  embedData?: boolean;
  /**
   * Check each component's props against its catalog entry (core's checkProps) and draw misfits
   * as placeholders (default true). About 5 µs a component; a caller rendering drafts that the
   * op pipeline has already validated may turn it off (the renderer stays safe either way).
   */
  checkProps?: boolean;
}

export interface Rendered {
  html: string;
  notes: RenderNote[];
  /** Some surface binds state a reader can change or fires actions: the page needs the runtime. */
  interactive: boolean;
}

export const RENDERERS: Readonly<Record<string, Renderer>> = { ...layout, ...content, ...interactive, ...blocks };

/** Deeper than validation allows (8); only a guard so a malformed tree cannot exhaust the stack. */
const MAX_DEPTH = 32;

export function renderDraft(draft: Draft, opts: RenderOptions = {}): Rendered {
  const parts: string[] = [];
  const notes: RenderNote[] = [];
  let interactive = false;
  const order = Array.isArray(draft.order) ? draft.order : [];
  const seen = new Set<string>();
  for (const id of order) {
    if (typeof id !== 'string' || seen.has(id)) continue; // a duplicated id renders once
    seen.add(id);
    const r = renderSection(draft, id, opts);
    parts.push(r.html);
    for (const n of r.notes) notes.push(n);
    interactive ||= r.interactive;
  }
  return { html: parts.join('\n'), notes, interactive };
}

export function renderSection(draft: Draft, sectionId: string, opts: RenderOptions = {}): Rendered {
  try {
    return renderSectionUnguarded(draft, sectionId, opts);
  } catch (e) {
    // Last line of defence (issue 14): a bug outside the per-component guard costs one section
    // a placeholder and a broken note, never the process or the page.
    const message = `section ${sectionId}: render failed: ${e instanceof Error ? e.message : String(e)}`;
    return {
      html: `<section class="weft-section"${attr('id', `s-${sectionId}`)}${attr('data-section-id', sectionId)}>${placeholderDiv('', 'This section could not be rendered')}</section>`,
      notes: [{ componentId: '', sectionId, rule: 'invalid_section', message, severity: 'broken' }],
      interactive: false,
    };
  }
}

function renderSectionUnguarded(draft: Draft, sectionId: string, opts: RenderOptions): Rendered {
  const sections = draft.sections;
  const section = sections !== null && typeof sections === 'object' && Object.hasOwn(sections, sectionId) ? sections[sectionId] : undefined;
  return renderSurface(section, sectionId, opts, 0);
}

/**
 * One surface: a page section (depth 0) or a ```surface fence inside prose (depth 1, keyed by
 * `<section>-<component>-<fence id>` so DOM ids stay unique). Fences in a fence are not expanded.
 */
function renderSurface(section: unknown, sectionId: string, opts: RenderOptions, depth: number): Rendered {
  const notes: RenderNote[] = [];
  const open = `<section class="weft-section${depth > 0 ? ' weft-inline-surface' : ''}`;
  const ids = `${depth === 0 ? attr('id', `s-${sectionId}`) : ''}${attr('data-section-id', sectionId)}`;
  if (!isSurface(section)) {
    const why = section === undefined ? 'no such section' : 'not a surface section';
    notes.push({ componentId: '', sectionId, rule: section === undefined ? 'path_not_found' : 'invalid_section', message: `section ${sectionId}: ${why}`, severity: 'broken' });
    return { html: `${open}"${ids}>${placeholderDiv('', `Section ${JSON.stringify(sectionId)}: ${why}`)}</section>`, notes, interactive: false };
  }
  const style = section.style !== null && typeof section.style === 'object' ? section.style : {};
  const pick = <T extends string>(v: unknown, values: readonly T[]): T => ((values as readonly unknown[]).includes(v) ? (v as T) : (values[0] as T));
  const cls = ` weft-width-${pick(style.width, ['normal', 'narrow', 'wide', 'full'])} weft-tone-${pick(style.tone, ['default', 'muted', 'accent', 'inverse'])} weft-motion-${pick(style.motion, ['none', 'fade', 'rise'])}`;
  const data: Json = section.data !== null && typeof section.data === 'object' ? section.data : {};
  const scope: Scope = {
    sectionId,
    section,
    data,
    notes,
    visited: new Set(),
    ancestors: [],
    renderNode: (id, parent) => renderNode(scope, id, parent),
    tabState: undefined,
    checkProps: opts.checkProps !== false,
    logic: emptyLogic(),
    nestedLive: false,
    renderSurface: depth === 0 ? (s, key) => {
      const r = renderSurface(s, key, opts, depth + 1);
      for (const n of r.notes) notes.push(n);
      scope.nestedLive ||= r.interactive;
      return r.html;
    } : undefined,
  };
  const comps = section.components !== null && typeof section.components === 'object' ? section.components : {};
  let body: string;
  if (!Object.hasOwn(comps, 'root')) {
    notes.push({ componentId: 'root', sectionId, rule: 'missing_root', message: 'the surface has no root component yet', severity: 'broken' });
    body = placeholderDiv('root', 'Empty surface (no root component yet)');
  } else {
    body = renderNode(scope, 'root', undefined);
  }
  for (const id of Object.keys(comps)) {
    if (!scope.visited.has(id)) {
      notes.push({ componentId: id, sectionId, rule: 'unreachable', message: `component ${id} is not reachable from root and is not shown`, severity: 'broken' });
    }
  }
  const live = scope.logic.live && opts.embedData !== false;
  const script = opts.embedData === false ? '' : `<script type="application/json" data-weft-state${attr('data-section-id', sectionId)}>${jsonForScript(data)}</script>`;
  const logic = live ? `<script type="application/json" data-weft-logic>${jsonForScript(logicJson(scope.logic))}</script>` : '';
  return { html: `${open}${cls}"${ids}${attr('data-catalog', String(section.catalog ?? ''))} data-weft-surface>${script}${logic}<div class="weft-surface">${body}</div></section>`, notes, interactive: live || scope.nestedLive };
}

function isSurface(s: unknown): s is SurfaceSection {
  return s !== null && typeof s === 'object' && (s as { kind?: unknown }).kind === 'surface';
}

function renderNode(scope: Scope, id: string, parent: Comp | undefined): string {
  const note = (rule: Rule, message: string): void => {
    scope.notes.push({ componentId: id, sectionId: scope.sectionId, rule, message, severity: 'broken' });
  };
  if (scope.ancestors.includes(id)) {
    note('cycle', `children form a cycle through ${id}`);
    return placeholderDiv(id, `Component “${id}” contains itself (cycle; not rendered again)`);
  }
  if (scope.visited.has(id)) {
    note('double_parent', `${id} is the child of two parents; shown once`);
    return placeholderDiv(id, `Component “${id}” is already shown elsewhere`);
  }
  const comps = scope.section.components;
  const node: Component | undefined = Object.hasOwn(comps, id) ? comps[id] : undefined;
  if (node === undefined || node === null || typeof node !== 'object') {
    if (node !== undefined) scope.visited.add(id); // present but not a component: flagged here, once
    note('missing_child', `child ${id} is not in the surface`);
    return placeholderDiv(id, `Missing component “${id}”`);
  }
  scope.visited.add(id);
  if (scope.ancestors.length >= MAX_DEPTH) {
    note('too_deep', `the tree is more than ${MAX_DEPTH} levels deep at ${id}`);
    return placeholderDiv(id, `Component “${id}” is nested too deeply`);
  }
  const name = typeof node.component === 'string' ? node.component : String(node.component);
  const renderer = Object.hasOwn(RENDERERS, name) ? RENDERERS[name] : undefined;
  let html: string;
  let problem: { rule: Rule; message: string } | null = null;
  if (renderer === undefined || !inCatalog(name)) {
    note('unknown_component', renderer === undefined && inCatalog(name) ? `${name} has no preview renderer` : `${name} is not in the catalog`);
    html = placeholderDiv(id, `Unknown component “${name}” (kept, not rendered)`);
    claimChildren(scope, node);
  } else if (scope.checkProps && (problem = propsProblem(name, node.props, `/sections/${scope.sectionId}/components/${id}/props`)) !== null && problem.rule !== 'invalid_url') {
    // Props that do not fit the catalog entry: kept, flagged, drawn as a placeholder.
    note(problem.rule, problem.message);
    html = placeholderDiv(id, `${name} “${id}” not rendered: ${problem.message}`);
    claimChildren(scope, node);
  } else {
    const c = new Comp(scope, node, parent);
    scope.ancestors.push(id);
    try {
      if (renderer.leaf && c.childIds().length > 0) {
        note('children_not_allowed', `${name} takes no children; ${c.childIds().length} not shown`);
        claimChildren(scope, node);
      }
      html = renderer.render(c);
    } catch (e) {
      // A renderer bug must not take the page down: flag it like any other misfit.
      c.fail(`render failed: ${e instanceof Error ? e.message : String(e)}`);
      html = '';
    } finally {
      scope.ancestors.pop();
    }
    // A URL the catalog refuses is drawn inert by the renderer's own (stricter) policy, which
    // notes it; should the two policies ever disagree, the catalog's finding is still reported.
    if (problem !== null && !scope.notes.some((n) => n.componentId === id && n.rule === 'invalid_url')) note(problem.rule, problem.message);
    if (c.failures.length > 0) {
      note('invalid_props', `${name}: ${c.failures.join('; ')}`);
      html = placeholderDiv(id, `${name} “${id}” not rendered: ${c.failures.join('; ')}`);
      claimChildren(scope, node);
    }
  }
  return node.visible === undefined ? html : visibility(scope, id, node, html);
}

// Hidden components stay in the DOM (inside a display:contents wrapper) so the runtime and the
// morph can show them without a re-render; `hidden` keeps them out of layout and the a11y tree.
function visibility(scope: Scope, id: string, node: Component, html: string): string {
  const r = condition(node.visible as NonNullable<Component['visible']>, scope.data);
  if (!r.ok) {
    scope.notes.push({ componentId: id, sectionId: scope.sectionId, rule: 'invalid_condition', message: `visible: ${r.error}; shown`, severity: 'broken' });
  }
  const shown = !r.ok || r.value;
  // Only a condition that checks out is handed to the runtime (a broken one stays shown).
  if (r.ok) scope.logic.visible[id] = node.visible as unknown as Json;
  return `<div class="weft-cond"${attr('data-weft-cond', id)}${attr('data-weft-visible', String(shown))}${shown ? '' : ' hidden'}>${html}</div>`;
}

/** Children of a component that was not rendered: not shown, but not "unreachable" either. */
function claimChildren(scope: Scope, node: Component): void {
  const stack = Array.isArray(node.children) ? [...node.children] : [];
  const comps = scope.section.components;
  while (stack.length > 0) {
    const id = stack.pop();
    if (typeof id !== 'string' || scope.visited.has(id) || !Object.hasOwn(comps, id)) continue;
    scope.visited.add(id);
    const kids = comps[id]?.children;
    if (Array.isArray(kids)) stack.push(...kids);
  }
}

export function placeholderDiv(componentId: string, message: string): string {
  return `<div class="weft-placeholder"${attr('data-component-id', componentId)} role="note">${escapeHtml(message)}</div>`;
}
