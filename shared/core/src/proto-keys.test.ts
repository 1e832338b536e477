// Keys named like Object.prototype members are ordinary data or a typed refusal, in every place a
// key or id comes from the caller (props, data, style, component and section ids, component
// types, order, children, bindings), through every op kind. And a step never leaves the draft
// half-applied: all of its ops or none, even when a check throws.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinFingerprint, heroDraft } from '../test/fixtures.ts';
import type { Draft, Op } from './draft.ts';
import { FORBIDDEN_SEGMENTS } from './pointer.ts';
import { applyStep } from './pipeline.ts';

/** Every name Object.prototype, Function.prototype and Array.prototype answer to, plus `prototype`. */
export const PROTO_NAMES: readonly string[] = [...new Set([
  ...[Object.prototype, Function.prototype, Array.prototype].flatMap((o) => Object.getOwnPropertyNames(o)), 'prototype',
])];
const esc = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
const S = '/sections/hero';
const C = `${S}/components`;

/** Ops that put `name` in one place of the hero draft; `place` names it in failures. */
function placements(name: string): { place: string; ops: unknown[] }[] {
  const n = esc(name);
  const comp = (id: string, extra: Record<string, unknown> = {}) => ({ id, component: 'Text', props: { text: 'x' }, ...extra });
  return [
    { place: 'props key', ops: [{ op: 'add', path: `${C}/price/props/${n}`, value: 'x' }] },
    { place: 'props object key', ops: [{ op: 'replace', path: `${C}/price/props`, value: { text: 'x', [name]: 1 } }] },
    { place: 'style key', ops: [{ op: 'add', path: `${S}/style`, value: { [name]: 'wide' } }] },
    { place: 'style path', ops: [{ op: 'add', path: `${S}/style`, value: {} }, { op: 'add', path: `${S}/style/${n}`, value: 'wide' }] },
    { place: 'data key', ops: [{ op: 'add', path: `${S}/data/${n}`, value: { [name]: 1 } }] },
    { place: 'data object', ops: [{ op: 'replace', path: `${S}/data`, value: { headline: 'h', billing: 'b', n: 1, [name]: { [name]: [name] } } }] },
    { place: 'component id', ops: [{ op: 'add', path: `${C}/${n}`, value: comp(name) }, { op: 'add', path: `${C}/monthly/children/-`, value: name }] },
    { place: 'child id', ops: [{ op: 'add', path: `${C}/monthly/children/-`, value: name }] },
    { place: 'component type', ops: [{ op: 'replace', path: `${C}/price/component`, value: name }] },
    { place: 'component field', ops: [{ op: 'add', path: `${C}/price/${n}`, value: 1 }] },
    { place: 'section id', ops: [{ op: 'add', path: `/sections/${n}`, value: { id: name, kind: 'surface', catalog: 'weft@1', components: { root: comp('root') }, data: {} } }] },
    { place: 'section field', ops: [{ op: 'add', path: `${S}/${n}`, value: 1 }] },
    { place: 'order entry', ops: [{ op: 'add', path: '/order/-', value: name }] },
    { place: 'catalog', ops: [{ op: 'replace', path: `${S}/catalog`, value: `${name}@1` }] },
    { place: 'binding path', ops: [{ op: 'replace', path: `${C}/price/props/text`, value: { path: `/${n}` } }] },
    { place: 'function call', ops: [{ op: 'replace', path: `${C}/price/props/text`, value: { call: name, args: {} } }] },
    { place: 'condition', ops: [{ op: 'add', path: `${C}/price/visible`, value: { [name]: [{ path: '/n' }, 1] } }] },
    { place: 'move from', ops: [{ op: 'move', from: `${S}/data/${n}`, path: `${S}/data/moved` }] },
    { place: 'copy to', ops: [{ op: 'copy', from: `${S}/data/headline`, path: `${S}/data/${n}` }] },
    { place: 'test', ops: [{ op: 'test', path: `${S}/data/${n}`, value: 1 }] },
    { place: 'remove', ops: [{ op: 'remove', path: `${S}/data/${n}` }] },
  ];
}

let fp0 = '';
beforeAll(() => { fp0 = builtinFingerprint(); });
afterAll(() => { expect(builtinFingerprint()).toBe(fp0); });

/** Whether `name` is an own key anywhere inside `v`. */
function hasKey(v: unknown, name: string): boolean {
  if (v === null || typeof v !== 'object') return false;
  return Object.keys(v).some((k) => k === name || hasKey((v as Record<string, unknown>)[k], name));
}

/** The draft must still be plain JSON: what JSON.stringify/parse gives back, own keys only. */
const asJson = (d: Draft): unknown => JSON.parse(JSON.stringify(d));

describe('prototype member names as keys and ids', () => {
  it('never throw: each op is applied as data or refused with a rule, and the draft stays plain JSON', () => {
    let runs = 0;
    fc.assert(fc.property(fc.constantFrom(...PROTO_NAMES), fc.integer({ min: 0, max: placements('x').length - 1 }), (name, i) => {
      const { place, ops } = placements(name)[i]!;
      const d = heroDraft();
      const before = structuredClone(d);
      let r;
      try {
        r = applyStep(d, ops);
      } catch (e) {
        throw new Error(`${place} "${name}": applyStep threw ${(e as Error).message}`);
      }
      runs++;
      for (const x of r.refused) expect(typeof x.rule, `${place} "${name}"`).toBe('string');
      expect(r.applied.length + r.refused.length, `${place} "${name}"`).toBeGreaterThanOrEqual(1);
      expect(asJson(d), `${place} "${name}"`).toEqual(d);
      // Value keys __proto__, prototype and constructor are refused (docs/errors.md forbidden_segment).
      if (FORBIDDEN_SEGMENTS.has(name)) expect(hasKey(d, name), `${place} "${name}"`).toBe(false);
      if (r.applied.length === 0) expect(d).toEqual(before);
    }), { numRuns: PROTO_NAMES.length * placements('x').length * 2 });
    expect(runs).toBeGreaterThan(0);
  });

  it('every place × every name, exhaustively (the fuzz above samples; this is the table)', () => {
    const threw: string[] = [];
    for (const name of PROTO_NAMES) for (const { place, ops } of placements(name)) {
      try { applyStep(heroDraft(), ops); } catch (e) { threw.push(`${place} "${name}": ${(e as Error).message}`); }
    }
    expect(threw.join("\n")).toEqual("");
  });
});

describe('a step is all of its ops or none on the mirror', () => {
  it('when a check throws mid-step, earlier ops of the step are undone and the error surfaces', () => {
    const d = heroDraft();
    const before = structuredClone(d);
    const ops: Op[] = [
      { op: 'replace', path: '/title', value: 'changed first' },
      { op: 'replace', path: `${C}/price/props/text`, value: 'changed second' },
      { op: 'replace', path: `${C}/title/props/level`, value: 3 },
    ];
    let calls = 0;
    const policy = (): null => {
      if (++calls === 3) throw new Error('boom in the third op');
      return null;
    };
    expect(() => applyStep(d, ops, { policy })).toThrow('boom in the third op');
    expect(d).toEqual(before);
  });
});
