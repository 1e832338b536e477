// Server data sources (RFC §1): a top-level data value {"$source": name, "query": {…}} that the
// server resolves at render time into a list the surface binds to (e.g. List/Table rows).
// Validation only, here: known sources, their known query fields, limit ≤ 50. Resolving needs
// I/O and lives with the service that renders.
import type { Json } from './draft.ts';
import type { Problem } from './problem.ts';

/** `drafts`: the drafts of this Weft instance the reader may see, as entry cards. */
export const SOURCE_NAMES = ['drafts'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];
export const MAX_SOURCE_LIMIT = 50;
export const SOURCE_SORTS = ['updated', 'title'] as const;

export interface SourceQuery {
  source: SourceName;
  limit: number;
  sort: (typeof SOURCE_SORTS)[number];
}

const isObj = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether a data value asks for a source (an object with an own `$source` key). */
export function isSourceRef(v: unknown): boolean {
  return isObj(v) && Object.hasOwn(v, '$source');
}

/** The checked query of a source reference, or the problem with it. */
export function readSource(v: unknown, at: string): { ok: true; value: SourceQuery } | { ok: false; error: Problem } {
  const bad = (path: string, m: string): { ok: false; error: Problem } => ({ ok: false, error: { rule: 'invalid_source', path, message: m } });
  if (!isObj(v)) return bad(at, 'a source is {"$source":"drafts","query":{"limit":10}}');
  for (const k of Object.keys(v)) if (k !== '$source' && k !== 'query') return bad(`${at}/${k}`, `a source has only "$source" and "query", not "${k}"`);
  const name = v['$source'];
  if (typeof name !== 'string' || !(SOURCE_NAMES as readonly string[]).includes(name)) {
    return bad(`${at}/$source`, `unknown source ${JSON.stringify(name)}; known sources: ${SOURCE_NAMES.join(', ')}`);
  }
  const q = v['query'] ?? {};
  if (!isObj(q)) return bad(`${at}/query`, 'query must be an object like {"limit":10,"sort":"updated"}');
  for (const k of Object.keys(q)) if (k !== 'limit' && k !== 'sort') return bad(`${at}/query/${k}`, `query of "${name}" has only limit and sort, not "${k}"`);
  const limit = q['limit'] ?? 10;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SOURCE_LIMIT) {
    return bad(`${at}/query/limit`, `limit must be an integer 1–${MAX_SOURCE_LIMIT}`);
  }
  const sort = q['sort'] ?? 'updated';
  if (typeof sort !== 'string' || !(SOURCE_SORTS as readonly string[]).includes(sort)) {
    return bad(`${at}/query/sort`, `sort must be one of ${SOURCE_SORTS.join(', ')}`);
  }
  return { ok: true, value: { source: name as SourceName, limit, sort: sort as SourceQuery['sort'] } };
}

/**
 * Every `$source` in a data model: allowed only as a top-level value (what a binding like
 * `{"path":"/posts"}` reads); one nested deeper is refused, so the server knows where to put rows.
 */
export function checkSources(data: Json, at: string): Problem | null {
  if (!isObj(data)) return null;
  for (const [k, v] of Object.entries(data)) {
    const here = `${at}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (isSourceRef(v)) {
      const r = readSource(v, here);
      if (!r.ok) return r.error;
      continue;
    }
    const nested = findNestedSource(v, here);
    if (nested !== null) return { rule: 'invalid_source', path: nested, message: 'a "$source" may only be a top-level value of data' };
  }
  return null;
}

/** Iterative (data can be deep): the pointer of the first `$source` key below `v`, if any. */
function findNestedSource(v: Json, at: string): string | null {
  const stack: [Json, string][] = [[v, at]];
  while (stack.length > 0) {
    const [x, p] = stack.pop() as [Json, string];
    if (Array.isArray(x)) x.forEach((y, i) => stack.push([y, `${p}/${i}`]));
    else if (isObj(x)) {
      if (Object.hasOwn(x, '$source')) return `${p}/$source`;
      for (const [k, y] of Object.entries(x)) stack.push([y, `${p}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`]);
    }
  }
  return null;
}
