import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Draft, Op } from '@weft/core';
import { describeOps, describeStep, setKindNames } from './sentences.ts';

const d: Draft = {
  id: 'd', title: 'T', order: ['hero'],
  sections: { hero: { id: 'hero', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: ['title'] }, title: { id: 'title', component: 'Heading', props: { text: 'Hi' } } } } },
};

describe('describeOps / describeStep', () => {
  it('says what a step did in words, naming components by kind', () => {
    expect(describeOps([{ op: 'replace', path: '/sections/hero/components/title/props/text', value: 'Yo' }], d)).toBe("changed the Heading's text");
    expect(describeOps([{ op: 'add', path: '/sections/features', value: { id: 'features', components: { a: {}, b: {} } } as never }], d)).toBe('added the Features section (2 components)');
    expect(describeOps([{ op: 'remove', path: '/sections/hero' }], d)).toBe('deleted the Hero section');
    expect(describeOps([{ op: 'move', from: '/order/1', path: '/order/0' }], d)).toBe('reordered the sections');
    expect(describeOps([{ op: 'move', from: '/sections/hero/components/root/children/1', path: '/sections/hero/components/root/children/0' }], d)).toBe('moved a component in the Stack');
    const tabs: Op[] = [
      { op: 'add', path: '/sections/hero/components/tabs-1', value: { component: 'Tabs' } as never },
      { op: 'add', path: '/sections/hero/components/tabpanel-1', value: { component: 'TabPanel' } as never },
      { op: 'add', path: '/sections/hero/components/root/children/1', value: 'tabs-1' },
    ];
    expect(describeOps(tabs, d)).toBe('added 2 components');
    expect(describeOps([tabs[0]!, tabs[2]!], d)).toBe('added a Tabs');
    expect(describeStep({ version: 3, actor: 'bot', ops: [tabs[0]!], notes: [{}], refused: [{}] }, d)).toBe('added a Tabs — 1 repaired, 1 refused');
    expect(describeStep({ version: 3, actor: 'bot', ops: [], refused: [{}] }, d)).toBe('tried a change — 1 refused');
    // A component that is gone is named by its id's kind when the catalog knows it.
    setKindNames(['Badge', 'Heading']);
    expect(describeOps([{ op: 'remove', path: '/sections/hero/components/badge-2' }], d)).toBe('deleted a Badge');
    expect(describeOps([{ op: 'remove', path: '/sections/hero/components/promo' }], d)).toBe('deleted a promo');
  });

  it('never throws and always says something, for any ops', () => {
    const op = fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'move'), path: fc.string(), from: fc.string(), value: fc.anything() }) as fc.Arbitrary<Op>;
    fc.assert(fc.property(fc.array(op, { maxLength: 6 }), (ops) => {
      const s = describeOps(ops, d);
      expect(typeof s).toBe('string');
      expect(s.length).toBeGreaterThan(0);
    }), { numRuns: 300 });
  });
});
