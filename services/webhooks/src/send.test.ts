import { describe, expect, it } from 'vitest';
import { retryAfter } from './send.ts';

describe('retryAfter', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');
  it('reads delta-seconds and HTTP dates; anything else is null', () => {
    expect(retryAfter('120', now)).toBe(120);
    expect(retryAfter(' 3 ', now)).toBe(3);
    expect(retryAfter('Tue, 01 Dec 2026 12:01:00 GMT', now)).toBe(60);
    expect(retryAfter('Tue, 01 Dec 2026 11:00:00 GMT', now)).toBe(0);
    for (const bad of [undefined, '', '-5', '1e9', 'soon', '99999999999']) expect(retryAfter(bad, now), String(bad)).toBeNull();
  });
});
