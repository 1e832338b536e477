import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyStep, defaultCatalog } from '@weft/core';
import type { Draft, SurfaceSection } from '@weft/core';
import { dropMoveOps, duplicateOps, addOps, walk } from './tree.ts';
import { paletteBlueprint, STARTERS, starterSectionOps } from './blueprints.ts';

const section = (): SurfaceSection => ({
  id: 's', kind: 'surface', catalog: 'weft@1', data: {},
  components: {
    root: { id: 'root', component: 'Stack', children: ['a', 'box', 'b'] },
    a: { id: 'a', component: 'Text', props: { text: 'A' } },
    b: { id: 'b', component: 'Text', props: { text: 'B' } },
    box: { id: 'box', component: 'Card', props: { title: 'Box' }, children: ['c'] },
    c: { id: 'c', component: 'Text', props: { text: 'C' } },
  },
} as SurfaceSection);
const draftOf = (s: SurfaceSection): Draft => ({ id: 'd', title: '', order: [s.id], sections: { [s.id]: s } });
const policyOf = (name: string) => defaultCatalog.getEntry(name)?.children;

describe('editor ops, judged by the real pipeline', () => {
  it('a drop on a row puts the component after it, in that row\'s parent; onto root, first', () => {
    const apply = (ops: ReturnType<typeof dropMoveOps>) => { const d = draftOf(section()); expect(applyStep(d, ops).refused).toEqual([]); return walk(d.sections['s']!).map(([x]) => x); };
    expect(apply(dropMoveOps(section(), 'a', 'b'))).toEqual(['root', 'box', 'c', 'b', 'a']);
    expect(apply(dropMoveOps(section(), 'b', 'root'))).toEqual(['root', 'b', 'a', 'box', 'c']);
    expect(apply(dropMoveOps(section(), 'a', 'c'))).toEqual(['root', 'box', 'c', 'a', 'b']);
    expect(dropMoveOps(section(), 'box', 'c')).toEqual([]); // not inside itself
    expect(dropMoveOps(section(), 'a', 'root')).toEqual([]); // already first
  });

  it('any drop of any component on any row keeps a valid tree (property)', () => {
    const ids = ['root', 'a', 'b', 'box', 'c'];
    fc.assert(fc.property(fc.constantFrom(...ids), fc.constantFrom(...ids), (id, target) => {
      const d = draftOf(section());
      const ops = dropMoveOps(d.sections['s']!, id, target);
      expect(applyStep(d, ops).refused).toEqual([]);
      expect(walk(d.sections['s']!).map(([x]) => x).sort()).toEqual([...ids].sort());
    }));
  });

  it('every palette blueprint, every starter and a duplicate are accepted without repairs of substance', () => {
    for (const e of Object.values(defaultCatalog.entries)) {
      const d = draftOf(section());
      const a = addOps(d.sections['s']!, 'root', paletteBlueprint(e.name, e.example), policyOf);
      const r = applyStep(d, a.ops, { maxHeld: 32 });
      expect(r.refused, e.name).toEqual([]);
      expect(r.notes.filter((n) => n.rule !== 'rewrote_path'), e.name).toEqual([]);
    }
    for (const st of STARTERS) {
      const d = draftOf(section());
      const r = applyStep(d, starterSectionOps(d.sections, st).ops);
      expect(r.refused, st.id).toEqual([]);
      expect(d.order).toContain(st.id);
    }
    const d = draftOf(section());
    const dup = duplicateOps(d.sections['s']!, 'box')!;
    expect(applyStep(d, dup.ops).refused).toEqual([]);
    expect(d.sections['s']!.components['root']!.children).toEqual(['a', 'box', dup.id, 'b']);
    expect(d.sections['s']!.components[dup.id]!.children).toHaveLength(1);
  });
});
