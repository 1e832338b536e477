import { describe, expect, it } from 'vitest';
import { applyStep, defaultCatalog, emptyDraft, validateDraft } from '@weft/core';
import type { Component, JSONSchema } from '@weft/core';
import { catalogPrompt, PROMPT_EXAMPLE_MARK, PROMPT_STEP_MARK } from './catalog-prompt.ts';
import { findSurfaceFences, parseSurfaceFence } from './surface-fence.ts';

const prompt = catalogPrompt(defaultCatalog);

function enumsOf(s: unknown, out: string[] = []): string[] {
  if (Array.isArray(s)) s.forEach((x) => enumsOf(x, out));
  else if (s !== null && typeof s === 'object') {
    const o = s as JSONSchema;
    if (Array.isArray(o['enum'])) out.push(...(o['enum'] as unknown[]).map(String));
    for (const v of Object.values(o)) enumsOf(v, out);
  }
  return out;
}

describe('catalogPrompt cannot drift from the catalog', () => {
  it('names every catalog entry, every prop and every enum value', () => {
    for (const e of Object.values(defaultCatalog.entries)) {
      expect(prompt).toContain(`### ${e.name} (`);
      for (const k of Object.keys((e.props['properties'] ?? {}) as object)) expect(prompt, `${e.name}.${k}`).toContain(`- ${k}`);
      for (const v of enumsOf(e.props)) {
        if (v === 'BINDING' || v === '') continue;
        expect(prompt, `${e.name} enum ${v}`).toContain(v);
      }
    }
  });

  it('lists every function and action with its fields, and the limits', () => {
    for (const f of Object.values(defaultCatalog.functions)) expect(prompt).toContain(`${f.name}(`);
    for (const a of Object.values(defaultCatalog.actions)) {
      expect(prompt).toContain(`{"action":"${a.name}"`);
      for (const k of Object.keys(a.fields)) expect(prompt).toContain(`"${k}"`);
    }
    expect(prompt).toContain('200 components');
    expect(prompt).toContain('{"ops":[…]}');
    expect(prompt).toContain('{"done":true}');
    expect(prompt).toContain('carries its root in the same step');
  });

  it('every component example in the prompt passes validation', () => {
    const examples = prompt.split('\n').filter((l) => l.startsWith(PROMPT_EXAMPLE_MARK)).map((l) => JSON.parse(l.slice(PROMPT_EXAMPLE_MARK.length)) as Component);
    expect(examples).toHaveLength(Object.keys(defaultCatalog.entries).length);
    for (const ex of examples) {
      const draft = emptyDraft('d');
      const root: Component = { id: 'root', component: 'Stack', children: [ex.id] };
      draft.sections['s'] = { id: 's', kind: 'surface', catalog: defaultCatalog.id, data: {}, components: { root, [ex.id]: ex } };
      draft.order.push('s');
      expect(validateDraft(draft).refusals, JSON.stringify(ex)).toEqual([]);
    }
  });

  it('the worked steps apply to an empty draft without refusal', () => {
    const draft = emptyDraft('d');
    const steps = prompt.split('\n').filter((l) => l.startsWith(PROMPT_STEP_MARK)).map((l) => JSON.parse(l.slice(PROMPT_STEP_MARK.length)) as { ops: unknown[] });
    expect(steps.length).toBe(2);
    for (const s of steps) expect(applyStep(draft, s.ops).refused).toEqual([]);
    expect(draft.order).toEqual(["hero"]);
    expect(validateDraft(draft).refusals).toEqual([]);
  });

  it('the fence example in the prompt parses into a valid surface', () => {
    const [fence] = findSurfaceFences(prompt);
    expect(fence).toBeDefined();
    const parsed = parseSurfaceFence(fence?.body ?? '', fence?.info ?? '');
    expect(parsed.errors).toEqual([]);
    const draft = emptyDraft('d');
    draft.sections['pricing'] = parsed.section;
    draft.order.push('pricing');
    expect(validateDraft(draft).refusals).toEqual([]);
  });
});
