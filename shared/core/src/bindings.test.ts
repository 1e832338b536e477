import { describe, expect, it } from 'vitest';
import { callFunction, checkCall, resolveValue } from './bindings.ts';
import { checkCondition, evalCondition } from './conditions.ts';
import { isEmail } from './functions.ts';
import type { Condition, Json } from './draft.ts';

const data: Json = { name: 'Ada', n: 2, list: ['a', 'b'], when: '2026-03-05T12:00:00Z', price: 1234.5, empty: '', nested: { x: 1 } };

describe('bindings', () => {
  it('[BD1] resolveValue: literal → itself, {path} → data or undefined, call → result', () => {
    expect(resolveValue('hi', data)).toBe('hi');
    expect(resolveValue({ path: '/nested/x' }, data)).toBe(1);
    expect(resolveValue({ path: '/missing' }, data)).toBeUndefined();
    expect(resolveValue({ path: '/name/toString' }, data)).toBeUndefined();
    expect(resolveValue({ call: 'length', args: { value: { path: '/list' } } }, data)).toBe(2);
  });
  it('[BD2] calls nest at most 4 levels', () => {
    const deep = (n: number): Json => (n === 0 ? 'x' : { call: 'concat', args: { parts: [deep(n - 1)] } });
    expect(resolveValue(deep(4), data)).toBe('x');
    expect(checkCall(deep(4) as never, '/p')).toBeNull();
    expect(checkCall(deep(5) as never, '/p')?.rule).toBe('invalid_function');
  });
  it('[invalid_function] refuses unknown names, unknown or missing args, bad literals', () => {
    expect(checkCall({ call: 'eval' as never, args: {} }, '/p')?.rule).toBe('invalid_function');
    expect(checkCall({ call: 'pluralize', args: { count: 1, one: 'a' } }, '/p')?.message).toContain('other');
    expect(checkCall({ call: 'length', args: { value: 'a', extra: 1 } }, '/p')?.rule).toBe('invalid_function');
    expect(checkCall({ call: 'formatNumber', args: { value: 1, decimals: 7 } }, '/p')?.rule).toBe('invalid_function');
    expect(checkCall({ call: 'formatCurrency', args: { value: 1, currency: 'euro' } }, '/p')?.rule).toBe('invalid_function');
    expect(checkCall({ call: 'formatDate', args: { value: 'x', style: 'weird' } }, '/p')?.rule).toBe('invalid_function');
  });
});

describe('functions', () => {
  const f = (name: string, args: Record<string, Json>) => callFunction(name, args, data);
  it('[FN formatDate] is deterministic in UTC with a default en-US locale', () => {
    expect(f('formatDate', { value: { path: '/when' } })).toBe('Mar 5, 2026');
    expect(f('formatDate', { value: '2026-03-05T23:30:00-05:00', style: 'short' })).toBe('3/6/26');
    expect(f('formatDate', { value: '2026-03-05', style: 'long', locale: 'de-DE' })).toBe('5. März 2026');
    expect(f('formatDate', { value: '2026-03-05', style: 'iso' })).toBe('2026-03-05T00:00:00.000Z');
    expect(f('formatDate', { value: 'not a date' })).toBe('not a date');
  });
  it('[FN formatNumber] formats with decimals and locale', () => {
    expect(f('formatNumber', { value: { path: '/price' } })).toBe('1,234.5');
    expect(f('formatNumber', { value: 1234.5, decimals: 2, locale: 'de-DE' })).toBe('1.234,50');
    expect(f('formatNumber', { value: 1, locale: 'not a locale!!' })).toBe('1');
  });
  it('[FN formatCurrency] formats an ISO 4217 amount', () => {
    expect(f('formatCurrency', { value: 9.5, currency: 'USD' })).toBe('$9.50');
    expect(f('formatCurrency', { value: 9.5, currency: 'EUR', locale: 'fr-FR' })).toMatch(/^9,50\s€$/);
  });
  it('[FN pluralize, concat, length] text helpers', () => {
    expect(f('pluralize', { count: 1, one: 'item', other: 'items' })).toBe('item');
    expect(f('pluralize', { count: { path: '/n' }, one: 'item', other: 'items' })).toBe('items');
    expect(f('concat', { parts: ['Hi ', { path: '/name' }, '!', { path: '/nope' }] })).toBe('Hi Ada!');
    expect(f('length', { value: 'abc' })).toBe(3);
    expect(f('length', { value: 5 })).toBe(0);
  });
  it('[FN required, minLength, maxLength, range] checks', () => {
    expect(f('required', { value: { path: '/empty' } })).toBe(false);
    expect(f('required', { value: '  ' })).toBe(false);
    expect(f('required', { value: 'x' })).toBe(true);
    expect(f('minLength', { value: 'abc', min: 3 })).toBe(true);
    expect(f('minLength', { value: 'ab', min: 3 })).toBe(false);
    expect(f('maxLength', { value: ['a'], max: 0 })).toBe(false);
    expect(f('range', { value: 5, min: 1, max: 5 })).toBe(true);
    expect(f('range', { value: 6, max: 5 })).toBe(false);
    expect(f('range', { value: 'x', min: 0 })).toBe(false);
  });
  it('[FN add, multiply, sum] host-checked arithmetic over paths', () => {
    const d: Json = { seats: 12, price: 9.5, costs: [{ amount: 0.1 }, { amount: 0.2 }], plain: [1, 2, 3.5], bad: [1, 'x'] };
    const g = (name: string, args: Record<string, Json>) => callFunction(name, args, d);
    expect(g('multiply', { a: { path: '/seats' }, b: { path: '/price' } })).toBe(114);
    expect(g('add', { a: 0.1, b: 0.2 })).toBe(0.3);
    expect(g('add', { a: { path: '/missing' }, b: 1 })).toBeNull();
    expect(g('sum', { values: { path: '/costs' }, key: 'amount' })).toBe(0.3);
    expect(g('sum', { values: { path: '/plain' } })).toBe(6.5);
    expect(g('sum', { values: { path: '/bad' } })).toBeNull();
    expect(g('sum', { values: { path: '/costs' }, key: 'constructor' })).toBeNull();
    expect(g('multiply', { a: 1e308, b: 10 })).toBeNull();
    // Nested: a total of seats × price plus a fee, as a pricing table would show it.
    expect(g('add', { a: { call: 'multiply', args: { a: { path: '/seats' }, b: { path: '/price' } } }, b: 6 })).toBe(120);
    expect(checkCall({ call: 'add', args: { a: '1', b: 2 } }, '/p')?.rule).toBe('invalid_function');
    expect(checkCall({ call: 'sum', args: { values: { path: '/plain' } } }, '/p')).toBeNull();
  });
  it('[FN email] a fixed linear check', () => {
    for (const ok of ['a@b.co', 'first.last+tag@sub.example.org']) expect(isEmail(ok), ok).toBe(true);
    for (const bad of ['', 'a@b', 'a@@b.co', '@b.co', 'a@.co', 'a b@c.co', 'a@b.c', 'a..b@c.co', 'a@-b.co', 'x'.repeat(300) + '@b.co']) expect(isEmail(bad), bad).toBe(false);
    const t0 = performance.now();
    isEmail('a'.repeat(200) + '@' + 'b.'.repeat(20) + 'co');
    expect(performance.now() - t0).toBeLessThan(50);
    expect(f('email', { value: 'a@b.co' })).toBe(true);
  });
  it('[FN unknown] an unknown function resolves to undefined', () => {
    expect(callFunction('eval', {}, data)).toBeUndefined();
  });
});

describe('conditions', () => {
  const c = (x: unknown) => evalCondition(x as Condition, data);
  it('[CD1] eq, ne, gt, lt over literals and paths', () => {
    expect(c({ eq: [{ path: '/name' }, 'Ada'] })).toBe(true);
    expect(c({ eq: [{ path: '/nested' }, { x: 1 }] })).toBe(true);
    expect(c({ ne: [{ path: '/n' }, 2] })).toBe(false);
    expect(c({ gt: [{ path: '/n' }, 1] })).toBe(true);
    expect(c({ lt: [{ path: '/n' }, 1] })).toBe(false);
    expect(c({ gt: [{ path: '/name' }, 1] })).toBe(false);
    expect(c({ eq: [{ path: '/missing' }, null] })).toBe(false);
  });
  it('[CD2] and, or, not', () => {
    expect(c({ and: [{ eq: [1, 1] }, { not: { eq: [1, 2] } }] })).toBe(true);
    expect(c({ or: [{ eq: [1, 2] }, { lt: [1, 2] }] })).toBe(true);
    expect(c({ not: { or: [{ eq: [1, 2] }] } })).toBe(true);
  });
  it('[invalid_condition] refuses unknown operators, wrong arity, extra keys, deep nesting', () => {
    expect(checkCondition({ eq: [1, 1] }, '/v')).toBeNull();
    for (const bad of [{ gte: [1, 2] }, { eq: [1] }, { eq: [1, 1], ne: [1, 2] }, { and: [] }, 'x', { eq: [{ path: 1 }, 1] }]) {
      expect(checkCondition(bad, '/v')?.rule, JSON.stringify(bad)).toBe('invalid_condition');
    }
    let deep: unknown = { eq: [1, 1] };
    for (let i = 0; i < 20; i++) deep = { not: deep };
    expect(checkCondition(deep, '/v')?.rule).toBe('invalid_condition');
  });
});
