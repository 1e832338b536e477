import { describe, expect, it } from 'vitest';
import { heroDraft } from '../test/fixtures.ts';
import type { Component, Draft } from './draft.ts';
import { validateDraft } from './invariants.ts';

const rules = (d: Draft) => validateDraft(d).refusals.map((r) => r.rule);
const comps = (d: Draft) => d.sections['hero']!.components;

describe('validateDraft', () => {
  it('[VD1] the fixture is valid', () => {
    expect(validateDraft(heroDraft())).toEqual({ refusals: [], notes: [] });
  });
  it('[cycle] refuses children that form a cycle', () => {
    const d = heroDraft();
    comps(d)['price']!.children = undefined as never;
    delete comps(d)['price']!.children;
    comps(d)['monthly']!.children = ['price'];
    comps(d)['price'] = { id: 'price', component: 'Stack', children: ['monthly'] };
    comps(d)['tabs']!.children = [];
    expect(rules(d)).toContain('cycle');
  });
  it('[cycle] refuses root as a child', () => {
    const d = heroDraft();
    comps(d)['monthly']!.children = ['price', 'root'];
    expect(rules(d)).toContain('cycle');
  });
  it('[double_parent] refuses a component with two parents', () => {
    const d = heroDraft();
    comps(d)['root']!.children = ['title', 'tabs', 'price'];
    expect(rules(d)).toContain('double_parent');
  });
  it('[unreachable] refuses a component not reachable from root', () => {
    const d = heroDraft();
    comps(d)['lost'] = { id: 'lost', component: 'Text', props: { text: 'x' } };
    expect(rules(d)).toEqual(['unreachable']);
  });
  it('[missing_root] refuses a surface without root', () => {
    const d = heroDraft();
    d.sections['hero']!.components = { title: { id: 'title', component: 'Heading', props: { text: 'x' } } };
    expect(rules(d)).toEqual(['missing_root']);
  });
  it('[missing_child] refuses children that are not in the surface', () => {
    const d = heroDraft();
    comps(d)['root']!.children!.push('ghost');
    expect(rules(d)).toEqual(['missing_child']);
  });
  it('[too_deep] refuses trees deeper than 8 levels', () => {
    const d = heroDraft();
    const c = comps(d);
    c['root']!.children = ['l2'];
    for (const id of ['title', 'tabs', 'monthly', 'price']) delete c[id];
    for (let i = 2; i <= 9; i++) c[`l${i}`] = { id: `l${i}`, component: 'Stack', children: i < 9 ? [`l${i + 1}`] : [] };
    expect(rules(d)).toEqual(['too_deep']);
    c['l8']!.children = [];
    delete c['l9'];
    expect(rules(d)).toEqual([]);
  });
  it('[invalid_id] refuses bad ids and keys that differ from ids', () => {
    const d = heroDraft();
    comps(d)['Bad'] = { id: 'Bad', component: 'Text', props: { text: 'x' } };
    expect(rules(d)).toContain('invalid_id');
    const e = heroDraft();
    comps(e)['title']!.id = 'other';
    expect(rules(e)).toContain('invalid_id');
    const f = heroDraft();
    f.sections['hero']!.id = 'x';
    expect(rules(f)).toContain('invalid_id');
    expect(rules({ ...heroDraft(), sections: { ['a'.repeat(42)]: { ...heroDraft().sections['hero']!, id: 'a'.repeat(42) } }, order: ['a'.repeat(42)] })).toContain('invalid_id');
  });
  it('[too_many_components] refuses more than 200 components', () => {
    const d = heroDraft();
    for (let i = 0; i < 196; i++) {
      comps(d)[`t${i}`] = { id: `t${i}`, component: 'Text', props: { text: 'x' } };
      comps(d)['root']!.children!.push(`t${i}`);
    }
    expect(Object.keys(comps(d)).length).toBe(201);
    expect(rules(d)).toEqual(['too_many_components']);
    delete comps(d)['t195'];
    comps(d)['root']!.children!.pop();
    expect(rules(d)).toEqual([]);
  });
  it('[data_too_large] refuses more than 64 KB of data', () => {
    const d = heroDraft();
    d.sections['hero']!.data = { blob: 'x'.repeat(64 * 1024) };
    expect(rules(d)).toEqual(['data_too_large']);
    d.sections['hero']!.data = { blob: 'x'.repeat(64 * 1024 - 20) };
    expect(rules(d)).toEqual([]);
  });
  it('[too_many_surfaces] refuses more than 30 surfaces', () => {
    const d = heroDraft();
    for (let i = 0; i < 30; i++) {
      d.sections[`s${i}`] = { ...structuredClone(d.sections['hero']!), id: `s${i}` };
      d.order.push(`s${i}`);
    }
    expect(rules(d)).toEqual(['too_many_surfaces']);
  });
  it('[OR1] order lists every section exactly once', () => {
    const d = heroDraft();
    d.order.push('hero');
    expect(rules(d)).toEqual(['duplicate_id']);
    const e = heroDraft();
    e.order = [];
    expect(rules(e)).toEqual(['path_not_found']);
    const f = heroDraft();
    f.order.push('nope');
    expect(rules(f)).toEqual(['path_not_found']);
  });
  it('[children_not_allowed] refuses children where the entry allows none or not that kind', () => {
    const d = heroDraft();
    comps(d)['title']!.children = ['price'];
    comps(d)['monthly']!.children = [];
    expect(rules(d)).toContain('children_not_allowed');
    const e = heroDraft();
    comps(e)['tabs']!.children = ['monthly', 'title'];
    comps(e)['root']!.children = ['tabs'];
    expect(rules(e)).toEqual(['children_not_allowed']);
  });
  it('[invalid_props] checks props of every known component', () => {
    const d = heroDraft();
    comps(d)['title']!.props = { text: 'x', level: 7 };
    expect(rules(d)).toEqual(['invalid_props']);
  });
  it('[unknown_component] keeps unknown components, flags them and skips their props', () => {
    const d = heroDraft();
    comps(d)['price'] = { id: 'price', component: 'FancyWidget', props: { anything: [1, 2] } } as Component;
    const r = validateDraft(d);
    expect(r.refusals).toEqual([]);
    expect(r.notes.map((n) => n.rule)).toEqual(['unknown_component']);
  });
  it('[invalid_section] refuses unknown section fields and kinds', () => {
    const d = heroDraft();
    (d.sections['hero'] as unknown as Record<string, unknown>)['extra'] = 1;
    expect(rules(d)).toEqual(['invalid_section']);
    const e = heroDraft();
    (e.sections['hero'] as unknown as Record<string, unknown>)['kind'] = 'markdown';
    expect(rules(e)).toEqual(['invalid_section']);
    const f = heroDraft();
    f.sections['hero']!.style = { width: 'huge' as never };
    expect(rules(f)).toEqual(['invalid_section']);
  });
});
