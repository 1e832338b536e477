// applyOwned (replay's apply, values taken as is) must end where applyOpsUnchecked does, op for op:
// the same document, the same failing index, for any mix of ops, paths and arrays.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyOpsUnchecked, applyOwned } from './apply.ts';
import type { Json, Op } from './draft.ts';

const start = (): Json => ({ a: { b: [1, 2, { c: 'x' }], d: 'y' }, list: ['p', 'q'], 'sl/ash': { 't~lde': 0 } });
const path = fc.constantFrom('/a', '/a/b', '/a/b/0', '/a/b/2/c', '/a/b/-', '/a/b/9', '/a/d', '/a/e', '/list/1', '/list/-', '/list/01', '/sl~1ash/t~0lde', '/nope/x', '', '/a/__proto__', '/list/0/deeper');
const value = fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.constant({ k: [1] }), fc.constant(null));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constantFrom('add', 'replace', 'test'), path, value }),
  fc.record({ op: fc.constant('remove'), path }),
  fc.record({ op: fc.constantFrom('move', 'copy'), from: path, path }),
) as fc.Arbitrary<Op>;

describe('applyOwned', () => {
  it('ends where applyOpsUnchecked ends: the same document, and the same index on a failure', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 8 }), (ops) => {
      const general = start();
      const owned = start();
      // As replay hands them over: parsed from the log's text, every value its own object.
      const parsed = (): Op[] => JSON.parse(JSON.stringify(ops)) as Op[];
      const g = applyOpsUnchecked(general, parsed());
      const o = applyOwned(owned, parsed());
      expect(owned).toEqual(general);
      expect(o.ok ? null : o.error.index).toEqual(g.ok ? null : g.error.index);
      if (!o.ok && !g.ok) expect(o.error.message).toBe(g.error.message);
    }), { numRuns: 2000 });
  });

  it('takes the values it is handed (no copy): replay owns what it just parsed', () => {
    const doc = start() as { a: Record<string, Json> };
    const v = { fresh: true };
    expect(applyOwned(doc, [{ op: 'add', path: '/a/n', value: v }]).ok).toBe(true);
    expect(doc.a['n']).toBe(v);
  });
});
