// Two versions of a section → the JSON Patch ops against the id-keyed draft that turn one into
// the other. Paths: /sections/<sid>, /sections/<sid>/components/<cid>, /sections/<sid>/data/<key>.
import type { Json, Op, SurfaceSection } from '@weft/core';
import { deepEqual, escapeToken } from './json-util.ts';

export function sectionPath(sid: string): string {
  return `/sections/${escapeToken(sid)}`;
}

/**
 * Ops for a changed section. One changed component → one op on it. A change that adds or removes
 * components alongside others (a new subtree, a template expanded by new data) → one `replace` of
 * the components map, because each op is validated on its own and a subtree added piece by piece
 * is unreachable or missing a child in between.
 */
export function diffSection(prev: SurfaceSection, next: SurfaceSection): Op[] {
  const base = sectionPath(next.id);
  const comp = componentOps(prev, next, base);
  const ops: Op[] =
    comp.length > 1 && comp.some((o) => o.op !== 'replace')
      ? [{ op: 'replace', path: `${base}/components`, value: next.components as unknown as Json }]
      : comp;
  if (!deepEqual(prev.data, next.data)) {
    for (const [k, v] of Object.entries(next.data)) {
      const path = `${base}/data/${escapeToken(k)}`;
      if (!(k in prev.data)) ops.push({ op: 'add', path, value: v });
      else if (!deepEqual(prev.data[k], v)) ops.push({ op: 'replace', path, value: v });
    }
    for (const k of Object.keys(prev.data)) if (!(k in next.data)) ops.push({ op: 'remove', path: `${base}/data/${escapeToken(k)}` });
  }
  if (prev.catalog !== next.catalog) ops.push({ op: 'replace', path: `${base}/catalog`, value: next.catalog });
  return ops;
}

function componentOps(prev: SurfaceSection, next: SurfaceSection, base: string): Op[] {
  const ops: Op[] = [];
  for (const [id, c] of Object.entries(next.components)) {
    const old = prev.components[id];
    const path = `${base}/components/${escapeToken(id)}`;
    if (old === undefined) ops.push({ op: 'add', path, value: c as unknown as Json });
    else if (!deepEqual(old, c)) ops.push({ op: 'replace', path, value: c as unknown as Json });
  }
  for (const id of Object.keys(prev.components)) {
    if (next.components[id] === undefined) ops.push({ op: 'remove', path: `${base}/components/${escapeToken(id)}` });
  }
  return ops;
}
