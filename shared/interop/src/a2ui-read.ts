// Reading A2UI input: an array, `{messages:[…]}`, a JSON array string, or JSON Lines.
import { parseLenient } from './lenient-json.ts';
import { isObject } from './json-util.ts';
import { note } from './notes.ts';
import type { InteropNote } from './notes.ts';

export const A2UI_MESSAGE_KINDS = ['createSurface', 'updateComponents', 'updateDataModel', 'deleteSurface'] as const;
export type A2uiMessageKind = (typeof A2UI_MESSAGE_KINDS)[number];

export function readA2uiInput(input: unknown[] | string | { messages: unknown[] }, notes: InteropNote[]): unknown[] {
  if (Array.isArray(input)) return input;
  if (isObject(input)) return Array.isArray(input['messages']) ? input['messages'] : [input];
  const values: unknown[] = [];
  let i = 0;
  while (i < input.length) {
    while (i < input.length && /\s/.test(input[i] as string)) i++;
    if (i >= input.length) break;
    const r = parseLenient(input, i);
    if (!r.ok) {
      notes.push(note('message-invalid', '', `Input is not JSON: ${r.message}.`, true));
      const nl = input.indexOf('\n', i);
      if (nl < 0) break;
      i = nl + 1;
      continue;
    }
    values.push(r.value);
    i = r.end;
  }
  if (values.length === 1) {
    const only = values[0];
    if (Array.isArray(only)) return only;
    if (isObject(only) && Array.isArray(only['messages'])) return only['messages'];
  }
  return values;
}

/** The one message kind a message holds, or a reason it is not a v0.9 server message. */
export function messageKind(m: unknown): { kind: A2uiMessageKind; body: Record<string, unknown> } | { error: string } {
  if (!isObject(m)) return { error: 'not an object' };
  if (m['version'] !== undefined && m['version'] !== 'v0.9') return { error: `version ${JSON.stringify(m['version'])} is not v0.9` };
  const kinds = A2UI_MESSAGE_KINDS.filter((k) => k in m);
  if (kinds.length !== 1) return { error: 'not exactly one of createSurface, updateComponents, updateDataModel, deleteSurface' };
  const kind = kinds[0] as A2uiMessageKind;
  const body = m[kind];
  if (!isObject(body) || typeof body['surfaceId'] !== 'string') return { error: `${kind} has no surfaceId` };
  return { kind, body };
}
