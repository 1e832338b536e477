// The checked-in manifests (catalog/ at the repo root) are what the catalog generates, and each
// one's props schema gives the validator's verdict. Regenerate: WEFT_WRITE_MANIFESTS=1 npx vitest
// run shared/core/src/catalog/manifest.test.ts (or `weft catalog manifests --out catalog`).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { defaultCatalog } from './catalog.ts';
import { catalogManifests } from './manifest.ts';

const DIR = fileURLToPath(new URL('../../../../catalog/', import.meta.url));
const files = catalogManifests(defaultCatalog);
if (process.env['WEFT_WRITE_MANIFESTS'] === '1') {
  for (const f of files) {
    mkdirSync(dirname(join(DIR, f.path)), { recursive: true });
    writeFileSync(join(DIR, f.path), f.text);
  }
}

describe('catalog manifests', () => {
  it('[CT6] catalog/ holds exactly one manifest per component, each as generated', () => {
    const dirs = readdirSync(DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    expect(dirs).toEqual([...defaultCatalog.componentNames].sort());
    for (const f of files) expect([f.path, readFileSync(join(DIR, f.path), 'utf8')]).toEqual([f.path, f.text]);
  });

  it('[CT6] each checked-in props schema gives the validator\'s verdict on the example, an unknown prop and each missing required prop', () => {
    const ajv = new Ajv({ strict: false, allErrors: false });
    for (const name of defaultCatalog.componentNames) {
      const m = JSON.parse(readFileSync(join(DIR, name, 'catalog.json'), 'utf8')) as { catalog: string; name: string; props: object; required: string[]; example: Record<string, unknown> };
      expect([m.catalog, m.name]).toEqual([defaultCatalog.id, name]);
      const schema = ajv.compile(m.props);
      const cases: Record<string, unknown>[] = [m.example, { ...m.example, notAProp: 1 }];
      for (const r of m.required) {
        const { [r]: _gone, ...rest } = m.example;
        cases.push(rest);
      }
      for (const props of cases) {
        expect([name, props, schema(props)]).toEqual([name, props, defaultCatalog.checkProps(name, props, '/p') === null]);
      }
    }
  });
});
