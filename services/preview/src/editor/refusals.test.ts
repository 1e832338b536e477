import { describe, expect, it } from 'vitest';
import { explainRefusal } from './refusals.ts';

describe('explainRefusal', () => {
  const twice = { rule: 'duplicate_id', path: '/sections/hero/components/root/children/2', message: '"card-1" is listed twice in the children of "root"; list it once' };
  it('names a move that crossed another as a conflict, with the component', () => {
    const r = explainRefusal([twice], { kind: 'move', what: 'reorder' });
    expect(r.conflict).toBe(true);
    expect(r.text).toMatch(/^Conflict: someone else moved or deleted "card-1" at the same moment, so your reorder was undone/);
  });
  it('keeps the server\'s words for other edits and other rules', () => {
    expect(explainRefusal([twice], { kind: 'change', what: 'set text' })).toEqual({ conflict: false, text: `Refused: ${twice.message}` });
    const bad = { rule: 'invalid_props', path: '/sections/hero/components/t/props/level', message: 'level must be ≤ 6' };
    expect(explainRefusal([bad], { kind: 'move', what: 'reorder' }).conflict).toBe(false);
    expect(explainRefusal([], null).text).toMatch(/reverted/);
  });
});
