import { describe, expect, it } from 'vitest';
import { draftOfCall } from './call-draft.ts';

const call = (args: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'patch_draft', arguments: args } });

describe('draftOfCall (the draft a cluster node routes an MCP call to)', () => {
  it('reads draftId, or the draft of a session handle', () => {
    expect(draftOfCall(call({ draftId: 'home' }))).toBe('home');
    expect(draftOfCall(call({ session: 'home:s-1', ops: [] }))).toBe('home');
  });
  it('answers null for other messages, bad ids and inherited names', () => {
    expect(draftOfCall({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })).toBeNull();
    expect(draftOfCall([call({ draftId: 'home' })])).toBeNull();
    expect(draftOfCall(call({ draftId: '../x' }))).toBeNull();
    expect(draftOfCall(call({ session: 'nope' }))).toBeNull();
    expect(draftOfCall(call(Object.create({ draftId: 'home' })))).toBeNull();
    expect(draftOfCall(null)).toBeNull();
  });
});
