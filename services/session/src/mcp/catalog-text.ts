// The text `get_catalog` serves: shared/interop's `catalogPrompt(catalog)` (one source with the
// validator). Looked up at run time so this door works while interop is still landing; the
// fallback lists the same catalog entries, generated from the same schemas.
import * as interop from '@weft/interop';
import type { Catalog } from '@weft/core';

type PromptFn = (catalog: Catalog) => string;

export function catalogText(catalog: Catalog): string {
  const fn = (interop as Record<string, unknown>)['catalogPrompt'];
  if (typeof fn === 'function') return (fn as PromptFn)(catalog);
  const lines = [
    `Catalog ${catalog.id}. A page is sections; a surface section is {id, kind:"surface", catalog, components:{<id>:{id, component, props?, children?}}, data:{}}.`,
    'A new surface carries its "root" component in the same step. Ids match [a-z][a-z0-9-]{0,40}. Address components by id: /sections/<sid>/components/<cid>.',
    'Components (name: required props; children):',
  ];
  for (const name of catalog.componentNames) {
    const e = catalog.getEntry(name);
    if (!e) continue;
    const kids = e.children === 'none' ? 'no children' : e.children === 'any' ? 'any children' : `children: ${e.children.join(', ')}`;
    lines.push(`- ${e.name}: ${e.required.join(', ') || '(none)'}; ${kids}. Example props: ${JSON.stringify(e.example)}`);
  }
  return lines.join('\n');
}
