// Helpers that build the entry schemas, so every annotation is spelled once.
import { ACTION_NAMES, FUNCTION_NAMES } from '../draft.ts';
import type { JSONSchema } from './types.ts';

export const MAX_TEXT = 10_000;
export const MAX_ITEMS = 200;

export const BINDING_SCHEMA: JSONSchema = {
  type: 'object', required: ['path'], additionalProperties: false,
  properties: { path: { type: 'string', maxLength: 2048 } },
};
export const CALL_SCHEMA: JSONSchema = {
  type: 'object', required: ['call'], additionalProperties: false,
  properties: { call: { enum: [...FUNCTION_NAMES] }, args: { type: 'object' } },
};

export const str = (extra: JSONSchema = {}): JSONSchema => ({ type: 'string', maxLength: MAX_TEXT, ...extra });
export const num = (extra: JSONSchema = {}): JSONSchema => ({ type: 'number', ...extra });
export const int = (minimum?: number, maximum?: number, dflt?: number): JSONSchema => ({
  type: 'integer',
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
  ...(dflt !== undefined ? { default: dflt } : {}),
});
export const bool = (): JSONSchema => ({ type: 'boolean' });
/** Enum; the default is the first value unless given. */
export const oneOf = (values: readonly string[], dflt: string | undefined = values[0]): JSONSchema => ({
  type: 'string', enum: [...values], ...(dflt !== undefined ? { default: dflt } : {}),
});
export const url = (kind: 'url' | 'media' | 'https' = 'url'): JSONSchema => ({ type: 'string', maxLength: 2048, 'x-url': kind });
export const arr = (items: JSONSchema, minItems = 0, maxItems = MAX_ITEMS): JSONSchema => ({
  type: 'array', items, ...(minItems > 0 ? { minItems } : {}), maxItems,
});
export const obj = (properties: Record<string, JSONSchema>, required: readonly string[] = []): JSONSchema => ({
  type: 'object', properties, required: [...required], additionalProperties: false,
});
export const action = (): JSONSchema => ({
  type: 'object', 'x-action': true, required: ['action'], properties: { action: { type: 'string', 'x-names': [...ACTION_NAMES] } },
});
export const checks = (): JSONSchema => ({
  type: 'array', 'x-checks': true, maxItems: 20,
  items: obj({ condition: { type: 'object' }, message: str({ maxLength: 500 }) }, ['condition', 'message']),
});
/** Marks a prop bindable: a literal of `literal`, a {path} binding or a function call. */
export const bindable = (literal: JSONSchema): JSONSchema => ({
  'x-bindable': true,
  anyOf: [literal, BINDING_SCHEMA, CALL_SCHEMA],
});

/** One prop definition: its schema and whether it is required. */
export interface PropDef {
  schema: JSONSchema;
  required?: boolean;
}
export const req = (schema: JSONSchema): PropDef => ({ schema, required: true });
export const opt = (schema: JSONSchema): PropDef => ({ schema });
