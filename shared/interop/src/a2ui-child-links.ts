// Where the basic catalog keeps child links: the props whose schema is a `$ref` to
// common_types.json's ComponentId or ChildList. a2ui-child-links.test.ts derives this table from
// the conformance copy of basic_catalog.json, so it cannot drift from the schema.
import { lookup } from './json-util.ts';

export type ChildLink =
  | { prop: string; kind: 'id' }
  | { prop: string; kind: 'list' }
  /** An array of objects, each holding a ComponentId under `key` (Tabs' `tabs[].child`). */
  | { prop: string; kind: 'items'; key: string };

export const A2UI_CHILD_LINKS: Readonly<Record<string, readonly ChildLink[]>> = {
  Row: [{ prop: 'children', kind: 'list' }],
  Column: [{ prop: 'children', kind: 'list' }],
  List: [{ prop: 'children', kind: 'list' }],
  Card: [{ prop: 'child', kind: 'id' }],
  Tabs: [{ prop: 'tabs', kind: 'items', key: 'child' }],
  Modal: [{ prop: 'trigger', kind: 'id' }, { prop: 'content', kind: 'id' }],
  Button: [{ prop: 'child', kind: 'id' }],
};

/** Every component id a raw A2UI component links to, in order (template children excluded). */
export function childIds(raw: Record<string, unknown>): string[] {
  const links = lookup(A2UI_CHILD_LINKS, String(raw['component'])) ?? [];
  const out: string[] = [];
  for (const l of links) {
    const v = raw[l.prop];
    if (l.kind === 'id' && typeof v === 'string') out.push(v);
    if (l.kind === 'list' && Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.push(x);
    if (l.kind === 'items' && Array.isArray(v)) {
      for (const item of v) {
        const c = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[l.key] : undefined;
        if (typeof c === 'string') out.push(c);
      }
    }
  }
  return out;
}

/** A ChildList template `{componentId, path}` on a component, if it has one. */
export function templateOf(raw: Record<string, unknown>): { prop: string; componentId: string; path: string } | undefined {
  for (const l of lookup(A2UI_CHILD_LINKS, String(raw['component'])) ?? []) {
    if (l.kind !== 'list') continue;
    const v = raw[l.prop];
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const t = v as Record<string, unknown>;
      if (typeof t['componentId'] === 'string' && typeof t['path'] === 'string') {
        return { prop: l.prop, componentId: t['componentId'], path: t['path'] };
      }
    }
  }
  return undefined;
}
