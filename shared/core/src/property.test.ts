// Property tests: random op sequences (valid and invalid mixed) never leave a draft that
// validateDraft refuses; the inverse restores the draft exactly; replaying `applied` on a copy of
// the old draft reproduces the new one; every refusal carries its rule's kind. Failing seeds are printed by fast-check; keep them below.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heroDraft } from '../test/fixtures.ts';
import { applyOpsUnchecked } from './apply.ts';
import type { Draft } from './draft.ts';
import { RULE_KIND } from './errors.ts';
import { validateDraft } from './invariants.ts';
import { applyStep } from './pipeline.ts';

const SIDS = ['hero', 'faq', '0', '1', '-'];
const CIDS = ['root', 'title', 'tabs', 'monthly', 'price', 'a', 'b', 'c', '-', '0'];
const COMPONENTS = ['Stack', 'Text', 'Heading', 'Buton', 'Tabs', 'TabPanel', 'Widget', 'Badge', 'Image'];
const PROPS: Array<[string, unknown]> = [['text', 'hi'], ['text', { path: '/headline' }], ['level', 3], ['level', 9], ['tone', 'mutd'], ['tone', 'info'], ['gap', 'lg'], ['bogus', 1], ['title', 'T']];

const sid = fc.constantFrom(...SIDS);
const cid = fc.constantFrom(...CIDS);
const comp = fc.record({
  id: cid,
  component: fc.constantFrom(...COMPONENTS),
  props: fc.dictionary(fc.constantFrom(...PROPS.map((p) => p[0])), fc.constantFrom(...PROPS.map((p) => p[1])) as fc.Arbitrary<never>, { maxKeys: 3 }),
  children: fc.array(cid, { maxLength: 3 }),
});
const base = (s: string) => `/sections/${s}`;
const anyOp = fc.oneof(
  fc.record({ op: fc.constant('add'), path: fc.tuple(sid, cid).map(([s, c]) => `${base(s)}/components/${c}`), value: comp }),
  fc.record({ op: fc.constant('replace'), path: fc.tuple(sid, cid).map(([s, c]) => `${base(s)}/components/${c}`), value: comp }),
  fc.record({ op: fc.constant('remove'), path: fc.tuple(sid, cid).map(([s, c]) => `${base(s)}/components/${c}`) }),
  fc.record({ op: fc.constantFrom('add', 'replace'), path: fc.tuple(sid, cid, fc.constantFrom(...PROPS.map((p) => p[0]))).map(([s, c, p]) => `${base(s)}/components/${c}/props/${p}`), value: fc.constantFrom(...PROPS.map((p) => p[1])) as fc.Arbitrary<never> }),
  fc.record({ op: fc.constantFrom('add', 'replace'), path: fc.tuple(sid, cid).map(([s, c]) => `${base(s)}/components/${c}/children/-`), value: cid }),
  fc.record({ op: fc.constant('replace'), path: fc.tuple(sid, cid).map(([s, c]) => `${base(s)}/components/${c}/children`), value: fc.array(cid, { maxLength: 4 }) }),
  fc.record({ op: fc.constant('remove'), path: fc.tuple(sid, cid, fc.nat(3)).map(([s, c, i]) => `${base(s)}/components/${c}/children/${i}`) }),
  fc.record({ op: fc.constant('move'), from: fc.tuple(sid, cid, fc.nat(2)).map(([s, c, i]) => `${base(s)}/components/${c}/children/${i}`), path: fc.tuple(sid, cid, fc.nat(2)).map(([s, c, i]) => `${base(s)}/components/${c}/children/${i}`) }),
  fc.record({ op: fc.constantFrom('add', 'replace', 'remove', 'test'), path: fc.tuple(sid, fc.constantFrom('headline', 'n', 'x', 'list')).map(([s, k]) => `${base(s)}/data/${k}`), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ op: fc.constant('copy'), from: fc.constantFrom('/sections/hero/data/headline', '/title', '/sections/hero/components/price'), path: fc.constantFrom('/title', '/sections/hero/data/y', '/sections/faq/components/price', '/order/-') }),
  fc.record({ op: fc.constant('add'), path: sid.map(base), value: fc.record({ id: fc.constantFrom('faq', 'hero', 'cta'), kind: fc.constant('surface'), catalog: fc.constant('weft@1'), data: fc.constant({}), components: fc.array(comp, { maxLength: 3 }) }) }),
  fc.record({ op: fc.constant('remove'), path: sid.map(base) }),
  fc.record({ op: fc.constantFrom('add', 'remove', 'replace'), path: fc.constantFrom('/order/-', '/order/0', '/order/1', '/title', '/id', '/__proto__/x'), value: fc.constantFrom('hero', 'faq', 'x', 3) }),
  fc.anything(),
);

function check(d: Draft, steps: unknown[][]): void {
  for (const ops of steps) {
    const before = structuredClone(d);
    const r = applyStep(d, ops);
    for (const x of r.refused) expect(x.kind, x.rule).toBe(RULE_KIND[x.rule]);
    const v = validateDraft(d);
    expect(v.refusals, JSON.stringify(ops)).toEqual([]);
    const after = structuredClone(d);
    const replay = structuredClone(before);
    expect(applyOpsUnchecked(replay, r.applied).ok).toBe(true);
    expect(replay).toEqual(after);
    expect(applyOpsUnchecked(d, r.inverse).ok).toBe(true);
    expect(d).toEqual(before);
    expect(d.order).toEqual(before.order);
    expect(applyOpsUnchecked(d, r.applied).ok).toBe(true);
    expect(d).toEqual(after);
  }
}

describe('properties', () => {
  it('[PR1] random steps never leave an invalid draft, and inverse restores it exactly', () => {
    fc.assert(
      fc.property(fc.array(fc.array(anyOp, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }), (steps) => {
        check(heroDraft(), steps);
      }),
      { numRuns: 250 },
    );
  });
  it('[PR2] some random ops are applied (the generator is not all-invalid)', () => {
    let applied = 0;
    fc.assert(
      fc.property(fc.array(anyOp, { minLength: 5, maxLength: 10 }), (ops) => {
        applied += applyStep(heroDraft(), ops).applied.length;
      }),
      { numRuns: 100, seed: 42 },
    );
    expect(applied).toBeGreaterThan(50);
  });
});
