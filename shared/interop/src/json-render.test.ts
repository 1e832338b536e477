import { describe, expect, it } from 'vitest';
import { validateSpec } from '@json-render/core';
import type { Spec } from '@json-render/core';
import { defaultCatalog, emptyDraft, validateDraft } from '@weft/core';
import type { SurfaceSection } from '@weft/core';
import { a2uiExamples } from '../test/conformance.ts';
import { fromA2ui } from './a2ui-import.ts';
import { fromJsonRender, toJsonRender } from './json-render.ts';

function valid(s: SurfaceSection): void {
  const d = emptyDraft('d');
  d.sections[s.id] = s;
  d.order.push(s.id);
  expect(validateDraft(d, defaultCatalog).refusals).toEqual([]);
}

const surface: SurfaceSection = {
  id: 'pricing', kind: 'surface', catalog: 'weft@1',
  data: { billing: 'monthly', count: 3, name: 'Ada' },
  components: {
    root: { id: 'root', component: 'Stack', children: ['title', 'switch', 'yearly', 'adult', 'go'] },
    title: { id: 'title', component: 'Heading', props: { text: { call: 'concat', args: { parts: ['Hi ', { path: '/name' }] } }, level: 2 } },
    switch: { id: 'switch', component: 'Toggle', props: { options: ['monthly', 'yearly'], value: { path: '/billing' } } },
    yearly: { id: 'yearly', component: 'Text', props: { text: 'Save 20%' }, visible: { and: [{ eq: [{ path: '/billing' }, 'yearly'] }, { not: { lt: [{ path: '/count' }, 2] } }] } },
    adult: { id: 'adult', component: 'Text', props: { text: { call: 'formatNumber', args: { value: { path: '/count' }, decimals: 0 } } }, visible: { or: [{ gt: [{ path: '/count' }, 2] }, { ne: [{ path: '/name' }, 'x'] }] } },
    go: { id: 'go', component: 'Button', props: { label: 'Yearly', onClick: { action: 'set', path: '/billing', value: 'yearly' } } },
  },
};

describe('json-render 0.21.4 interop', () => {
  it('exports a spec the real @json-render/core validateSpec accepts', () => {
    valid(surface);
    const { value } = toJsonRender(surface);
    const r = validateSpec(value as unknown as Spec, { checkOrphans: true });
    expect(r.issues).toEqual([]);
    expect(r.valid).toBe(true);
    expect(value.elements['switch']?.props['value']).toEqual({ $bindState: '/billing' });
    expect(value.elements['title']?.props['text']).toEqual({ $template: 'Hi ${/name}' });
    expect(value.elements['yearly']?.visible).toEqual({ $and: [{ $state: '/billing', eq: 'yearly' }, { $state: '/count', lt: 2, not: true }] });
    expect(value.elements['go']?.on).toEqual({ press: { action: 'setState', params: { statePath: '/billing', value: 'yearly' } } });
    expect(value.state).toEqual(surface.data);
  });

  it('round-trips: export → import → equal surface', () => {
    const back = fromJsonRender(toJsonRender(surface).value, { sectionId: 'pricing' });
    expect(back.value).toEqual(surface);
    expect(back.notes).toEqual([]);
  });

  it('imports $state/$bindState, gte/lte as not, arrays as AND, repeat expanded with a note', () => {
    const spec = {
      root: 'main',
      state: { todos: [{ title: 'a' }, { title: 'b' }], n: 5 },
      elements: {
        main: { type: 'Stack', props: {}, children: ['list', 'big'] },
        list: { type: 'Stack', props: {}, repeat: { statePath: '/todos' }, children: ['item'] },
        item: { type: 'Text', props: { text: { $item: 'title' } } },
        big: { type: 'Text', props: { text: { $state: '/n' } }, visible: [{ $state: '/n', gte: 3 }, { $state: '/n', lte: 9 }] },
      },
    };
    const { value, notes } = fromJsonRender(spec, { sectionId: 's' });
    valid(value);
    expect(value.components['root']?.children).toEqual(['list', 'big']);
    expect(value.components['list']?.children).toEqual(['item-0', 'item-1']);
    expect(value.components['item-1']?.props).toEqual({ text: { path: '/todos/1/title' } });
    expect(value.components['big']?.visible).toEqual({ and: [{ not: { lt: [{ path: '/n' }, 3] } }, { not: { gt: [{ path: '/n' }, 9] } }] });
    expect(notes.map((n) => n.code).sort()).toEqual(['id-renamed', 'template-expanded']);
  });

  it('truthiness and `visible: false` become Weft conditions that validate', () => {
    const spec = {
      root: 'root',
      state: { on: true },
      elements: {
        root: { type: 'Stack', props: {}, children: ['a', 'b', 'c'] },
        a: { type: 'Text', props: { text: 'a' }, visible: { $state: '/on' } },
        b: { type: 'Text', props: { text: 'b' }, visible: false },
        c: { type: 'Text', props: { text: 'c' }, visible: { $or: [{ $state: '/on', not: true }, { $state: '/on', neq: 1 }] } },
      },
    };
    const { value, notes } = fromJsonRender(spec);
    valid(value);
    expect(value.components['a']?.visible).toEqual({ and: [false, null, 0, ''].map((x) => ({ ne: [{ path: '/on' }, x] })) });
    expect(value.components['b']?.visible).toEqual({ eq: [true, false] });
    expect(value.components['c']?.visible).toMatchObject({ or: [{ not: { and: expect.any(Array) } }, { ne: [{ path: '/on' }, 1] }] });
    expect(notes.filter((n) => n.code === 'condition-mapped')).toHaveLength(2);
  });

  it('notes what it cannot carry: $cond, unknown $computed, watch, unreachable elements', () => {
    const spec = {
      root: 'root',
      elements: {
        root: { type: 'Stack', props: {}, children: ['t'], watch: { '/a': { action: 'x' } } },
        t: { type: 'Text', props: { text: { $computed: 'shout', args: {} }, tone: { $cond: { $state: '/a' }, $then: 'muted', $else: 'default' } } },
        lost: { type: 'Text', props: { text: 'x' } },
      },
    };
    const { notes } = fromJsonRender(spec);
    expect(notes.map((n) => n.code).sort()).toEqual(['function-unknown', 'prop-dropped', 'unreachable-dropped', 'value-invalid']);
  });

  it('every imported A2UI example exports to a json-render spec that validateSpec accepts', () => {
    let n = 0;
    for (const ex of a2uiExamples()) {
      const s = fromA2ui(ex.messages).value[0] as SurfaceSection;
      const r = validateSpec(toJsonRender(s).value as unknown as Spec, { checkOrphans: true });
      expect(r.issues, ex.file).toEqual([]);
      const back = fromJsonRender(toJsonRender(s).value, { sectionId: s.id, catalog: s.catalog });
      expect(back.value, ex.file).toEqual(s);
      n++;
    }
    expect(n).toBe(36);
  });
});
