import { describe, expect, it } from 'vitest';
import type { Draft } from '@weft/core';
import { Orientation } from './orientation.ts';
import type { Sel } from './tree.ts';

const draft = (comps: Record<string, string>, more: string[] = []): Draft => ({
  id: 'd', title: '', order: ['hero', ...more],
  sections: Object.fromEntries([['hero', { id: 'hero', kind: 'surface', catalog: 'weft@1', data: {}, components: Object.fromEntries(Object.entries(comps).map(([id, c]) => [id, { id, component: c }])) }], ...more.map((m) => [m, { id: m, kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack' }, t: { id: 't', component: 'Text' } } }])]),
} as unknown as Draft);

function setup() {
  const out = { revealed: [] as Sel[], notices: [] as string[] };
  const o = new Orientation({ reveal: (s) => out.revealed.push(s), later: () => {}, notice: (t) => out.notices.push(t) });
  return { o, out };
}

describe('Orientation', () => {
  it('flashes and reveals what appears after the first render; a new section as a whole', () => {
    const { o, out } = setup();
    o.seen(draft({ root: 'Stack' }));
    expect(o.flashing()).toEqual([]);
    o.seen(draft({ root: 'Stack', 'card-1': 'Card' }, ['faq']));
    expect(o.flashing()).toEqual([{ sectionId: 'hero', componentId: 'card-1' }, { sectionId: 'faq' }]);
    expect(out.revealed).toEqual([{ sectionId: 'hero', componentId: 'card-1' }]);
  });

  it('names who deleted your selection, in either order of the doc change and the step; never your own', () => {
    const { o, out } = setup();
    o.seen(draft({ root: 'Stack', 'card-1': 'Card' }));
    o.selectionGone({ sectionId: 'hero', componentId: 'card-1' }, false, 'alice');
    o.step('bob', [{ op: 'remove', path: '/sections/hero/components/card-1' }], 'alice');
    o.step('bob', [{ op: 'remove', path: '/sections/hero' }], 'alice');
    o.selectionGone({ sectionId: 'hero', componentId: 'card-1' }, false, 'alice');
    o.selectionGone({ sectionId: 'hero', componentId: 'card-1' }, true, 'alice');
    expect(out.notices).toEqual(['bob deleted the Card you were editing.', 'bob deleted the Card you were editing.']);
    const mine = setup();
    mine.o.seen(draft({ root: 'Stack', 'card-1': 'Card' }));
    mine.o.step('alice', [{ op: 'remove', path: '/sections/hero/components/card-1' }], 'alice');
    mine.o.selectionGone({ sectionId: 'hero', componentId: 'card-1' }, false, 'alice');
    expect(mine.out.notices).toEqual([]);
  });
});
