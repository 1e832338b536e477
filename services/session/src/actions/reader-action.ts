// The body of POST /v1/drafts/:id/actions: A2UI v0.9's client→server `action` message
// ({ "version"?: "v0.9", "action": { name, surfaceId, sourceComponentId, timestamp, context } }).
// Pure: a typed problem (JSON Pointer + what to do) for anything else.
import { isValidId, sanitizeJson } from '@weft/core';
import type { Json } from '@weft/core';
import type { ReaderAction } from '@weft/protocol';

export type Parsed = { ok: true; value: ReaderAction } | { ok: false; path: string; message: string };

const NAME = /^[A-Za-z0-9._:-]{1,64}$/;
const MAX_CONTEXT = 4 * 1024;
const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function parseReaderAction(body: unknown): Parsed {
  const bad = (path: string, message: string): Parsed => ({ ok: false, path, message });
  const shape = 'Send {"action":{"name":"…","surfaceId":"<section id>","sourceComponentId":"<component id>","timestamp":"<ISO 8601>","context":{…}}} (A2UI v0.9).';
  if (!isObj(body) || !isObj(body['action'])) return bad('/action', shape);
  for (const k of Object.keys(body)) if (k !== 'action' && k !== 'version') return bad(`/${k}`, `Unknown field "${k}". ${shape}`);
  if (body['version'] !== undefined && body['version'] !== 'v0.9') return bad('/version', 'version, when given, must be "v0.9".');
  const a = body['action'];
  for (const k of Object.keys(a)) {
    if (!['name', 'surfaceId', 'sourceComponentId', 'timestamp', 'context'].includes(k)) return bad(`/action/${k}`, `Unknown field "${k}". ${shape}`);
  }
  const { name, surfaceId, sourceComponentId, timestamp } = a;
  if (typeof name !== 'string' || !NAME.test(name)) return bad('/action/name', 'name must be 1–64 characters of [A-Za-z0-9._:-].');
  if (!isValidId(surfaceId)) return bad('/action/surfaceId', 'surfaceId must be a section id of this draft.');
  if (!isValidId(sourceComponentId)) return bad('/action/sourceComponentId', 'sourceComponentId must be a component id of that section.');
  if (typeof timestamp !== 'string' || timestamp.length > 40 || Number.isNaN(Date.parse(timestamp))) return bad('/action/timestamp', 'timestamp must be an ISO 8601 date-time.');
  const raw = a['context'] ?? {};
  if (!isObj(raw)) return bad('/action/context', 'context must be an object of JSON values.');
  const clean = sanitizeJson(raw);
  if (!clean.ok) return bad(`/action/context${clean.error.at}`, `context: ${clean.error.message}`);
  if (JSON.stringify(clean.value).length > MAX_CONTEXT) return bad('/action/context', `context is larger than ${MAX_CONTEXT} bytes of JSON.`);
  return { ok: true, value: { name, surfaceId, sourceComponentId, timestamp, context: clean.value as { [k: string]: Json } } };
}
