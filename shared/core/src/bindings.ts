// Bindings ({path}) and function calls ({call,args}) in bindable props: validation and
// evaluation against a surface's data model (RFC §3). Eval-free.
import type { Binding, FunctionCall, FunctionName, Json } from './draft.ts';
import { FUNCTION_NAMES } from './draft.ts';
import { FUNCTION_SPECS, applyFunction, isCurrencyCode } from './functions.ts';
import { Limits } from './limits.ts';
import { getAt, parsePointer } from './pointer.ts';
import type { Problem } from './problem.ts';

const FN_SET: ReadonlySet<string> = new Set(FUNCTION_NAMES);

export function isBinding(v: unknown): v is Binding {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  if (typeof o['path'] !== 'string') return false;
  for (const k in o) if (k !== 'path') return false;
  return true;
}

export function isCall(v: unknown): v is FunctionCall {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  if (typeof o['call'] !== 'string') return false;
  for (const k in o) if (k !== 'call' && k !== 'args') return false;
  return true;
}

/** Validates a binding's pointer. */
export function checkBinding(b: Binding, at: string): Problem | null {
  const p = parsePointer(b.path);
  if (p.ok) return null;
  return {
    rule: p.error.rule === 'forbidden_segment' ? 'forbidden_segment' : 'invalid_binding',
    path: at,
    message: `binding at "${at}": ${p.error.message}; use { "path": "/key/in/data" }`,
  };
}

/**
 * Validates a value given to a bindable prop or a function argument: a literal passes here (the
 * schema checks its type), a binding needs a valid pointer, a call a known name and valid args.
 */
export function checkOperand(v: unknown, at: string, depth = 0): Problem | null {
  if (isBinding(v)) return checkBinding(v, at);
  if (isCall(v)) return checkCall(v, at, depth);
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if ('path' in o) return { rule: 'invalid_binding', path: at, message: `binding at "${at}" must be exactly { "path": "/pointer" } with a string path` };
    if ('call' in o) return { rule: 'invalid_function', path: at, message: `call at "${at}" must be { "call": name, "args": {…} } with nothing else` };
  }
  return null;
}

export function checkCall(c: FunctionCall, at: string, depth = 0): Problem | null {
  if (depth >= Limits.maxCallDepth) {
    return { rule: 'invalid_function', path: at, message: `function calls nest deeper than ${Limits.maxCallDepth} levels at "${at}"; simplify` };
  }
  if (!FN_SET.has(c.call)) {
    return { rule: 'invalid_function', path: at, message: `unknown function "${c.call}" at "${at}"; use one of ${FUNCTION_NAMES.join(', ')}` };
  }
  const spec = FUNCTION_SPECS[c.call];
  const args = c.args ?? {};
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { rule: 'invalid_function', path: at, message: `"args" of ${c.call} at "${at}" must be an object` };
  }
  for (const k of Object.keys(args)) {
    if (!Object.hasOwn(spec.args, k)) {
      return { rule: 'invalid_function', path: `${at}/args/${k}`, message: `${c.call} has no argument "${k}"; its arguments are ${Object.keys(spec.args).join(', ')}` };
    }
  }
  for (const [name, a] of Object.entries(spec.args)) {
    const here = `${at}/args/${name}`;
    if (!Object.hasOwn(args, name)) {
      if (a.required) return { rule: 'invalid_function', path: here, message: `${c.call} needs the argument "${name}" (${a.description})` };
      continue;
    }
    const v = args[name] as Json;
    if (a.operands) {
      if (!Array.isArray(v)) return { rule: 'invalid_function', path: here, message: `"${name}" of ${c.call} must be an array of literals, {path} bindings or calls` };
      for (let i = 0; i < v.length; i++) {
        const p = checkOperand(v[i], `${here}/${i}`, depth + 1);
        if (p) return p;
      }
      continue;
    }
    if (isBinding(v) || isCall(v)) {
      const p = checkOperand(v, here, depth + 1);
      if (p) return p;
      continue;
    }
    const bad = literalProblem(v, a);
    if (bad !== null) return { rule: 'invalid_function', path: here, message: `argument "${name}" of ${c.call} ${bad}` };
    if (c.call === 'formatCurrency' && name === 'currency' && !isCurrencyCode(v as string)) {
      return { rule: 'invalid_function', path: here, message: `currency must be an ISO 4217 code of 3 capital letters, e.g. "EUR"` };
    }
  }
  return null;
}

function literalProblem(v: Json, a: { type: string; enum?: readonly string[]; minimum?: number; maximum?: number }): string | null {
  switch (a.type) {
    case 'string':
      if (typeof v !== 'string') return 'must be a string';
      if (a.enum && !a.enum.includes(v)) return `must be one of ${a.enum.join(', ')}`;
      return null;
    case 'number':
    case 'integer':
      if (typeof v !== 'number' || (a.type === 'integer' && !Number.isInteger(v))) return `must be ${a.type === 'integer' ? 'an integer' : 'a number'}`;
      if (a.minimum !== undefined && v < a.minimum) return `must be ≥ ${a.minimum}`;
      if (a.maximum !== undefined && v > a.maximum) return `must be ≤ ${a.maximum}`;
      return null;
    case 'array':
      return Array.isArray(v) ? null : 'must be an array';
    default:
      return null;
  }
}

export interface ResolveContext {
  /** Call depth so far (bounded by Limits.maxCallDepth). */
  depth?: number;
}

/** literal → itself; {path} → the data at path (or undefined); {call,args} → the result. */
export function resolveValue(value: Json, data: Json, ctx: ResolveContext = {}): Json | undefined {
  if (isBinding(value)) {
    const p = parsePointer(value.path);
    if (!p.ok) return undefined;
    const r = getAt(data, p.value);
    return r.found ? (r.value as Json) : undefined;
  }
  if (isCall(value)) {
    const depth = ctx.depth ?? 0;
    if (depth >= Limits.maxCallDepth) return undefined;
    return callFunction(value.call, (value.args ?? {}) as Record<string, Json>, data, depth + 1);
  }
  return value;
}

/** Resolves the args (bindings and nested calls) and runs the named function. */
export function callFunction(name: string, args: Readonly<Record<string, Json>>, data: Json, depth = 0): Json | undefined {
  if (!FN_SET.has(name)) return undefined;
  const fn = name as FunctionName;
  const resolved: Record<string, Json | undefined> = {};
  for (const k of Object.keys(args)) {
    if (!Object.hasOwn(FUNCTION_SPECS[fn].args, k)) continue;
    const v = args[k] as Json;
    if (FUNCTION_SPECS[fn].args[k]?.operands && Array.isArray(v)) {
      resolved[k] = v.map((p) => resolveValue(p, data, { depth }) ?? null);
    } else resolved[k] = resolveValue(v, data, { depth });
  }
  return applyFunction(fn, resolved);
}
