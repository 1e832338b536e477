// Which draft a JSON-RPC message acts on, so a cluster node can send the call to that draft's
// owner: `tools/call` with `arguments.draftId`, or a session handle ("<draftId>:<sessionId>").
// Anything else (initialize, lists, resource reads, batches) is answered where it arrives.
import { parseSessionHandle } from './session-handle.ts';

const DRAFT_ID = /^[a-z][a-z0-9-]{0,40}$/;

export function draftOfCall(msg: unknown): string | null {
  if (!isRecord(msg) || msg['method'] !== 'tools/call' || !isRecord(msg['params'])) return null;
  const args = msg['params']['arguments'];
  if (!isRecord(args)) return null;
  const id = Object.hasOwn(args, 'draftId') ? args['draftId'] : undefined;
  if (typeof id === 'string' && DRAFT_ID.test(id)) return id;
  const handle = Object.hasOwn(args, 'session') ? args['session'] : undefined;
  return typeof handle === 'string' ? parseSessionHandle(handle)?.draftId ?? null : null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
