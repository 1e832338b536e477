import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultCatalog } from '@weft/core';
import { parseBriefsFile } from './brief-file.ts';
import { BAKERY, briefs, evalBriefs } from './briefs.ts';

const builtIn = briefs((n) => defaultCatalog.getEntry(n) !== undefined);
const parse = (v: unknown) => parseBriefsFile(typeof v === 'string' ? v : JSON.stringify(v), builtIn);

describe('the --briefs file', () => {
  it('the default set is the RFC\'s five: landing, pricing, faq, edit, scope', () => {
    expect(evalBriefs(() => true).map((b) => b.id)).toEqual(['landing', 'pricing', 'faq', 'edit', 'scope']);
  });

  it('takes built-in ids and briefs of its own, with a seed and a scope on it', () => {
    const r = parse(['dashboard', { id: 'cta-edit', text: ' Make the button red ', seed: [BAKERY[0]], scope: { sectionId: 'hero', componentId: 'cta' } }]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.map((b) => b.id)).toEqual(['dashboard', 'cta-edit']);
    expect(r.value[0]!.check).toBeTypeOf('function');
    expect(r.value[1]).toEqual({ id: 'cta-edit', text: 'Make the button red', seed: [BAKERY[0]], scope: { sectionId: 'hero', componentId: 'cta' } });
  });

  it('refuses, before any model runs, what a turn could not start from — with where', () => {
    const hero = BAKERY[0]!;
    for (const [file, why] of [
      ['not json', /not usable JSON/], [[], /non-empty JSON array/], [{ id: 'a' }, /non-empty JSON array/],
      [['nope'], /^\/0: no built-in brief "nope"/], [[3], /^\/0: a brief is/],
      [[{ id: 'A', text: 't' }], /^\/0\/id/], [[{ id: 'a', text: '' }], /^\/0\/text/], [[{ id: 'a', text: 'x'.repeat(4001) }], /^\/0\/text/],
      [[{ id: 'a', text: 't', model: 'x' }], /^\/0\/model: unknown field/], [[{ id: 'a', text: 't' }, { id: 'a', text: 't' }], /^\/1\/id: "a" is used twice/],
      [[{ id: 'a', text: 't', seed: {} }], /^\/0\/seed: must be an array/],
      [[{ id: 'a', text: 't', seed: [{ ...hero, components: { root: { id: 'root', component: 'Stack', children: ['gone'] } } }] }], /^\/0\/seed: seed 0: missing_child/],
      [[{ id: 'a', text: 't', scope: { sectionId: 'hero' } }], /^\/0\/scope: section "hero" is not on the seeded page/],
      [[{ id: 'a', text: 't', seed: [hero], scope: { sectionId: 'hero', componentId: 'ghost' } }], /^\/0\/scope: component "ghost" of section "hero"/],
      [[{ id: 'a', text: 't', seed: [hero], scope: { sectionId: 'hero', componentId: 'toString' } }], /is not on the seeded page/],
      [Array(51).fill('landing'), /at most 50/],
    ] as const) expect(parse(file), JSON.stringify(file).slice(0, 80)).toMatchObject({ ok: false, error: expect.stringMatching(why) });
    // A prototype key is refused by the safe JSON reader itself, and nothing is polluted.
    expect(parse('[{"id":"a","text":"t","__proto__":{"polluted":1}}]')).toMatchObject({ ok: false, error: expect.stringMatching(/"__proto__" key at "\/0"/) });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('never throws on hostile files (fuzz)', () => {
    const entry = fc.oneof(fc.constantFrom('landing', 'faq', '__proto__'), fc.jsonValue({ maxDepth: 3 }),
      fc.record({ id: fc.constantFrom('a', 'b-2', 'constructor'), text: fc.string(), seed: fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 2 }), scope: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: ['id', 'text'] }));
    fc.assert(fc.property(fc.oneof(fc.array(entry, { maxLength: 4 }).map((x) => JSON.stringify(x)), fc.string()), (text) => {
      const r = parseBriefsFile(text, builtIn);
      if (!r.ok) expect(r.error.length).toBeGreaterThan(0);
      else for (const b of r.value) expect(b.id).toMatch(/^[a-z][a-z0-9-]{0,40}$/);
    }), { numRuns: 300 });
  });
});
