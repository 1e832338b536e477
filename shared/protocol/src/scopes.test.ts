import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scopeAllows } from './scopes.ts';

// Every name Object.prototype (and Function.prototype, Array.prototype) answers to.
const PROTO_NAMES = [...new Set([Object.prototype, Function.prototype, Array.prototype].flatMap((o) => Object.getOwnPropertyNames(o)))];

describe('scopeAllows', () => {
  it('grants what is listed for the draft or for *', () => {
    expect(scopeAllows({ home: ['read'] }, 'home', 'read')).toBe(true);
    expect(scopeAllows({ home: ['read'] }, 'home', 'write')).toBe(false);
    expect(scopeAllows({ '*': ['read', 'write'] }, 'other', 'write')).toBe(true);
    expect(scopeAllows({ home: ['read'] }, 'other', 'read')).toBe(false);
  });

  it('treats every prototype member name as an ordinary draft id (no throw, no grant from the prototype)', () => {
    fc.assert(fc.property(fc.constantFrom(...PROTO_NAMES), fc.constantFrom('read' as const, 'write' as const), fc.boolean(), (name, scope, listed) => {
      const scopes = listed ? { [name]: [scope] } : { home: ['read' as const, 'write' as const] };
      expect(scopeAllows(scopes, name, scope)).toBe(listed);
      // A scope map parsed from JSON may even carry a "__proto__" own key: still data.
      expect(scopeAllows(JSON.parse(`{"__proto__":["${scope}"]}`) as Record<string, ('read' | 'write')[]>, name, scope)).toBe(name === '__proto__');
    }), { numRuns: PROTO_NAMES.length * 8 });
  });
});
