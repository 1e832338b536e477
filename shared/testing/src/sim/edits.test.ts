import { describe, expect, it } from 'vitest';
import { applyOpsUnchecked, applyStep, emptyDraft, validateDraft } from '@weft/core';
import type { Draft } from '@weft/core';
import { prng } from '../prng.ts';
import { applies, randomEdit, treeBreakingPair } from './edits.ts';

/** The pipeline's verdict on `ops` against a copy of `d` (the copy is what it would become). */
function judge(d: Draft, ops: unknown[]): { refused: number; next: Draft } {
  const next = structuredClone(d);
  const r = applyStep(next, ops);
  return { refused: r.refused.length, next };
}

describe('simulation edits', () => {
  it('the same seed draws the same edits', () => {
    const run = (seed: number) => {
      const r = prng(seed);
      let d = emptyDraft('d');
      const out: unknown[] = [];
      for (let i = 0; i < 200; i++) {
        const e = randomEdit(r, d, 'p', i);
        out.push(e);
        if (e?.intent === 'valid') d = judge(d, e.ops).next;
      }
      return out;
    };
    expect(run(42)).toEqual(run(42));
    expect(run(42)).not.toEqual(run(43));
  });

  it('valid edits are accepted, invalid and marked ones refused, against the author’s view', () => {
    for (const seed of [1, 2, 3]) {
      const r = prng(seed);
      let d = emptyDraft('d');
      const seen = { valid: 0, invalid: 0, marked: 0 };
      for (let i = 0; i < 250; i++) {
        const e = randomEdit(r, d, 'p', i);
        if (!e) continue;
        expect(applies(d, e.ops), `${seed}/${i} ${JSON.stringify(e)}`).toBe(true);
        const v = judge(d, e.ops);
        seen[e.intent]++;
        if (e.intent === 'valid') {
          expect(v.refused, `${seed}/${i} ${JSON.stringify(e)}`).toBe(0);
          d = v.next;
          expect(validateDraft(d).refusals).toEqual([]);
        } else expect(v.refused, `${seed}/${i} ${JSON.stringify(e)}`).toBeGreaterThan(0);
      }
      expect(seen.valid).toBeGreaterThan(80);
      expect(seen.invalid).toBeGreaterThan(10);
      expect(seen.marked).toBeGreaterThan(10);
    }
  });

  it('tree-breaking pairs are each valid alone and break the tree together', () => {
    const kinds = new Set<string>();
    for (const seed of [7, 8, 9, 10, 11, 12]) {
      const r = prng(seed);
      let d = emptyDraft('d');
      for (let i = 0; i < 60; i++) {
        const e = randomEdit(r, d, 'p', i, 0);
        if (e) d = judge(d, e.ops).next;
      }
      for (let i = 0; i < 20; i++) {
        const pair = treeBreakingPair(r, d, 'q', i);
        if (!pair) continue;
        if ('setup' in pair) {
          expect(judge(d, pair.setup).refused).toBe(0);
          d = judge(d, pair.setup).next;
          continue;
        }
        kinds.add(pair.kind);
        expect(judge(d, pair.a).refused, pair.kind).toBe(0);
        expect(judge(d, pair.b).refused, pair.kind).toBe(0);
        // Sequentially (as JSON, not as a Yjs merge) b either no longer applies or is refused.
        const afterA = judge(d, pair.a).next;
        const both = structuredClone(afterA);
        if (applyOpsUnchecked(both, pair.b).ok) expect(validateDraft(both).refusals.length, pair.kind).toBeGreaterThan(0);
      }
    }
    expect([...kinds].sort()).toEqual(['cycle', 'double-parent', 'orphan']);
  });
});
