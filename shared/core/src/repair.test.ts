// The repairs of issue 19, each through applyStep (the draft stays valid, the inverse exact) and
// each reported as a note with its rule and pointer — never silent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkedStep as step, heroDraft } from '../test/fixtures.ts';
import { defaultCatalog } from './catalog/catalog.ts';
import type { JSONSchema } from './catalog/types.ts';
import { foldName, snapName } from './distance.ts';
import type { Json } from './draft.ts';
import { kebabId } from './limits.ts';
import type { Problem } from './problem.ts';
import { readingOrder } from './repair-paths.ts';
import { conformValue } from './repair-values.ts';

const H = '/sections/hero/components';
const link = (id: string) => ({ op: 'add', path: `${H}/root/children/-`, value: id });
const notesOf = (r: { notes: { rule: string; path: string }[] }, rule: string) => r.notes.filter((n) => n.rule === rule).map((n) => n.path);
const shell = (id: string, components: Record<string, unknown>) => ({ op: 'add', path: `/sections/${id}`, value: { id, kind: 'surface', catalog: 'weft@1', data: {}, components } });

describe('aliases: a prop sent under another name is read as ours, before any fill', () => {
  it('[renamed_prop] Button text → label, so the example ("Get started") never hides it', () => {
    const r = step([{ op: 'add', path: `${H}/go`, value: { id: 'go', component: 'Button', props: { text: 'Order bread', href: '/order' } } }, link('go')]);
    expect(r.refused).toEqual([]);
    expect(r.d.sections['hero']!.components['go']!.props).toEqual({ label: 'Order bread', href: '/order' });
    expect(notesOf(r, 'renamed_prop')).toEqual([`${H}/go/props/text`]);
    expect(notesOf(r, 'filled_required')).toEqual([]);
  });
  it('[renamed_prop] Chart data → series and type → kind; a prop already there under our name wins', () => {
    const series = [{ label: 'Jan', value: 1 }];
    const r = step([{ op: 'add', path: `${H}/c`, value: { id: 'c', component: 'Chart', props: { type: 'line', data: series, kind: 'area' } } }, link('c')]);
    expect(r.d.sections['hero']!.components['c']!.props).toEqual({ kind: 'area', series });
    expect(notesOf(r, 'renamed_prop')).toEqual([`${H}/c/props/data`]);
    expect(notesOf(r, 'dropped_prop')).toEqual([`${H}/c/props/type`]);
  });
  it('[renamed_prop] Markdown text → source: the body sent is kept, not replaced by the example', () => {
    const r = step([{ op: 'add', path: `${H}/md`, value: { id: 'md', component: 'Markdown', props: { text: '## Menu\n\n*Rye*' } } }, link('md')]);
    expect(r.refused).toEqual([]);
    expect(r.d.sections['hero']!.components['md']!.props).toEqual({ source: '## Menu\n\n*Rye*' });
    expect(notesOf(r, 'renamed_prop')).toEqual([`${H}/md/props/text`]);
    expect(notesOf(r, 'filled_required')).toEqual([]);
  });
  it('[filled_required] a fill says which props were dropped beside it, so the model can name the right one', () => {
    const r = step([{ op: 'add', path: `${H}/q`, value: { id: 'q', component: 'Disclosure', props: { heading: 'Why?' } } }, link('q')]);
    expect(r.notes.find((n) => n.rule === 'filled_required')).toMatchObject({ path: `${H}/q/props/summary`, message: expect.stringContaining('you sent "heading", which Disclosure does not take: if you meant "summary", write "summary"') });
  });
  it('[renamed_prop] an alias in the path: replace …/props/text of a Button writes its label', () => {
    const d = heroDraft();
    d.sections['hero']!.components['go'] = { id: 'go', component: 'Button', props: { label: 'Old' } };
    d.sections['hero']!.components['root']!.children!.push('go');
    const r = step([{ op: 'replace', path: `${H}/go/props/text`, value: 'New' }], d);
    expect(r.d.sections['hero']!.components['go']!.props).toEqual({ label: 'New' });
    expect(notesOf(r, 'renamed_prop')).toEqual([`${H}/go/props/text`]);
  });
});

describe('inline props (A2UI) and nested unknowns', () => {
  it('[renamed_prop] fields the entry knows, written beside id and component, move under props', () => {
    const r = step([{ op: 'add', path: `${H}/t`, value: { id: 't', component: 'Toggle', options: ['monthly', 'yearly'], value: { path: '/billing' } } }, link('t')]);
    expect(r.refused).toEqual([]);
    expect(r.d.sections['hero']!.components['t']).toEqual({ id: 't', component: 'Toggle', props: { options: ['monthly', 'yearly'], value: { path: '/billing' } } });
    expect(notesOf(r, 'renamed_prop')).toEqual([`${H}/t/options`, `${H}/t/value`]);
  });
  it('[dropped_prop] an unknown field inside a nested prop object is dropped, not the whole section', () => {
    const plans = [{ name: 'A', price: { monthly: 1, yearly: 10 } }, { name: 'B', price: { monthly: 2, yearly: 20 }, ribbon: 'hot' }];
    const r = step([shell('p', { root: { id: 'root', component: 'pricing-table', props: { plans } } })]);
    expect(r.refused).toEqual([]);
    expect(r.d.sections['p']!.components['root']!.props!['plans']).toEqual([plans[0], { name: 'B', price: { monthly: 2, yearly: 20 } }]);
    expect(notesOf(r, 'dropped_prop')).toEqual(['/sections/p/components/root/props/plans/1/ribbon']);
  });
});

describe('snapping: case- and separator-folded names first', () => {
  it('[snapped_name] PricingTable → pricing-table, far apart by edits but the same folded', () => {
    const r = step([shell('p', { root: { id: 'root', component: 'PricingTable', props: { plans: [{ name: 'A', price: { monthly: 1, yearly: 2 } }] } } })]);
    expect(r.d.sections['p']!.components['root']!.component).toBe('pricing-table');
    expect(notesOf(r, 'snapped_name')).toEqual(['/sections/p/components/root/component']);
  });
  it('folding is unique or nothing; otherwise the edit distance rule applies', () => {
    expect(snapName('pricing_table', ['pricing-table', 'Table'])).toBe('pricing-table');
    expect(snapName('ab', ['a-b', 'A_B'])).toBeNull();
    expect(snapName('Buton', ['Button', 'Badge'])).toBe('Button');
    expect(foldName('Pricing Table')).toBe('pricingtable');
  });
});

describe('lenient coercions', () => {
  it('[coerced_value] "2" → 2 where the schema says integer, nested too; a string prop stays a string', () => {
    const r = step([
      { op: 'replace', path: `${H}/title/props/level`, value: '3' },
      shell('p', { root: { id: 'root', component: 'Stack', children: ['s', 'pt'] }, s: { id: 's', component: 'Stat', props: { label: 'Orders', value: '1240' } }, pt: { id: 'pt', component: 'pricing-table', props: { plans: [{ name: 'A', price: { monthly: '10', yearly: '100.5' } }] } } }),
    ]);
    expect(r.refused).toEqual([]);
    expect(r.d.sections['hero']!.components['title']!.props!['level']).toBe(3);
    expect(r.d.sections['p']!.components['s']!.props!['value']).toBe('1240');
    expect(r.d.sections['p']!.components['pt']!.props!['plans']).toEqual([{ name: 'A', price: { monthly: 10, yearly: 100.5 } }]);
    expect(notesOf(r, 'coerced_value')).toEqual([`${H}/title/props/level`, '/sections/p/components/pt/props/plans/0/price/monthly', '/sections/p/components/pt/props/plans/0/price/yearly']);
  });
  it('[coerced_value] "true" → true for a boolean; "1.5" stays refused where the schema says integer', () => {
    const r = step([{ op: 'add', path: `${H}/acc`, value: { id: 'acc', component: 'Accordion', props: { multiple: 'true' } } }, link('acc')]);
    expect(r.d.sections['hero']!.components['acc']!.props).toEqual({ multiple: true });
    expect(step([{ op: 'replace', path: `${H}/title/props/level`, value: '1.5' }]).refused.map((x) => x.rule)).toEqual(['invalid_props']);
  });
  it('[rewrote_op] replace of a prop that does not exist yet is applied as add', () => {
    const r = step([{ op: 'replace', path: `${H}/price/props/size`, value: 'lg' }]);
    expect(r.refused).toEqual([]);
    expect(r.applied).toEqual([{ op: 'add', path: `${H}/price/props/size`, value: 'lg' }]);
    expect(notesOf(r, 'rewrote_op')).toEqual([`${H}/price/props/size`]);
    expect(step([{ op: 'replace', path: `${H}/nope/props/size`, value: 'lg' }]).refused.map((x) => x.rule)).toEqual(['path_not_found']);
  });
  it('[rewrote_op] a redundant add /order/- after adding the section is a no-op, not a refusal', () => {
    const r = step([shell('s', { root: { id: 'root', component: 'Stack' } })]);
    const again = step([{ op: 'add', path: '/order/-', value: 's' }], r.d);
    expect(again.refused).toEqual([]);
    expect(again.applied).toEqual([{ op: 'test', path: '/order/1', value: 's' }]);
    expect(again.d.order).toEqual(['hero', 's']);
    expect(notesOf(again, 'rewrote_op')).toEqual(['/order/-']);
  });
  it('[rewrote_op] appending to a children list that is not there yet creates it', () => {
    const r = step([shell('s', { root: { id: 'root', component: 'Stack' } }), { op: 'add', path: '/sections/s/components/x', value: { id: 'x', component: 'Text', props: { text: 'x' } } }, { op: 'add', path: '/sections/s/components/root/children/-', value: 'x' }]);
    expect(r.refused).toEqual([]);
    expect(r.d.sections['s']!.components['root']!.children).toEqual(['x']);
  });
});

describe('ids and positions', () => {
  it('[renamed_id] camelCase ids become kebab-case in the path, the value and children, across steps', () => {
    const r = step([shell('salesBoard', { root: { id: 'root', component: 'Stack', children: ['dashTitle'] }, dashTitle: { id: 'dashTitle', component: 'Heading', props: { text: 'Q2' } } })]);
    expect(r.refused).toEqual([]);
    expect(r.d.order).toEqual(['hero', 'sales-board']);
    expect(r.d.sections['sales-board']!.components['root']!.children).toEqual(['dash-title']);
    expect(notesOf(r, 'renamed_id')).toEqual(['/sections/salesBoard']);
    const later = step([
      { op: 'add', path: '/sections/salesBoard/components/kpiRow', value: { id: 'kpiRow', component: 'Row' } },
      { op: 'add', path: '/sections/salesBoard/components/root/children/-', value: 'kpiRow' },
    ], r.d);
    expect(later.refused).toEqual([]);
    expect(later.d.sections['sales-board']!.components['root']!.children).toEqual(['dash-title', 'kpi-row']);
  });
  it('kebabId only rewrites what is invalid and becomes valid', () => {
    expect(kebabId('heroTitle')).toBe('hero-title');
    expect(kebabId('plan_period')).toBe('plan-period');
    expect(kebabId('hero')).toBeNull();
    expect(kebabId('9lives')).toBeNull();
  });
  it('[rewrote_path] /components/<n> is the n-th component in reading order (depth first from root)', () => {
    expect(readingOrder(heroDraft().sections['hero']!)).toEqual(['root', 'title', 'tabs', 'monthly', 'price']);
    const r = step([{ op: 'replace', path: '/sections/0/components/4/props/text', value: '12 €' }]);
    expect(r.refused).toEqual([]);
    expect(r.d.sections['hero']!.components['price']!.props!['text']).toBe('12 €');
    expect(notesOf(r, 'rewrote_path')).toEqual(['/sections/0/components/4/props/text', '/sections/0/components/4/props/text']);
    const none = step([{ op: 'replace', path: `${H}/9/props/text`, value: 'x' }]);
    expect(none.refused[0]).toMatchObject({ rule: 'path_not_found', path: `${H}/9/props/text`, message: expect.stringContaining('address components by id') });
  });
});

describe('a bad leaf does not refuse its section', () => {
  it('an icon not in the set is left out and refused with its pointer; the rest of the section is written', () => {
    const r = step([shell('s', {
      root: { id: 'root', component: 'Stack', children: ['row'] },
      row: { id: 'row', component: 'Row', children: ['icon', 'title'] },
      icon: { id: 'icon', component: 'Icon', props: { name: 'trending-up' } },
      title: { id: 'title', component: 'Heading', props: { text: 'Sales' } },
    })]);
    expect(r.d.sections['s']!.components['row']!.children).toEqual(['title']);
    expect(r.d.sections['s']!.components['icon']).toBeUndefined();
    expect(r.refused).toEqual([{ code: 'VALIDATION_FAILED', rule: 'invalid_props', kind: 'contract', path: '/sections/s/components/icon/props', message: expect.stringMatching(/name must be one of[^]*left out of section "s"[^]*add it again/), index: 0 }]);
  });
});

describe('conformValue (fuzzed)', () => {
  const schemas: JSONSchema[] = Object.values(defaultCatalog.entries).flatMap((e) => Object.values(e.props['properties'] as Record<string, JSONSchema>));
  it('never throws, never touches bindings or calls, and reports every change it makes', () => {
    fc.assert(fc.property(fc.constantFrom(...schemas), fc.jsonValue({ maxDepth: 4 }), (schema, raw) => {
      const v = structuredClone(raw) as Json;
      const notes: Problem[] = [];
      const out = conformValue(schema, v, '/p', notes);
      if (JSON.stringify(out) !== JSON.stringify(raw)) expect(notes.length).toBeGreaterThan(0);
      for (const n of notes) expect(['coerced_value', 'dropped_prop']).toContain(n.rule);
      const binding = { path: '/x' };
      expect(conformValue(schema, binding, '/p', [])).toEqual({ path: '/x' });
    }), { numRuns: 400 });
  });
});

describe('the repairs under random steps (fuzzed)', () => {
  // Ops in the shapes models write: camelCase ids, positions, aliases, inline props, quoted numbers.
  const anyOp = fc.oneof(
    fc.record({ op: fc.constantFrom('add', 'replace'), path: fc.constantFrom('/sections/newOne', '/sections/new_one', '/sections/1'), value: fc.constantFrom(
      { id: 'newOne', components: { root: { id: 'root', component: 'Stack', children: ['bigTitle'] }, bigTitle: { id: 'bigTitle', component: 'heading', text: 'x', level: '2' } } },
      { id: 'newOne', components: [{ id: 'root', component: 'Row', children: ['i'] }, { id: 'i', component: 'Icon', props: { name: 'nope' } }] },
      { id: 'new_one', components: {} },
    ) }),
    fc.record({ op: fc.constantFrom('add', 'replace', 'remove'), path: fc.constantFrom('/sections/0/components/1/props/text', '/sections/hero/components/2', '/sections/newOne/components/bigTitle/props/level', `${H}/price/props/size`, `${H}/go/props/text`, `${H}/root/children/-`, '/order/-'), value: fc.constantFrom('3', 'lg', 'newOne', 'go', 'hero', 7) }),
    fc.record({ op: fc.constant('add'), path: fc.constantFrom(`${H}/go`, '/sections/newOne/components/kpiRow'), value: fc.constantFrom({ id: 'go', component: 'Button', text: 'Go' }, { id: 'kpiRow', component: 'row', props: { gap: 'Large' } }, { id: 'go', component: 'PricingTable', plans: [{ name: 'a', price: { monthly: '1', yearly: '2' }, extra: 1 }] }) }),
  );
  it('never leave an invalid draft; the inverse restores it exactly; every applied repair is noted', () => {
    fc.assert(fc.property(fc.array(fc.array(anyOp, { minLength: 1, maxLength: 6 }), { maxLength: 4 }), (steps) => {
      let d = heroDraft();
      for (const ops of steps) {
        const r = step(structuredClone(ops), d);
        for (const n of r.notes) expect(n.path).toMatch(/^\//);
        d = r.d;
      }
    }), { numRuns: 300 });
  });
});
