// The catalog contract read by render, interop and catalogPrompt (docs/catalog.md).
import type { ActionName, FunctionName, JsonObject } from '../draft.ts';
import type { ActionSpec } from '../actions.ts';
import type { FunctionSpec } from '../functions.ts';
import type { Problem } from '../problem.ts';

/**
 * A JSON Schema (draft-07 subset) with Weft annotations on property schemas:
 * - `x-bindable: true` — the prop also accepts `{path}` or `{call,args}` (expressed as `anyOf`:
 *   `[literal schema, BINDING_SCHEMA, CALL_SCHEMA]`, the literal branch first);
 * - `x-url: 'url' | 'media' | 'https'` — a string checked against the URL policy;
 * - `x-action: true` — a named action object (ACTION_SPECS);
 * - `x-checks: true` — an array of `{condition, message}` validation checks.
 */
export type JSONSchema = { [key: string]: unknown };

export type ChildrenPolicy = 'none' | 'any' | readonly string[];

export interface CatalogEntry {
  /** Component name as written in `Component.component`, e.g. "Heading" or "pricing-table". */
  name: string;
  group: 'layout' | 'content' | 'interactive' | 'block';
  description: string;
  /** JSON Schema of `props`: `{type:'object', properties, required, additionalProperties:false}`. */
  props: JSONSchema;
  /** Required prop names (same as `props.required`). */
  required: readonly string[];
  /** Props that accept bindings/calls (same as the `x-bindable` annotations). */
  bindable: readonly string[];
  /** Which children the component takes: none, any, or only these component names. */
  children: ChildrenPolicy;
  /** A valid props object: the fill-required repair and the prompt use it. */
  example: JsonObject;
  /** Prop names models write for one of ours (`text` for a Button's `label`): repair renames them. */
  aliases: Readonly<Record<string, string>>;
}

export interface Catalog {
  /** Catalog id recorded on surfaces, `<theme>@<major>`. */
  readonly id: string;
  readonly entries: Readonly<Record<string, CatalogEntry>>;
  readonly componentNames: readonly string[];
  getEntry(name: string): CatalogEntry | undefined;
  readonly actions: Readonly<Record<ActionName, ActionSpec>>;
  readonly functions: Readonly<Record<FunctionName, FunctionSpec>>;
  /**
   * Checks props against the entry (schema via precompiled ajv, then bindings, calls, URLs,
   * actions and checks in code). `at` is the pointer of the props object. Unknown entry → null.
   */
  checkProps(name: string, props: unknown, at: string): Problem | null;
}
