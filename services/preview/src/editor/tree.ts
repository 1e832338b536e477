// Pure helpers over one surface's component tree and the ops the editor sends for add, move,
// reorder and delete. Every edit is a list of JSON Patch ops applied through the Y.Doc, so the
// server's pipeline judges it like anyone else's (a refused list snaps back as a whole).
import type { Draft, JsonObject, Op, SurfaceSection } from '@weft/core';
import { blueprintOps } from './blueprints.ts';
import type { Blueprint } from './blueprints.ts';

export interface Sel { sectionId: string; componentId?: string }

const esc = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
export const compPath = (sid: string, cid: string): string => `/sections/${esc(sid)}/components/${esc(cid)}`;

/** child id → parent id, for one surface. */
export function parents(s: SurfaceSection): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of Object.values(s.components)) for (const k of c.children ?? []) if (!out.has(k)) out.set(k, c.id);
  return out;
}

/** Depth-first order from root: [id, depth]; unreachable components are left out. */
export function walk(s: SurfaceSection): [string, number][] {
  const out: [string, number][] = [];
  const seen = new Set<string>();
  const go = (id: string, d: number): void => {
    if (seen.has(id) || !s.components[id]) return;
    seen.add(id);
    out.push([id, d]);
    for (const k of s.components[id]?.children ?? []) go(k, d + 1);
  };
  go('root', 0);
  return out;
}

/** `id` and every component under it. */
export function subtree(s: SurfaceSection, id: string): string[] {
  const out: string[] = [];
  const go = (x: string): void => {
    if (out.includes(x) || !s.components[x]) return;
    out.push(x);
    for (const k of s.components[x]?.children ?? []) go(k);
  };
  go(id);
  return out;
}

/** A fresh id for a component of this kind: `heading-3`. */
export function freshId(s: SurfaceSection, kind: string): string {
  const base = kind.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').replace(/^([^a-z])/, 'c-$1').slice(0, 30) || 'c';
  for (let i = 1; ; i++) if (!s.components[`${base}-${i}`]) return `${base}-${i}`;
}

export type ChildrenPolicy = 'none' | 'any' | readonly string[];
export const accepts = (policy: ChildrenPolicy | undefined, kind: string): boolean =>
  policy === 'any' || (Array.isArray(policy) && policy.includes(kind));

/**
 * Ops that add `bp` (a component, maybe with children): inside the selected component when it
 * takes that kind of child, else after it in its parent, else at the end of root.
 */
export function addOps(s: SurfaceSection, sel: string | undefined, bp: Blueprint, policyOf: (name: string) => ChildrenPolicy | undefined): { id: string; ops: Op[] } {
  const { id, ops } = blueprintOps(s, bp);
  const target = sel && s.components[sel];
  if (target && accepts(policyOf(target.component), bp.component)) return { id, ops: [...ops, appendChild(s, target.id, id)] };
  const p = sel ? parents(s).get(sel) : undefined;
  if (sel && p) {
    const i = (s.components[p]?.children ?? []).indexOf(sel);
    return { id, ops: [...ops, { op: 'add', path: `${compPath(s.id, p)}/children/${i + 1}`, value: id }] };
  }
  return { id, ops: [...ops, appendChild(s, 'root', id)] };
}

/** Ops that copy `id` and everything under it (fresh ids), placed right after it. */
export function duplicateOps(s: SurfaceSection, id: string): { id: string; ops: Op[] } | null {
  const p = parents(s).get(id);
  if (id === 'root' || !p) return null;
  const copy = (x: string): Blueprint => {
    const c = s.components[x]!;
    return { component: c.component, ...(c.props ? { props: structuredClone(c.props) } : {}), children: (c.children ?? []).filter((k) => s.components[k]).map(copy) };
  };
  const made = blueprintOps(s, copy(id));
  const i = (s.components[p]?.children ?? []).indexOf(id);
  return { id: made.id, ops: [...made.ops, { op: 'add', path: `${compPath(s.id, p)}/children/${i + 1}`, value: made.id }] };
}

/** Appends `id` to `parent`'s children, creating the list when the parent has none yet. */
function appendChild(s: SurfaceSection, parent: string, id: string): Op {
  return s.components[parent]?.children
    ? { op: 'add', path: `${compPath(s.id, parent)}/children/-`, value: id }
    : { op: 'add', path: `${compPath(s.id, parent)}/children`, value: [id] };
}

/** Ops that delete a component and everything under it (root is never deleted). */
export function removeOps(s: SurfaceSection, id: string): Op[] {
  const p = parents(s).get(id);
  if (id === 'root' || !p) return [];
  const i = (s.components[p]?.children ?? []).indexOf(id);
  return [{ op: 'remove', path: `${compPath(s.id, p)}/children/${i}` }, ...subtree(s, id).map((x): Op => ({ op: 'remove', path: compPath(s.id, x) }))];
}

/** Move a component one place up (-1) or down (+1) among its siblings. */
export function reorderOps(s: SurfaceSection, id: string, dir: -1 | 1): Op[] {
  const p = parents(s).get(id);
  if (!p) return [];
  const kids = s.components[p]?.children ?? [];
  const i = kids.indexOf(id);
  const j = i + dir;
  if (i < 0 || j < 0 || j >= kids.length) return [];
  return [{ op: 'move', from: `${compPath(s.id, p)}/children/${i}`, path: `${compPath(s.id, p)}/children/${j}` }];
}

/**
 * Move a component to the end of another parent's children. The ops are sent even when they make
 * a cycle in a stale view: the server is the judge (a concurrent opposite move is refused there).
 */
export function reparentOps(s: SurfaceSection, id: string, to: string): Op[] {
  const p = parents(s).get(id);
  if (!p || p === to || id === to || !s.components[to]) return [];
  const i = (s.components[p]?.children ?? []).indexOf(id);
  return [
    { op: 'remove', path: `${compPath(s.id, p)}/children/${i}` },
    appendChild(s, to, id),
  ];
}

/** Components that could take `id` as a child (not itself or its own subtree). */
export function moveTargets(s: SurfaceSection, id: string, policyOf: (name: string) => ChildrenPolicy | undefined): string[] {
  const kind = s.components[id]?.component ?? '';
  const under = new Set(subtree(s, id));
  const p = parents(s).get(id);
  return walk(s).map(([x]) => x).filter((x) => !under.has(x) && x !== p && accepts(policyOf(s.components[x]?.component ?? ''), kind));
}

/**
 * A new section: a root Stack with one heading. Only the section is added: the server's repair
 * appends it to the page order (sending that too would list it twice).
 */
export function addSectionOps(d: Draft, catalogId = 'weft@1'): { id: string; ops: Op[] } {
  let n = d.order.length + 1;
  while (Object.hasOwn(d.sections, `section-${n}`)) n++;
  const id = `section-${n}`;
  const value = {
    id, kind: 'surface', catalog: catalogId, data: {},
    components: {
      root: { id: 'root', component: 'Stack', children: ['heading-1'] },
      'heading-1': { id: 'heading-1', component: 'Heading', props: { text: 'New section', level: 2 } },
    },
  } as unknown as JsonObject;
  return { id, ops: [{ op: 'add', path: `/sections/${esc(id)}`, value }] };
}

/** Removing a section: the server's repair takes it out of order too. */
export function removeSectionOps(id: string): Op[] {
  return [{ op: 'remove', path: `/sections/${esc(id)}` }];
}

/** A copy of a section (same components, data and style) placed right after it in the order. */
export function duplicateSectionOps(d: Draft, sid: string): { id: string; ops: Op[] } | null {
  const s = d.sections[sid];
  const i = d.order.indexOf(sid);
  if (!s || i < 0) return null;
  const stem = sid.replace(/-copy(-\d+)?$/, '').slice(0, 30);
  let id = `${stem}-copy`;
  for (let n = 2; Object.hasOwn(d.sections, id); n++) id = `${stem}-copy-${n}`;
  const value = { ...structuredClone(s), id } as unknown as JsonObject;
  // One transaction: the section and its place in order, judged as a whole (@weft/ydoc).
  return { id, ops: [{ op: 'add', path: `/sections/${esc(id)}`, value }, { op: 'add', path: `/order/${i + 1}`, value: id }] };
}

export function moveSectionOps(d: Draft, id: string, dir: -1 | 1): Op[] {
  const i = d.order.indexOf(id);
  const j = i + dir;
  if (i < 0 || j < 0 || j >= d.order.length) return [];
  return [{ op: 'move', from: `/order/${i}`, path: `/order/${j}` }];
}

/**
 * Ops that put `id` right after `target` in target's parent (onto root: first in root) — what a
 * drop on an outline row means. One `move` within the same parent; else out of one, into the
 * other. Nothing when it would not change anything or would put a component inside itself.
 */
export function dropMoveOps(s: SurfaceSection, id: string, target: string): Op[] {
  if (id === 'root' || id === target || subtree(s, id).includes(target)) return [];
  const ps = parents(s);
  const from = ps.get(id);
  if (!from) return [];
  const to = target === 'root' ? 'root' : ps.get(target);
  if (!to) return [];
  const fromKids = s.components[from]?.children ?? [];
  const toKids = s.components[to]?.children ?? [];
  const i = fromKids.indexOf(id);
  let j = target === 'root' ? 0 : toKids.indexOf(target) + 1;
  if (from === to) {
    if (j > i) j -= 1; // the list is one shorter once it is taken out
    if (i === j) return [];
    return [{ op: 'move', from: `${compPath(s.id, from)}/children/${i}`, path: `${compPath(s.id, to)}/children/${j}` }];
  }
  return [
    { op: 'remove', path: `${compPath(s.id, from)}/children/${i}` },
    { op: 'add', path: `${compPath(s.id, to)}/children/${j}`, value: id },
  ];
}
