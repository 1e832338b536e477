// The body of POST /v1/drafts/:id/actions: A2UI v0.9's client→server `action` message
// ({ "version"?: "v0.9", "action": { name, surfaceId, sourceComponentId, timestamp, context } }).
// One zod schema validates it (a typed problem: JSON Pointer + what to do) and documents it in
// the OpenAPI document.
import { isValidId, sanitizeJson } from '@weft/core';
import type { Json } from '@weft/core';
import type { ReaderAction } from '@weft/protocol';
import { z } from 'zod';

const NAME = /^[A-Za-z0-9._:-]{1,64}$/;
const ID = /^[a-z][a-z0-9-]{0,40}$/;
const MAX_CONTEXT = 4 * 1024;
const SHAPE = 'Send {"action":{"name":"…","surfaceId":"<section id>","sourceComponentId":"<component id>","timestamp":"<ISO 8601>","context":{…}}} (A2UI v0.9).';
const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const shapeError = (iss: z.core.$ZodRawIssue): string => (iss.code === 'unrecognized_keys' ? `Unknown field "${String(iss.keys[0])}". ${SHAPE}` : SHAPE);
const text = (message: string) => z.string({ error: message });
const id = (message: string) => text(message).refine(isValidId, { error: message }).meta({ pattern: ID.source });

const Context = z.custom<Record<string, unknown>>(isObj, { error: 'context must be an object of JSON values.' })
  .transform((raw, c): { [k: string]: Json } => {
    const clean = sanitizeJson(raw);
    if (!clean.ok) {
      // core's pointer, appended as it is (commands/validate.ts): it does not escape `/` or `~` in keys.
      c.addIssue({ code: 'custom', message: `context: ${clean.error.message}`, params: { pointer: clean.error.at } });
      return z.NEVER;
    }
    if (JSON.stringify(clean.value).length > MAX_CONTEXT) {
      c.addIssue({ code: 'custom', message: `context is larger than ${MAX_CONTEXT} bytes of JSON.` });
      return z.NEVER;
    }
    return clean.value as { [k: string]: Json };
  })
  .meta({ type: 'object', description: `JSON values by name (bound paths such as "/days"); at most ${MAX_CONTEXT} bytes of JSON.` });

export const ReaderActionBody = z.strictObject({
  version: z.literal('v0.9', { error: 'version, when given, must be "v0.9".' }).optional(),
  action: z.strictObject({
    name: text('name must be 1–64 characters of [A-Za-z0-9._:-].').regex(NAME, { error: 'name must be 1–64 characters of [A-Za-z0-9._:-].' }),
    surfaceId: id('surfaceId must be a section id of this draft.'),
    sourceComponentId: id('sourceComponentId must be a component id of that section.'),
    timestamp: text('timestamp must be an ISO 8601 date-time.').max(40, { error: 'timestamp must be an ISO 8601 date-time.' })
      .refine((t) => !Number.isNaN(Date.parse(t)), { error: 'timestamp must be an ISO 8601 date-time.' })
      .meta({ description: 'When it happened: ISO 8601 (any date Date.parse reads is accepted), at most 40 characters.' }),
    context: Context.optional(),
  }, { error: shapeError }),
}, { error: shapeError }).meta({ id: 'ReaderActionBody', description: 'A2UI v0.9 client→server `action` message.' });

/** The action as the rest of the server sees it (context defaults to `{}`). */
export function toReaderAction(body: z.output<typeof ReaderActionBody>): ReaderAction {
  const { name, surfaceId, sourceComponentId, timestamp, context } = body.action;
  return { name, surfaceId, sourceComponentId, timestamp, context: context ?? {} };
}
