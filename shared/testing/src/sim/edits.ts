// Random draft edits for collaboration simulations (CONVENTIONS.md §12): each edit is a list of
// JSON Patch ops that applies to the draft it was made from, labelled with what the author meant.
// Pure: the only randomness is the injected Prng, so a seed replays the same edits.
import { applyOpsUnchecked } from '@weft/core';
import type { Component, Draft, Json, Op, SurfaceSection } from '@weft/core';
import type { Prng } from '../prng.ts';

/**
 * `valid`: fine against the author's view (a concurrent edit may still make it refused).
 * `invalid`: refused against the author's view, but a concurrent edit may hide it (a prop of a
 * component someone removed produces no op at all).
 * `marked`: refused whatever else happens — it adds a fresh, broken section whose id is `marker`,
 * so the server must see it and must tell its author.
 */
export type EditIntent = 'valid' | 'invalid' | 'marked';

export interface SimEdit {
  kind: string;
  intent: EditIntent;
  ops: Op[];
  /** For `marked` edits: the fresh section id the refusal must name in `changedIds`. */
  marker?: string;
}

/** Containers the generator nests under (catalog: children `any`). */
const CONTAINERS = new Set(['Stack', 'Card', 'Row', 'Grid', 'Band', 'Columns']);
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'ψ', '✓', 'naïve', '<b>x</b>', '"q"', ''];
const MAX_SECTIONS = 8;
const MAX_COMPONENTS = 40;

/** A section a peer adds: a root Stack with one heading. */
export function simSection(id: string, headingId = 'title'): SurfaceSection {
  return {
    id, kind: 'surface', catalog: 'weft@1', data: {},
    components: {
      root: { id: 'root', component: 'Stack', children: [headingId] },
      [headingId]: { id: headingId, component: 'Heading', props: { text: `Section ${id}`, level: 2 } },
    },
  };
}

const sectionsOf = (d: Draft): SurfaceSection[] => d.order.map((id) => d.sections[id]).filter((s): s is SurfaceSection => s !== undefined);
const comps = (s: SurfaceSection): Component[] => Object.values(s.components);
const containers = (s: SurfaceSection): Component[] => comps(s).filter((c) => CONTAINERS.has(c.component) && Array.isArray(c.children));
const cpath = (s: string, c: string): string => `/sections/${s}/components/${c}`;

/** Where `id` sits: its parent and index, or null (root or orphan). */
export function parentOf(s: SurfaceSection, id: string): { parent: Component; index: number } | null {
  for (const c of comps(s)) {
    const i = c.children?.indexOf(id) ?? -1;
    if (i >= 0) return { parent: c, index: i };
  }
  return null;
}

/** `id` and everything under it. */
export function subtree(s: SurfaceSection, id: string): Set<string> {
  const out = new Set<string>();
  const walk = (x: string): void => {
    if (out.has(x)) return;
    out.add(x);
    for (const ch of s.components[x]?.children ?? []) walk(ch);
  };
  walk(id);
  return out;
}

/** Whether `ops` apply (paths resolve) to a copy of `d`: an edit must apply where it is made. */
export function applies(d: Draft, ops: readonly Op[]): boolean {
  return applyOpsUnchecked(structuredClone(d), ops).ok;
}

/**
 * One random edit of `d` by the author tagged `tag` (`n` makes fresh ids unique). Returns null
 * when the draft offers nothing for the drawn kind; callers draw again.
 */
export function randomEdit(r: Prng, d: Draft, tag: string, n: number, pInvalid = 0.25): SimEdit | null {
  const fresh = `${tag}-${n}`;
  const secs = sectionsOf(d);
  if (r.bool(pInvalid)) return invalidEdit(r, secs, fresh);
  if (secs.length === 0) return addSection(fresh);
  const s = r.pick(secs);
  const kinds = ['prop', 'prop', 'data', 'add', 'add', 'remove', 'move', 'reorder', 'title', 'card'];
  if (secs.length < MAX_SECTIONS) kinds.push('section');
  switch (r.pick(kinds)) {
    case 'prop': {
      const hs = comps(s).filter((c) => c.component === 'Heading');
      if (hs.length === 0) return null;
      const h = r.pick(hs);
      return r.bool()
        ? { kind: 'prop', intent: 'valid', ops: [{ op: 'replace', path: `${cpath(s.id, h.id)}/props`, value: { ...(h.props ?? {}), text: `${r.pick(WORDS)} ${fresh}` } }] }
        : { kind: 'prop-level', intent: 'valid', ops: [{ op: 'replace', path: `${cpath(s.id, h.id)}/props`, value: { ...(h.props ?? {}), level: 1 + r.int(6) } }] };
    }
    case 'data': {
      const value: Json = r.pick<Json>([r.int(1000), r.pick(WORDS), [r.int(9), r.int(9)], { k: fresh }, null, true]);
      return { kind: 'data', intent: 'valid', ops: [{ op: 'add', path: `/sections/${s.id}/data/${fresh}`, value }] };
    }
    case 'add':
    case 'card': {
      if (comps(s).length >= MAX_COMPONENTS) return null;
      const p = r.pick(containers(s));
      const at = r.int((p.children?.length ?? 0) + 1);
      const value = r.bool() ? { id: fresh, component: 'Card', children: [] } : { id: fresh, component: 'Heading', props: { text: fresh, level: 3 } };
      return { kind: 'add', intent: 'valid', ops: [{ op: 'add', path: cpath(s.id, fresh), value: value as unknown as Json }, { op: 'add', path: `${cpath(s.id, p.id)}/children/${at}`, value: fresh }] };
    }
    case 'remove': {
      const leaves = comps(s).filter((c) => c.id !== 'root' && (c.children?.length ?? 0) === 0);
      if (leaves.length === 0) return null;
      const c = r.pick(leaves);
      const at = parentOf(s, c.id);
      if (!at) return null;
      return { kind: 'remove', intent: 'valid', ops: [{ op: 'remove', path: `${cpath(s.id, at.parent.id)}/children/${at.index}` }, { op: 'remove', path: cpath(s.id, c.id) }] };
    }
    case 'move': {
      const movable = comps(s).filter((c) => c.id !== 'root');
      if (movable.length === 0) return null;
      const c = r.pick(movable);
      const at = parentOf(s, c.id);
      if (!at) return null;
      const below = subtree(s, c.id);
      const targets = containers(s).filter((p) => !below.has(p.id) && p.id !== at.parent.id);
      if (targets.length === 0) return null;
      const p = r.pick(targets);
      return { kind: 'move', intent: 'valid', ops: [{ op: 'remove', path: `${cpath(s.id, at.parent.id)}/children/${at.index}` }, { op: 'add', path: `${cpath(s.id, p.id)}/children/${r.int((p.children?.length ?? 0) + 1)}`, value: c.id }] };
    }
    case 'reorder': {
      const ps = containers(s).filter((p) => (p.children?.length ?? 0) >= 2);
      if (ps.length === 0) return null;
      const p = r.pick(ps);
      const len = p.children!.length;
      return { kind: 'reorder', intent: 'valid', ops: [{ op: 'move', from: `${cpath(s.id, p.id)}/children/${r.int(len)}`, path: `${cpath(s.id, p.id)}/children/${r.int(len)}` }] };
    }
    case 'title':
      return { kind: 'title', intent: 'valid', ops: [{ op: 'replace', path: '/title', value: `Page ${fresh}` }] };
    case 'section':
      return addSection(fresh);
    default:
      return null;
  }
}

/** Only the section: the pipeline appends it to the page order (a reported repair). */
function addSection(id: string): SimEdit {
  return { kind: 'section', intent: 'valid', ops: [{ op: 'add', path: `/sections/${id}`, value: simSection(id) as unknown as Json }] };
}

function invalidEdit(r: Prng, secs: SurfaceSection[], fresh: string): SimEdit | null {
  const kinds = ['marked', 'marked', 'level', 'orphan', 'self-cycle', 'double-parent', 'bad-url'];
  const kind = secs.length === 0 ? 'marked' : r.pick(kinds);
  if (kind === 'marked') {
    // A fresh key of the sections map is always visible to the server; no root → always refused.
    const marker = `bad-${fresh}`;
    return { kind: 'marked', intent: 'marked', marker, ops: [{ op: 'add', path: `/sections/${marker}`, value: { id: marker, kind: 'surface', catalog: 'weft@1', data: {}, components: {} } }] };
  }
  const s = r.pick(secs);
  switch (kind) {
    case 'level': {
      const hs = comps(s).filter((c) => c.component === 'Heading');
      if (hs.length === 0) return null;
      const h = r.pick(hs);
      return { kind, intent: 'invalid', ops: [{ op: 'replace', path: `${cpath(s.id, h.id)}/props`, value: { ...(h.props ?? {}), level: 'huge' } }] };
    }
    case 'orphan':
      return { kind, intent: 'invalid', ops: [{ op: 'add', path: cpath(s.id, fresh), value: { id: fresh, component: 'Heading', props: { text: 'orphan', level: 2 } } }] };
    case 'self-cycle': {
      const p = r.pick(containers(s));
      return { kind, intent: 'invalid', ops: [{ op: 'add', path: `${cpath(s.id, p.id)}/children/-`, value: p.id }] };
    }
    case 'double-parent': {
      const cs = comps(s).filter((c) => c.id !== 'root');
      if (cs.length === 0) return null;
      const c = r.pick(cs);
      const at = parentOf(s, c.id);
      const below = subtree(s, c.id);
      const ps = containers(s).filter((p) => p.id !== at?.parent.id && !below.has(p.id));
      if (ps.length === 0) return null;
      return { kind, intent: 'invalid', ops: [{ op: 'add', path: `${cpath(s.id, r.pick(ps).id)}/children/-`, value: c.id }] };
    }
    case 'bad-url': {
      const p = r.pick(containers(s));
      return { kind, intent: 'invalid', ops: [{ op: 'add', path: cpath(s.id, fresh), value: { id: fresh, component: 'Link', props: { text: 'x', href: 'javascript:alert(1)' } } }, { op: 'add', path: `${cpath(s.id, p.id)}/children/-`, value: fresh }] };
    }
    default:
      return null;
  }
}

/**
 * The three merges that break a tree (issue 4): two edits, each valid on its own view of `d`,
 * that together make an orphan, a double parent or a cycle. Returns null when `d` has no room
 * for the drawn kind; `setup` edits (made first, and synced) give it that room.
 */
export function treeBreakingPair(r: Prng, d: Draft, tag: string, n: number): { kind: 'orphan' | 'double-parent' | 'cycle'; a: Op[]; b: Op[] } | { setup: Op[] } | null {
  const secs = sectionsOf(d);
  if (secs.length === 0) return null;
  const s = r.pick(secs);
  const kind = r.pick(['orphan', 'double-parent', 'cycle'] as const);
  const root = s.components['root'];
  if (!root?.children) return null;
  // Empty cards directly under root: what each merge needs.
  const cards = root.children.map((id) => s.components[id]).filter((c): c is Component => c?.component === 'Card' && (c.children?.length ?? 0) === 0);
  const need = kind === 'orphan' ? 1 : 2;
  if (cards.length < need) {
    const id = `${tag}-${n}-box`;
    return { setup: [{ op: 'add', path: cpath(s.id, id), value: { id, component: 'Card', children: [] } }, { op: 'add', path: `${cpath(s.id, 'root')}/children/-`, value: id }] };
  }
  const [p, q] = [cards[0]!, cards[1]];
  const idx = (id: string): number => root.children!.indexOf(id);
  const child = `${tag}-${n}-kid`;
  const heading = (text: string): Json => ({ id: child, component: 'Heading', props: { text, level: 3 } });
  switch (kind) {
    case 'orphan':
      // a removes P while b adds a child under P.
      return { kind, a: [{ op: 'remove', path: `${cpath(s.id, 'root')}/children/${idx(p.id)}` }, { op: 'remove', path: cpath(s.id, p.id) }], b: [{ op: 'add', path: cpath(s.id, child), value: heading('orphan?') }, { op: 'add', path: `${cpath(s.id, p.id)}/children/-`, value: child }] };
    case 'double-parent':
      // a and b add the same new child, under two different parents.
      return { kind, a: [{ op: 'add', path: cpath(s.id, child), value: heading('from a') }, { op: 'add', path: `${cpath(s.id, p.id)}/children/-`, value: child }], b: [{ op: 'add', path: cpath(s.id, child), value: heading('from b') }, { op: 'add', path: `${cpath(s.id, q!.id)}/children/-`, value: child }] };
    case 'cycle':
      // a moves P under Q while b moves Q under P.
      return { kind, a: [{ op: 'remove', path: `${cpath(s.id, 'root')}/children/${idx(p.id)}` }, { op: 'add', path: `${cpath(s.id, q!.id)}/children/-`, value: p.id }], b: [{ op: 'remove', path: `${cpath(s.id, 'root')}/children/${idx(q!.id)}` }, { op: 'add', path: `${cpath(s.id, p.id)}/children/-`, value: q!.id }] };
  }
}
