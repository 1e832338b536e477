// Keys named like Object.prototype members are ordinary data through the Yjs mapping: a JSON draft
// holding them goes into a Y.Doc and comes back equal, ops at them apply to the doc as to JSON,
// and a peer's Y edit at them reads back as the op at that key. (`__proto__`, `prototype` and
// `constructor` keys never get this far: the core refuses them as values, forbidden_segment.)
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { FORBIDDEN_SEGMENTS } from '@weft/core';
import type { Draft, Op } from '@weft/core';
import { applyOpsToYDoc } from './apply-ops.ts';
import { observeDraftOps } from './events-to-ops.ts';
import { draftRoots, draftToYDoc, yDocToDraft } from './mirror.ts';

const NAMES = [...new Set([Object.prototype, Function.prototype, Array.prototype].flatMap((o) => Object.getOwnPropertyNames(o)))]
  .filter((n) => !FORBIDDEN_SEGMENTS.has(n));
const esc = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

function draftWith(name: string): Draft {
  return {
    id: 'd', title: 't', order: ['s'],
    sections: {
      s: {
        id: 's', kind: 'surface', catalog: 'weft@1',
        components: { root: { id: 'root', component: 'Text', props: { text: 'x', [name]: { [name]: 1 } } } },
        data: { [name]: { [name]: [name] }, plain: 1 },
      },
    },
  };
}

describe('prototype member names through the Yjs mapping', () => {
  it('round-trip, apply ops and read peer edits as data', () => {
    fc.assert(fc.property(fc.constantFrom(...NAMES), (name) => {
      const d = draftWith(name);
      const doc = new Y.Doc();
      draftToYDoc(d, doc);
      expect(yDocToDraft(doc, 'd')).toEqual(d);

      const ops: Op[] = [
        { op: 'add', path: `/sections/s/data/${esc(name)}/x`, value: 2 },
        { op: 'replace', path: `/sections/s/components/root/props/${esc(name)}`, value: name },
        { op: 'add', path: `/sections/s/data/${esc(name)}2`, value: { [name]: null } },
      ];
      applyOpsToYDoc(doc, ops);
      const json = jsonpatch.applyPatch(structuredClone(d), structuredClone(ops) as jsonpatch.Operation[], true, true).newDocument;
      expect(yDocToDraft(doc, 'd')).toEqual(json);

      const seen: Op[][] = [];
      observeDraftOps(doc, (o) => seen.push(o));
      ((draftRoots(doc).sections.get('s') as Y.Map<unknown>).get('data') as Y.Map<unknown>).set(name, 7);
      expect(seen.flat()).toEqual([{ op: 'replace', path: `/sections/s/data/${esc(name)}`, value: 7 }]);

      // A field of a component (a struct) named like a prototype member is read back, so the
      // pipeline sees it (and refuses the unknown field) instead of the doc hiding it from JSON.
      const root = ((draftRoots(doc).sections.get('s') as Y.Map<unknown>).get('components') as Y.Map<unknown>).get('root') as Y.Map<unknown>;
      root.set(name, 1);
      expect((yDocToDraft(doc, 'd').sections['s']!.components['root'] as unknown as Record<string, unknown>)[name]).toBe(1);
    }), { numRuns: NAMES.length * 3 });
  });
});
