// The one place render touches core's evaluators: bindings, functions and conditions are core's
// (never re-implemented here). Both are wrapped so a throw on a mid-flight draft becomes a note.

import { checkCondition, defaultCatalog as catalog, evalCondition, resolveValue } from '@weft/core';
import type { Condition, Json, Rule } from '@weft/core';

export type Resolved = { ok: true; value: Json | undefined } | { ok: false; error: string };

export function resolve(value: Json, data: Json): Resolved {
  try {
    return { ok: true, value: resolveValue(value, data) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

export function condition(cond: Condition, data: Json): { ok: true; value: boolean } | { ok: false; error: string } {
  try {
    // Core's evaluator reads a malformed condition as false; the renderer reports it instead.
    const problem = checkCondition(cond, '/visible');
    if (problem !== null) return { ok: false, error: problem.message };
    return { ok: true, value: evalCondition(cond, data) === true };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Whether the catalog knows this component name. */
export function inCatalog(name: string): boolean {
  return catalog.getEntry(name) !== undefined;
}

/** The catalog's own props check (schema, bindings, URLs, actions); null when they fit. */
export function propsProblem(name: string, props: unknown, at: string): { rule: Rule; message: string } | null {
  try {
    return catalog.checkProps(name, props ?? {}, at);
  } catch (e) {
    return { rule: 'invalid_props', message: e instanceof Error ? e.message : String(e) };
  }
}

/** Every catalog entry name (for the coverage test and the README). */
export function catalogNames(): string[] {
  return Object.keys(catalog.entries);
}
