import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestIdOf } from './access-log.ts';

const req = (id: string | string[] | undefined): IncomingMessage => ({ headers: id === undefined ? {} : { 'x-request-id': id } }) as unknown as IncomingMessage;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('requestIdOf', () => {
  it("keeps the caller's plain token, else makes a UUID", () => {
    expect(requestIdOf(req('abc-123.x:y_z'))).toBe('abc-123.x:y_z');
    expect(requestIdOf(req(undefined))).toMatch(UUID);
    expect(requestIdOf(req(['a', 'b']))).toMatch(UUID);
    expect(requestIdOf(req('x'.repeat(65)))).toMatch(UUID);
    expect(requestIdOf(req('evil\n{"level":"fatal"}'))).toMatch(UUID);
  });

  it('fuzz: whatever the header, the id is a short plain token (nothing can be injected into a log line)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (h) => {
      expect(requestIdOf(req(h))).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
    }), { numRuns: 1000 });
  });
});
