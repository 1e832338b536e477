import { describe, expect, it } from 'vitest';
import { arrayIndex, formatPointer, getAt, parsePointer } from './pointer.ts';

describe('pointer', () => {
  it('[PT1] parses and formats RFC 6901 with ~0 and ~1', () => {
    expect(parsePointer('')).toEqual({ ok: true, value: [] });
    expect(parsePointer('/a~1b/c~0d/~01')).toEqual({ ok: true, value: ['a/b', 'c~d', '~1'] });
    expect(formatPointer(['a/b', 'c~d', '~1'])).toBe('/a~1b/c~0d/~01');
    expect(parsePointer('/')).toEqual({ ok: true, value: [''] });
  });
  it('[invalid_pointer] refuses pointers without a leading slash or with bad escapes', () => {
    for (const p of ['a/b', '/a~2', '/a~', '#/a']) {
      const r = parsePointer(p);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.rule).toBe('invalid_pointer');
    }
  });
  it('[forbidden_segment] refuses __proto__, prototype and constructor, escaped too', () => {
    for (const p of ['/__proto__', '/a/constructor/b', '/x/prototype', '/__proto__~1x/__proto__', '/constructor']) {
      const r = parsePointer(p);
      expect(r.ok, p).toBe(false);
      if (!r.ok) expect(r.error.rule).toBe('forbidden_segment');
    }
    // "~1" decodes to "/" so "__proto__~1x" is the segment "__proto__/x": allowed.
    expect(parsePointer('/__proto__~1x').ok).toBe(true);
  });
  it('[PT2] resolves own properties only', () => {
    const doc = { a: [1, { b: 2 }] };
    expect(getAt(doc, ['a', '1', 'b'])).toEqual({ found: true, value: 2 });
    expect(getAt(doc, ['toString']).found).toBe(false);
    expect(getAt(doc, ['a', 'length']).found).toBe(false);
    expect(getAt(doc, ['a', '01']).found).toBe(false);
  });
  it('[PT3] array indices have no leading zeros', () => {
    expect(arrayIndex('0')).toBe(0);
    expect(arrayIndex('12')).toBe(12);
    expect(arrayIndex('01')).toBe(-1);
    expect(arrayIndex('-')).toBe(-1);
    expect(arrayIndex('1e3')).toBe(-1);
  });
});
