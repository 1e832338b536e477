import { describe, expect, it } from 'vitest';
import { checkLog, checkViews, foldLog, jsonEqual, newHistory } from './invariants.ts';

const step = (version: number, opId: string, text = opId) => ({ version, opId, ops: [{ op: 'replace', path: '/title', value: text }] });

describe('invariants', () => {
  it('pass on a clean history', () => {
    const h = newHistory();
    for (const id of ['a', 'b', 'c']) h.invoked.add(id);
    h.acked.set('a', 1).set('b', 2);
    h.unknown.add('c');
    const checks = checkLog([step(1, 'a'), step(2, 'b'), step(3, 'c')], h);
    expect(checks.map((c) => [c.id, c.ok])).toEqual([['I1', true], ['I2', true], ['I3', true], ['I4', true]]);
  });
  it('catch a lost ack, a duplicate, a gap and a phantom op', () => {
    const h = newHistory();
    for (const id of ['a', 'b', 'lost']) h.invoked.add(id);
    h.acked.set('a', 1).set('lost', 2);
    const checks = checkLog([step(1, 'a'), step(3, 'b'), step(4, 'b'), step(5, 'ghost')], h);
    expect(Object.fromEntries(checks.map((c) => [c.id, c.ok]))).toEqual({ I1: false, I2: false, I3: false, I4: false });
    expect(checks[0]!.detail).toContain('lost');
  });
  it('an ack at another version than logged is a violation', () => {
    const h = newHistory();
    h.invoked.add('a');
    h.acked.set('a', 2);
    expect(checkLog([step(1, 'a')], h)[0]!.ok).toBe(false);
  });
  it('foreign opIds (seeds, Yjs edits) are not counted as uninvoked', () => {
    expect(checkLog([step(1, 'seed')], newHistory(), (id) => id === 'seed')[3]!.ok).toBe(true);
  });
  it('folds the log and compares views regardless of key order', () => {
    const fold = foldLog({ id: 'd', title: '', order: [], sections: {} }, [step(1, 'a', 'x'), { version: 2, opId: 'b', ops: [{ op: 'add', path: '/order/-', value: 's' }] }]);
    expect(fold).toEqual({ id: 'd', title: 'x', order: ['s'], sections: {} });
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(checkViews(fold, { server: { sections: {}, order: ['s'], title: 'x', id: 'd' }, peer: { id: 'd', title: 'y', order: ['s'], sections: {} } })).toMatchObject({ ok: false, detail: expect.stringContaining('peer') });
  });
});
