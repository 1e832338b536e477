// Small drafts for tests: a valid page with one surface "hero"; a checked applyStep.
import { expect } from 'vitest';
import { applyOpsUnchecked, applyStep, validateDraft } from '../src/index.ts';
import type { Draft, StepOptions } from '../src/index.ts';

export function heroDraft(): Draft {
  return {
    id: 'd1',
    title: 'Page',
    order: ['hero'],
    sections: {
      hero: {
        id: 'hero', kind: 'surface', catalog: 'weft@1',
        data: { headline: 'Pricing', billing: 'monthly', n: 3 },
        components: {
          root: { id: 'root', component: 'Stack', children: ['title', 'tabs'] },
          title: { id: 'title', component: 'Heading', props: { text: { path: '/headline' }, level: 2 } },
          tabs: { id: 'tabs', component: 'Tabs', children: ['monthly'] },
          monthly: { id: 'monthly', component: 'TabPanel', props: { title: 'Monthly' }, children: ['price'] },
          price: { id: 'price', component: 'Text', props: { text: '10 €' } },
        },
      },
    },
  };
}

/** A fingerprint of builtins that prototype pollution would change. */
export function builtinFingerprint(): string {
  const parts: string[] = [];
  for (const o of [Object, Object.prototype, Array, Array.prototype, Function.prototype, String.prototype, Number.prototype, JSON]) {
    for (const k of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, k)!;
      const v: unknown = d.value;
      const shown = typeof v === 'function' ? v.name : v !== null && typeof v === 'object' ? Object.keys(v).join(',') : String(v);
      parts.push(`${String(k)}:${typeof v}:${shown.slice(0, 60)}:${typeof d.get}:${typeof d.set}`);
    }
  }
  parts.push(String(({} as Record<string, unknown>)['polluted']), String(({} as Record<string, unknown>)['x']));
  return parts.join('|');
}

/** applyStep, checking that the draft stays valid and that inverse undoes the step exactly. */
export function checkedStep(ops: unknown[], d: Draft = heroDraft(), opts: StepOptions = {}) {
  const before = structuredClone(d);
  const r = applyStep(d, ops, opts);
  expect(validateDraft(d).refusals).toEqual([]);
  const after = structuredClone(d);
  expect(applyOpsUnchecked(d, r.inverse).ok).toBe(true);
  expect(d).toEqual(before);
  expect(d.order).toEqual(before.order);
  applyOpsUnchecked(d, r.applied);
  expect(d).toEqual(after);
  return { ...r, d };
}
