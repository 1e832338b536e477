import { describe, expect, it } from 'vitest';
import { WeftError } from './errors.ts';

describe('WeftError', () => {
  it('a VALIDATION_FAILED with a rule says its kind wherever it leaves; nothing else gains one', () => {
    expect(new WeftError('VALIDATION_FAILED', 'm', { rule: 'invalid_url', path: '/p' }).toPayload()).toEqual({ code: 'VALIDATION_FAILED', message: 'm', rule: 'invalid_url', path: '/p', kind: 'contract' });
    expect(new WeftError('VALIDATION_FAILED', 'm', { rule: 'invalid_pointer' }).toPayload().kind).toBe('emission');
    expect(new WeftError('VALIDATION_FAILED', 'm', { rule: 'invalid_url', kind: 'emission' }).toPayload().kind).toBe('emission');
    for (const extra of [{}, { rule: 'toString' }, { rule: '__proto__' }, { rule: 7 }]) expect(new WeftError('VALIDATION_FAILED', 'm', extra).toPayload()).not.toHaveProperty('kind');
    expect(new WeftError('BAD_REQUEST', 'm', { rule: 'invalid_url' }).toPayload()).not.toHaveProperty('kind');
    expect(WeftError.from({ code: 'VALIDATION_FAILED', message: 'm', rule: 'cycle' }).toPayload().kind).toBe('contract');
  });
});
