import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configDocs, CONFIG_SECTIONS } from '../src/config.ts';

describe('docs/config.md', () => {
  it('is what the schemas generate (run `npm run docs:config` after changing one)', () => {
    expect(readFileSync(new URL('../../../docs/config.md', import.meta.url), 'utf8')).toBe(configDocs());
  });

  it('documents every variable the code reads from the environment', () => {
    const doc = configDocs();
    for (const s of CONFIG_SECTIONS) for (const name of Object.keys(s.spec)) expect(doc).toContain(`| \`${name}\` |`);
    // Names read anywhere in the services' sources (env['X'] / process.env['X']) are all declared.
    const declared = new Set(CONFIG_SECTIONS.flatMap((s) => Object.keys(s.spec)));
    const files = ['services/launcher/src/start.ts', 'services/preview/src/main.ts', 'services/checkpointer/src/main.ts'];
    for (const f of files) {
      const text = readFileSync(new URL(`../../../${f}`, import.meta.url), 'utf8');
      for (const m of text.matchAll(/env\[['"]([A-Z_]+)['"]\]/g)) expect(declared.has(m[1]!), `${f} reads ${m[1]}`).toBe(true);
    }
  });
});
