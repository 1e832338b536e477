// Per-component catalog manifests (`catalog/<Name>/catalog.json`, docs/catalog.md "Manifests"):
// each component's entry as a file a tool or another renderer can read, generated from the same
// entries the validator compiles, so a manifest cannot promise what validation refuses.
import type { JsonObject } from '../draft.ts';
import type { Catalog, CatalogEntry } from './types.ts';

/** One file of the manifest set: a path under `catalog/` and its JSON text (stable, 2-space). */
export interface ManifestFile { path: string; text: string }

/** One component's manifest. `props` keeps the x-* annotations the validator checks in code. */
export function componentManifest(catalog: Catalog, e: CatalogEntry): JsonObject {
  return {
    catalog: catalog.id,
    name: e.name,
    group: e.group,
    description: e.description,
    children: typeof e.children === 'string' ? e.children : [...e.children],
    required: [...e.required],
    bindable: [...e.bindable],
    aliases: { ...e.aliases },
    props: e.props as JsonObject,
    example: e.example,
  };
}

/** The whole set: `catalog.json` (the id and the components) and `<Name>/catalog.json` each. */
export function catalogManifests(catalog: Catalog): ManifestFile[] {
  const text = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;
  const names = [...catalog.componentNames];
  return [
    { path: 'catalog.json', text: text({ id: catalog.id, components: names }) },
    ...names.map((n) => ({ path: `${n}/catalog.json`, text: text(componentManifest(catalog, catalog.getEntry(n)!)) })),
  ];
}
