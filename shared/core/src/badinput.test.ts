// RELIABILITY.md bad input: wrong op shapes, huge strings, deep nesting → typed refusals, never throws.
import { describe, expect, it } from 'vitest';
import { heroDraft } from '../test/fixtures.ts';
import { parseJsonSafe, sanitizeJson } from './json.ts';
import { applyStep } from './pipeline.ts';

function deepArray(n: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

describe('bad input corpus', () => {
  const shapes: unknown[] = [
    null, 1, 'add', [], {}, { op: 'add' }, { op: 'add', path: 1, value: 1 }, { op: 'explode', path: '/title' },
    { op: 'add', path: '/title' }, { op: 'replace', path: '/title', value: undefined }, { op: 'move', path: '/title' },
    { op: 'copy', from: 5, path: '/title' }, { op: 'add', path: '/title', value: () => 1 }, { op: 'add', path: '/title', value: NaN },
    { op: 'add', path: '/title', value: new Date() }, { op: 'add', path: '/title', value: 1n }, { op: 'add', path: 'title', value: 'x' },
    { op: 'add', path: '/x'.repeat(2000), value: 1 }, { op: 'add', path: '/sections/hero/data/x', value: { a: Symbol('s') } },
  ];
  it('[invalid_op] wrong op shapes are refused with a typed refusal, never a throw', () => {
    const d = heroDraft();
    const before = structuredClone(d);
    const r = applyStep(d, shapes);
    expect(r.refused).toHaveLength(shapes.length);
    r.refused.forEach((x, i) => {
      expect(x.index).toBe(i);
      expect(x.code).toBe('VALIDATION_FAILED');
      expect(['invalid_op', 'invalid_pointer', 'value_too_large', 'path_not_found']).toContain(x.rule);
      expect(x.message.length).toBeGreaterThan(5);
    });
    expect(d).toEqual(before);
    expect(applyStep(d, 'not an array' as never).refused[0]!.rule).toBe('invalid_op');
  });
  it('[value_too_large] huge strings, big arrays, deep nesting and big ops are refused', () => {
    const d = heroDraft();
    const cases = [
      'x'.repeat(1_000_000),
      new Array(10_001).fill(0),
      deepArray(10_000),
      deepArray(65),
      Array.from({ length: 5000 }, () => 'y'.repeat(60)),
    ];
    const r = applyStep(d, cases.map((value) => ({ op: 'add', path: '/sections/hero/data/x', value })));
    expect(r.refused.map((x) => x.rule)).toEqual(cases.map(() => 'value_too_large'));
    expect(applyStep(d, [{ op: 'add', path: '/sections/hero/data/x', value: deepArray(60) }]).refused).toEqual([]);
  });
  it('[value_too_large] sanitizeJson is iterative: 100k nesting does not overflow', () => {
    const r = sanitizeJson(deepArray(100_000));
    expect(r.ok).toBe(false);
  });
  it('[invalid_text] a refusal inside a value points at it with its keys escaped (RFC 6901: `/` as ~1, `~` as ~0)', () => {
    const r = sanitizeJson({ 'a/b': { 'c~d': ['ok', 'bad\u0000'] } });
    expect(r.ok ? null : r.error).toMatchObject({ rule: 'invalid_text', at: '/a~1b/c~0d/1' });
  });
  it('[PJ1] parseJsonSafe returns typed errors for malformed, huge and deep JSON', () => {
    expect(parseJsonSafe('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    const bad = (t: string, lim = {}) => {
      const r = parseJsonSafe(t, lim);
      expect(r.ok).toBe(false);
      return r.ok ? null : r.error;
    };
    expect(bad('{"a":')?.code).toBe('MALFORMED_JSON');
    expect(bad('{"a":1,}')?.code).toBe('MALFORMED_JSON');
    expect(bad('"' + 'x'.repeat(300_000) + '"')?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(bad('"' + 'x'.repeat(70_000) + '"', { maxBytes: 1e6 })).toMatchObject({ code: 'VALIDATION_FAILED', rule: 'value_too_large' });
    expect(bad('['.repeat(100_000) + ']'.repeat(100_000), { maxBytes: 1e6 })).toMatchObject({ code: 'VALIDATION_FAILED', rule: 'value_too_large' });
    expect(bad('['.repeat(65) + ']'.repeat(65))?.rule).toBe('value_too_large');
    expect(parseJsonSafe('['.repeat(64) + ']'.repeat(64)).ok).toBe(true);
    expect(parseJsonSafe('{"a":"[[[[\\"]]"}').ok).toBe(true);
    expect(bad(null as never)?.code).toBe('MALFORMED_JSON');
  });
  it('[PJ2] each bad input is handled quickly', () => {
    const t0 = performance.now();
    parseJsonSafe('['.repeat(200_000), { maxBytes: 1e6 });
    applyStep(heroDraft(), [{ op: 'add', path: '/sections/hero/data/x', value: 'x'.repeat(1_000_000) }]);
    expect(performance.now() - t0).toBeLessThan(200);
  });
});

describe('text the event log cannot keep', () => {
  it('[invalid_text] NUL and lone surrogates in strings, keys and paths are refused; pairs pass; messages never cut a pair', () => {
    for (const v of ['a\u0000b', 'a\ud83d', '\ude00b', ['x', 'y\udbff'], { k: { 'k\ud800': 1 } }]) {
      const r = sanitizeJson(v);
      expect(r.ok, JSON.stringify(v)).toBe(false);
      if (!r.ok) expect(r.error.rule).toBe('invalid_text');
    }
    expect(sanitizeJson({ 'a😀': ['😀', '\u2028'] }).ok).toBe(true);
    const d = heroDraft();
    expect(applyStep(d, [{ op: 'add', path: '/sections/hero/data/k\ud800', value: 1 }]).refused[0]!.rule).toBe('invalid_text');
    // A long pointer whose 77th unit starts an emoji: the refusal's message keeps the pair whole.
    const long = '/sections/' + 'x'.repeat(66) + '😀' + '/~9';
    const m = applyStep(d, [{ op: 'add', path: long, value: 1 }]).refused[0]!.message;
    expect(m.length).toBeGreaterThan(0);
    expect(sanitizeJson(m).ok).toBe(true);
  });
});
