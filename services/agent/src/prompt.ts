// The system prompt: shared/interop's catalogPrompt (one source with the validator), plus how
// to answer. Looked up at run time while interop's catalogPrompt is landing; the fallback is
// generated from the same catalog entries.
import * as interop from '@weft/interop';
import { defaultCatalog } from '@weft/core';
import type { Catalog } from '@weft/core';

export const ANSWER_FORMAT = [
  'Answer with JSON Lines: one step per line, each {"ops":[…RFC 6902 ops…]}, {"say":"…"} or {"done":true}.',
  'Address sections and components by id: /sections/<sid>, /sections/<sid>/components/<cid>.',
  'A new surface carries its "root" component in the same step.',
].join('\n');

export function catalogPromptText(catalog: Catalog = defaultCatalog): string {
  const fn = (interop as Record<string, unknown>)['catalogPrompt'];
  if (typeof fn === 'function') return `${(fn as (c: Catalog) => string)(catalog)}\n\n${ANSWER_FORMAT}`;
  const lines = [`Catalog ${catalog.id}. A page is sections; a surface section is {id, kind:"surface", catalog:"${catalog.id}", components:{<id>:{id, component, props?, children?}}, data:{}}.`];
  for (const name of catalog.componentNames) {
    const e = catalog.getEntry(name);
    if (e) lines.push(`- ${e.name} (children: ${Array.isArray(e.children) ? e.children.join('|') : e.children}) e.g. ${JSON.stringify(e.example)}`);
  }
  return `${lines.join('\n')}\n\n${ANSWER_FORMAT}`;
}
