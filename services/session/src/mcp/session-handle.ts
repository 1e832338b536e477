// The `session` handle MCP clients pass around: "<draftId>:<sessionId>". MCP over HTTP is
// stateless here (one server per request), so the handle carries the draft it belongs to; the
// session manager still checks the session is open, on that draft, and the caller's own.

const DRAFT_ID = /^[a-z][a-z0-9-]{0,40}$/;
const SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function formatSessionHandle(draftId: string, sessionId: string): string {
  return `${draftId}:${sessionId}`;
}

export function parseSessionHandle(handle: string): { draftId: string; sessionId: string } | null {
  const i = handle.indexOf(':');
  if (i < 0) return null;
  const draftId = handle.slice(0, i);
  const sessionId = handle.slice(i + 1);
  return DRAFT_ID.test(draftId) && SESSION_ID.test(sessionId) ? { draftId, sessionId } : null;
}
