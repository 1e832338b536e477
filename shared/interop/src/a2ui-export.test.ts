import { beforeAll, describe, expect, it } from 'vitest';
import { defaultCatalog, emptyDraft, validateDraft } from '@weft/core';
import type { Component, SurfaceSection } from '@weft/core';
import { a2uiExamples, a2uiValidator, readConformance, readConformanceJson } from '../test/conformance.ts';
import { fromA2ui } from './a2ui-import.ts';
import { toA2ui } from './a2ui-export.ts';
import { A2UI_MIME, A2UI_VERSION } from './a2ui-types.ts';

const lossless: string[] = [];
/** Measured: the examples whose export has no lossy note; they must round-trip exactly. */
const LOSSLESS_AT_LEAST = 34;
let check: (v: unknown) => { ok: boolean; errors: string };
beforeAll(async () => {
  check = await a2uiValidator();
});

function expectValid(messages: unknown[]): void {
  for (const m of messages) {
    const r = check(m);
    expect(r.ok, `${r.errors}\n${JSON.stringify(m).slice(0, 600)}`).toBe(true);
  }
}

/** One component of every catalog entry, built from the entry's own example props. */
function everyComponentSurface(): SurfaceSection {
  const components: Record<string, Component> = {};
  const rootKids: string[] = [];
  let n = 0;
  for (const e of Object.values(defaultCatalog.entries)) {
    const id = `c${++n}`;
    const c: Component = { id, component: e.name, props: structuredClone(e.example) };
    if (e.children !== 'none') {
      const kidName = Array.isArray(e.children) ? (e.children[0] as string) : 'Text';
      const kidEntry = defaultCatalog.getEntry(kidName);
      const kid: Component = { id: `${id}-kid`, component: kidName, props: structuredClone(kidEntry?.example ?? {}) };
      if (kidEntry && kidEntry.children !== 'none') kid.children = [];
      components[kid.id] = kid;
      c.children = [kid.id];
    }
    components[id] = c;
    rootKids.push(id);
  }
  components['root'] = { id: 'root', component: 'Stack', children: rootKids };
  return { id: 'all', kind: 'surface', catalog: 'weft@1', components, data: { name: 'Ada', items: ['a', 'b'] } };
}

describe('A2UI export validates against server_to_client.json', () => {
  it('the validator itself agrees with the spec test-cases (it is not vacuous)', () => {
    let count = 0;
    for (const f of ['button_checks.json', 'checkable_components.json', 'contact_form_example_test.json', 'function_catalog_validation.json', 'tabs_checks.json', 'text_variants.json', 'theme_validation.json']) {
      const suite = readConformanceJson('a2ui-v0.9', 'test-cases', f) as { tests: Array<{ description: string; valid: boolean; data: unknown }> };
      for (const t of suite.tests) {
        expect(check(t.data).ok, `${f}: ${t.description}`).toBe(t.valid);
        count++;
      }
    }
    expect(count).toBe(73);
  });

  it('exports a surface holding every catalog component, valid, with notes for what was flattened', () => {
    const s = everyComponentSurface();
    expect(validateDraft({ ...emptyDraft('d'), order: ['all'], sections: { all: s } }).refusals).toEqual([]);
    const { value, notes } = toA2ui(s);
    expect(value[0]).toMatchObject({ version: A2UI_VERSION, createSurface: { surfaceId: 'all' } });
    expectValid(value);
    expect(notes.some((x) => x.code === 'component-mapped' && x.message.startsWith('Stat'))).toBe(true);
    expect(notes.some((x) => x.code === 'component-dropped')).toBe(true); // Spacer
  });

  for (const ex of a2uiExamples()) {
    it(`${ex.file}: import → export validates; export → import gives the same surface`, () => {
      const imported = fromA2ui(ex.messages).value[0] as SurfaceSection;
      const exported = toA2ui(imported);
      expectValid(exported.value);
      const again = fromA2ui(exported.value, { sectionId: imported.id });
      if (exported.notes.every((n) => !n.lossy)) {
        lossless.push(ex.file);
        expect(again.value[0]).toEqual(imported);
      } else {
        // Lossy exports still round-trip to a valid surface with the same data.
        expect(again.value[0]?.data).toEqual(imported.data);
      }
    });
  }

  it('most official examples round-trip exactly (export → import → equal surface)', () => {
    expect(lossless.length).toBeGreaterThanOrEqual(LOSSLESS_AT_LEAST);
  });

  it('restores renamed ids from the import notes', () => {
    const msgs = [
      { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: 'x' } },
      { version: 'v0.9', updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Column', children: ['my_title'] }, { id: 'my_title', component: 'Text', text: 'Hi' }] } },
    ];
    const imp = fromA2ui(msgs);
    expect(Object.keys(imp.value[0]?.components ?? {})).toEqual(['root', 'my-title']);
    const exp = toA2ui(imp.value[0] as SurfaceSection, { restoreIds: imp.notes });
    const comps = (exp.value[1] as { updateComponents: { components: Array<{ id: string }> } }).updateComponents.components;
    expect(comps.map((c) => c.id)).toEqual(['root', 'my_title']);
  });

  it('maps actions: navigate → openUrl, others → event named after the action; visibility dropped with a note', () => {
    const s: SurfaceSection = {
      id: 's', kind: 'surface', catalog: 'weft@1', data: { n: 1 },
      components: {
        root: { id: 'root', component: 'Stack', children: ['go', 'inc'] },
        go: { id: 'go', component: 'Button', props: { label: 'Docs', onClick: { action: 'navigate', href: 'https://example.com/docs' } } },
        inc: { id: 'inc', component: 'Button', props: { label: 'Add', onClick: { action: 'increment', path: '/n', by: 2 } }, visible: { gt: [{ path: '/n' }, 0] } },
      },
    };
    const { value, notes } = toA2ui(s);
    expectValid(value);
    const comps = (value[1] as { updateComponents: { components: Array<Record<string, unknown>> } }).updateComponents.components;
    expect(comps.find((c) => c['id'] === 'go')?.['action']).toEqual({ functionCall: { call: 'openUrl', args: { url: 'https://example.com/docs' }, returnType: 'void' } });
    expect(comps.find((c) => c['id'] === 'inc')?.['action']).toEqual({ event: { name: 'increment', context: { path: '/n', by: 2 } } });
    expect(notes.filter((x) => x.code === 'visibility-dropped').map((x) => x.path)).toEqual(['/components/inc/visible']);
  });

  it('images: absolute on the site origin with baseUrl, else left out with a note', () => {
    const s: SurfaceSection = {
      id: 's', kind: 'surface', catalog: 'weft@1', data: {},
      components: { root: { id: 'root', component: 'Stack', children: ['pic'] }, pic: { id: 'pic', component: 'Image', props: { src: 'assets/a.png', alt: 'A' } } },
    };
    const without = toA2ui(s);
    expectValid(without.value);
    expect(without.notes.map((n) => n.code)).toContain('component-dropped');
    const withBase = toA2ui(s, { baseUrl: 'https://example.com/blog/' });
    expectValid(withBase.value);
    const comps = (withBase.value[1] as { updateComponents: { components: Array<Record<string, unknown>> } }).updateComponents.components;
    expect(comps.find((c) => c['id'] === 'pic')).toEqual({ id: 'pic', component: 'Image', url: 'https://example.com/blog/assets/a.png', description: 'A' });
  });

  it('exports the v0.9.1 MIME type constant', () => {
    expect(A2UI_MIME).toBe('application/a2ui+json');
  });

  it('imports the spec JSON Lines example (contact form): valid before its deleteSurface, gone after', () => {
    const text = readConformance('a2ui-v0.9', 'test-cases', 'contact_form_example.jsonl');
    const all = fromA2ui(text);
    expect(all.value).toEqual([]);
    expect(all.notes.map((n) => n.code)).toContain('surface-deleted');
    const lines = text.trim().split('\n');
    expect(lines.at(-1)).toContain('deleteSurface');
    const { value } = fromA2ui(lines.slice(0, -1).join('\n'));
    expect(value).toHaveLength(1);
    const draft = { ...emptyDraft('d'), order: [value[0]?.id as string], sections: { [value[0]?.id as string]: value[0] as SurfaceSection } };
    expect(validateDraft(draft).refusals).toEqual([]);
    expect(Object.keys(value[0]?.components ?? {}).length).toBeGreaterThan(5);
  });
});
