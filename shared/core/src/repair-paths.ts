// Repairs of where an op points (RFC §6 step 2), each reported as a Note: positions rewritten to
// ids (sections by order, components by reading order), camelCase / snake_case ids in kebab-case
// wherever the op names them, and own-property lookups into the draft for the repairs to read.
import type { Draft, Json, JsonObject, Section } from './draft.ts';
import { isJsonObject } from './json.ts';
import { isValidId, kebabId } from './limits.ts';
import { arrayIndex, formatPointer } from './pointer.ts';
import type { Problem } from './problem.ts';

/** Component ids in reading order (depth first from root, as the draft summary lists them),
 *  then any not in the tree: what a model means by `/components/<n>`. */
export function readingOrder(s: Section): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (id: string, depth: number): void => {
    if (seen.has(id) || depth > 64 || !Object.hasOwn(s.components, id)) return;
    seen.add(id);
    out.push(id);
    for (const ch of s.components[id]!.children ?? []) walk(ch, depth + 1);
  };
  walk('root', 0);
  for (const id of Object.keys(s.components)) if (!seen.has(id)) out.push(id);
  return out;
}

/** Rewrites `/sections/<sid>/components/<n>/…` (n-th in reading order) to the component's id. */
export function rewriteComponentIndex(d: Draft, segs: string[], notes: Problem[], original: string): Problem | null {
  const i = arrayIndex(segs[3]!);
  const s = Object.hasOwn(d.sections, segs[1]!) ? d.sections[segs[1]!] : undefined;
  if (i < 0 || !s || !isJsonObject(s.components)) return null;
  const id = readingOrder(s)[i];
  if (id === undefined) return { rule: 'path_not_found', path: original, message: `section "${segs[1]}" has no component at position ${i}; address components by id: /sections/${segs[1]}/components/<id>` };
  segs[3] = id;
  notes.push({ rule: 'rewrote_path', path: original, message: `component position ${i} rewritten to its id: ${formatPointer(segs)}` });
  return null;
}

/** camelCase / snake_case ids in kebab-case, in a path (section and component segments). */
export function kebabPath(segs: string[], renames: Map<string, string>): string[] {
  if (segs[0] !== 'sections') return segs;
  let out = segs;
  for (const i of [1, 3]) {
    const seg = segs[i];
    if (seg === undefined || (i === 3 && segs[2] !== 'components') || isValidId(seg)) continue;
    const k = kebabId(seg);
    if (k === null) continue;
    if (out === segs) out = [...segs];
    renames.set(seg, k);
    out[i] = k;
  }
  return out;
}

const kebab = (id: Json | undefined, renames: Map<string, string>): Json | undefined => {
  if (typeof id !== 'string' || isValidId(id)) return id;
  const k = kebabId(id);
  if (k === null) return id;
  renames.set(id, k);
  return k;
};

function kebabComponent(c: Json | undefined, renames: Map<string, string>): void {
  if (!isJsonObject(c)) return;
  if (c['id'] !== undefined) c['id'] = kebab(c['id'], renames)!;
  if (Array.isArray(c['children'])) c['children'] = c['children'].map((x) => kebab(x, renames)!);
}

/** The same ids in kebab-case inside the op's value, wherever the path says they are ids. */
export function kebabValue(s: readonly string[], v: Json, renames: Map<string, string>): Json {
  if (s[0] === 'order') return Array.isArray(v) ? v.map((x) => kebab(x, renames)!) : kebab(v, renames)!;
  if (s[0] !== 'sections') return v;
  if (s.length === 2 && isJsonObject(v)) {
    v['id'] = kebab(v['id'], renames) ?? v['id']!;
    const comps = v['components'];
    if (isJsonObject(comps)) {
      const map: JsonObject = {};
      for (const [id, c] of Object.entries(comps)) {
        kebabComponent(c, renames);
        map[String(kebab(id, renames))] = c;
      }
      v['components'] = map;
    } else if (Array.isArray(comps)) for (const c of comps) kebabComponent(c, renames);
  }
  if (s.length === 4 && s[2] === 'components') kebabComponent(v, renames);
  if (s[2] === 'components' && s[4] === 'children') return s.length === 5 && Array.isArray(v) ? v.map((x) => kebab(x, renames)!) : s.length === 6 ? kebab(v, renames)! : v;
  return v;
}

/** The value at the first `n` segments in the draft, own properties only (undefined when absent). */
export function lookup(d: Draft, segs: readonly string[], n = segs.length): Json | undefined {
  let cur: unknown = d;
  for (let i = 0; i < n; i++) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, segs[i]!)) return undefined;
    cur = (cur as Record<string, unknown>)[segs[i]!];
  }
  return cur as Json;
}

/** Rewrites `/sections/<n>/…` (an index into order) to `/sections/<id>/…`. */
export function rewriteSectionIndex(d: Draft, segs: string[], notes: Problem[], original: string): Problem | null {
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
