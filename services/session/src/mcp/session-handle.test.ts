import { describe, expect, it } from 'vitest';
import { formatSessionHandle, parseSessionHandle } from './session-handle.ts';

describe('MCP session handle', () => {
  it('round-trips draft and session id', () => {
    const h = formatSessionHandle('landing-page', 's-1234-abcd');
    expect(parseSessionHandle(h)).toEqual({ draftId: 'landing-page', sessionId: 's-1234-abcd' });
  });
  it('refuses handles that do not name a valid draft and session', () => {
    for (const bad of ['', 's-1234', ':s-1', 'Page:s-1', 'page:', 'page:a b', '__proto__:x']) expect(parseSessionHandle(bad)).toBeNull();
  });
});
