// Repairs of prop values against their schema (RFC §6 step 2), each reported as a Note: a string
// read as the number or boolean the schema asks for ("2" → 2), and fields a nested object's
// schema does not know dropped (plans[1].ribbon), as unknown props are at the top level.
// Bindings and calls are left alone: they are checked, not repaired.
import type { JSONSchema } from './catalog/types.ts';
import type { Json, JsonObject } from './draft.ts';
import { isJsonObject } from './json.ts';
import { escapeSegment } from './pointer.ts';
import type { Problem } from './problem.ts';

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;
const MAX_DEPTH = 8;

/** `v` made to fit `schema` where the intent is plain; objects and arrays are repaired in place. */
export function conformValue(schema: JSONSchema, v: Json, at: string, notes: Problem[], depth = 0): Json {
  if (depth > MAX_DEPTH) return v;
  if (schema['x-bindable'] === true && Array.isArray(schema['anyOf'])) {
    if (isJsonObject(v) && (Object.hasOwn(v, 'path') || Object.hasOwn(v, 'call'))) return v;
    return conformValue(schema['anyOf'][0] as JSONSchema, v, at, notes, depth + 1);
  }
  const t = schema['type'];
  const types: unknown[] = Array.isArray(t) ? t : t === undefined ? [] : [t];
  if (typeof v === 'string' && types.length > 0 && !types.includes('string')) {
    const s = v.trim();
    if ((types.includes('number') || types.includes('integer')) && NUMBER.test(s) && (types.includes('number') || !s.includes('.'))) {
      notes.push({ rule: 'coerced_value', path: at, message: `"${v}" read as the number ${s}; write numbers without quotes` });
      return Number(s);
    }
    if (types.includes('boolean') && (s === 'true' || s === 'false')) {
      notes.push({ rule: 'coerced_value', path: at, message: `"${v}" read as the boolean ${s}; write true/false without quotes` });
      return s === 'true';
    }
    return v;
  }
  if (Array.isArray(v) && isJsonObject(schema['items'])) {
    for (let i = 0; i < v.length; i++) v[i] = conformValue(schema['items'] as JSONSchema, v[i]!, `${at}/${i}`, notes, depth + 1);
    return v;
  }
  if (isJsonObject(v) && isJsonObject(schema['properties'])) {
    const props = schema['properties'] as Record<string, JSONSchema>;
    for (const k of Object.keys(v)) {
      if (Object.hasOwn(props, k)) v[k] = conformValue(props[k]!, v[k]!, `${at}/${escapeSegment(k)}`, notes, depth + 1);
      else if (schema['additionalProperties'] === false) {
        delete v[k];
        notes.push({ rule: 'dropped_prop', path: `${at}/${escapeSegment(k)}`, message: `dropped the unknown field "${k}"; it takes ${Object.keys(props).join(', ')}` });
      }
    }
  }
  return v;
}
