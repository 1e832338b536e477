// Names that documents choose (component types, variants, icons, justify, ids, data keys, action
// names) named like Object.prototype members: the converters never throw on them and never put a
// function into a section (fixed tables are read with own-property lookups only).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromA2ui, fromJsonRender, toA2ui, toJsonRender } from './index.ts';

const NAMES = [...new Set([Object.prototype, Function.prototype, Array.prototype].flatMap((o) => Object.getOwnPropertyNames(o)))];
const hasFunction = (v: unknown): boolean => typeof v === 'function' || (v !== null && typeof v === 'object' && Object.values(v).some(hasFunction));

function a2uiWith(n: string): unknown[] {
  return [
    { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: n } },
    { version: 'v0.9', updateComponents: { surfaceId: 's', components: [
      { id: 'root', component: 'Row', justify: n, align: n, children: ['a', 'b', n] },
      { id: 'a', component: n, text: n },
      { id: 'b', component: 'Button', variant: n, child: 'c', action: { event: { name: n, context: { [n]: n } } } },
      { id: 'c', component: 'Icon', name: n },
      { id: 'd', component: 'TextField', variant: n, label: n, value: { path: `/${n}` } },
      { id: 'e', component: 'Text', text: { call: n, args: { [n]: 1 } } },
      { id: 'f', component: 'List', children: { componentId: n, path: `/${n}` } },
    ] } },
    { version: 'v0.9', updateDataModel: { surfaceId: 's', path: `/${n}`, value: { [n]: 1 } } },
  ];
}

describe('prototype member names through A2UI and json-render', () => {
  it('import and export never throw nor yield functions', () => {
    fc.assert(fc.property(fc.constantFrom(...NAMES), (n) => {
      const a = fromA2ui(a2uiWith(n) as never);
      expect(hasFunction(a.value), n).toBe(false);
      for (const s of a.value) {
        expect(hasFunction(toA2ui(s).value), n).toBe(false);
        expect(hasFunction(toJsonRender(s).value), n).toBe(false);
      }
      const j = fromJsonRender({ root: 'a', elements: { a: { type: n, props: { [n]: n }, children: [n] }, [n]: { type: 'Text', props: { text: { $state: `/${n}` } } } }, state: { [n]: 1 } });
      expect(hasFunction(j.value), n).toBe(false);
    }), { numRuns: NAMES.length * 2 });
  });
});
