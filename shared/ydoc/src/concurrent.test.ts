// Concurrent edits from two docs, merged: each side's events, as ops, must take its own JSON to the
// merged state — including the merges that break the tree (validation refuses those later; the
// mapping must report them as they are).
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import type { Draft, Op } from '@weft/core';
import { draftToYDoc, yDocToDraft } from './mirror.ts';
import { applyOpsToYDoc } from './apply-ops.ts';
import { observeDraftOps } from './events-to-ops.ts';
import { draft as randomDraft, op as randomOp, rng } from '../test/gen.ts';

const applyJson = (d: Draft, ops: readonly Op[]): Draft =>
  jsonpatch.applyPatch(structuredClone(d), structuredClone(ops) as jsonpatch.Operation[], true, true).newDocument;

/** Two peers at `base`, each with a JSON copy kept only from its own events. */
function peers(base: Draft) {
  const a = new Y.Doc();
  draftToYDoc(base, a);
  const b = new Y.Doc();
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
  const copies = { a: yDocToDraft(a, base.id), b: yDocToDraft(b, base.id) };
  const seen: { a: Op[]; b: Op[] } = { a: [], b: [] };
  observeDraftOps(a, (ops) => { seen.a.push(...ops); copies.a = applyJson(copies.a, ops); });
  observeDraftOps(b, (ops) => { seen.b.push(...ops); copies.b = applyJson(copies.b, ops); });
  const merge = () => {
    const ua = Y.encodeStateAsUpdate(a, Y.encodeStateVector(b));
    const ub = Y.encodeStateAsUpdate(b, Y.encodeStateVector(a));
    Y.applyUpdate(b, ua, 'remote');
    Y.applyUpdate(a, ub, 'remote');
  };
  return { a, b, copies, seen, merge };
}

const base = (): Draft => ({
  id: 'd',
  title: 'T',
  order: ['s'],
  sections: {
    s: {
      id: 's', kind: 'surface', catalog: 'weft@1', data: {},
      components: {
        root: { id: 'root', component: 'Stack', children: ['p', 'q'] },
        p: { id: 'p', component: 'Card', children: [] },
        q: { id: 'q', component: 'Card', children: [] },
      },
    },
  },
});

describe('concurrent edits, merged', () => {
  it('random concurrent op sequences converge and each side reports them as ops', () => {
    fc.assert(fc.property(fc.integer(), fc.integer({ min: 1, max: 8 }), (seed, n) => {
      const r = rng(seed);
      const { a, b, copies, merge } = peers(randomDraft(r));
      for (let round = 0; round < 3; round++) {
        for (const doc of [a, b]) {
          let json = yDocToDraft(doc, 'd');
          for (let i = 0; i < n; i++) {
            const o = randomOp(r, json);
            json = applyJson(json, [o]);
            applyOpsToYDoc(doc, [o]);
          }
        }
        merge();
        const merged = yDocToDraft(a, 'd');
        expect(yDocToDraft(b, 'd')).toEqual(merged);
        expect(copies.a).toEqual(merged);
        expect(copies.b).toEqual(merged);
      }
    }), { numRuns: 80 });
  });

  it('orphan: a parent removed while a child is added to it', () => {
    const { a, b, copies, seen, merge } = peers(base());
    applyOpsToYDoc(a, [
      { op: 'remove', path: '/sections/s/components/root/children/0' },
      { op: 'remove', path: '/sections/s/components/p' },
    ]);
    applyOpsToYDoc(b, [
      { op: 'add', path: '/sections/s/components/c', value: { id: 'c', component: 'Text' } },
      { op: 'add', path: '/sections/s/components/p/children/-', value: 'c' },
    ]);
    seen.a.length = 0;
    merge();
    const merged = yDocToDraft(a, 'd');
    expect(merged.sections['s']!.components['c']).toEqual({ id: 'c', component: 'Text' });
    expect(merged.sections['s']!.components['p']).toBeUndefined();
    expect(seen.a).toEqual([{ op: 'add', path: '/sections/s/components/c', value: { id: 'c', component: 'Text' } }]);
    expect(copies.a).toEqual(merged);
    expect(copies.b).toEqual(merged);
  });

  it('double parent: two peers add the same child to two parents', () => {
    const { a, b, copies, seen, merge } = peers(base());
    applyOpsToYDoc(a, [{ op: 'add', path: '/sections/s/components/p/children/-', value: 'x' }]);
    applyOpsToYDoc(b, [{ op: 'add', path: '/sections/s/components/q/children/0', value: 'x' }]);
    seen.a.length = 0;
    merge();
    const merged = yDocToDraft(a, 'd');
    expect(merged.sections['s']!.components['p']!.children).toEqual(['x']);
    expect(merged.sections['s']!.components['q']!.children).toEqual(['x']);
    expect(seen.a).toEqual([{ op: 'add', path: '/sections/s/components/q/children/0', value: 'x' }]);
    expect(copies.a).toEqual(merged);
    expect(copies.b).toEqual(merged);
  });

  it('cycle: A under B and B under A, concurrently', () => {
    const { a, b, copies, merge } = peers(base());
    applyOpsToYDoc(a, [{ op: 'add', path: '/sections/s/components/p/children/-', value: 'q' }]);
    applyOpsToYDoc(b, [{ op: 'add', path: '/sections/s/components/q/children/-', value: 'p' }]);
    merge();
    const merged = yDocToDraft(a, 'd');
    expect(merged.sections['s']!.components['p']!.children).toEqual(['q']);
    expect(merged.sections['s']!.components['q']!.children).toEqual(['p']);
    expect(copies.a).toEqual(merged);
    expect(copies.b).toEqual(merged);
  });

  it('concurrent writes to one component: last writer wins per field, reported as a replace', () => {
    const { a, b, copies, merge } = peers(base());
    applyOpsToYDoc(a, [{ op: 'add', path: '/sections/s/components/p/props', value: { title: 'from a' } }]);
    applyOpsToYDoc(b, [{ op: 'replace', path: '/sections/s/components/p/component', value: 'Band' }]);
    merge();
    const merged = yDocToDraft(a, 'd');
    expect(merged.sections['s']!.components['p']).toEqual({ id: 'p', component: 'Band', props: { title: 'from a' }, children: [] });
    expect(copies.a).toEqual(merged);
    expect(copies.b).toEqual(merged);
  });
});
