// Visibility conditions (eq, ne, gt, lt, and, or, not over literals and {path}): validation and
// evaluation. Iteration is bounded by Limits.maxConditionDepth.
import type { Condition, Json, Operand } from './draft.ts';
import { checkBinding, isBinding, resolveValue } from './bindings.ts';
import { jsonEqual } from './json.ts';
import { Limits } from './limits.ts';
import type { Problem } from './problem.ts';

const BINARY = ['eq', 'ne', 'gt', 'lt'] as const;

function soleKey(o: object): string | null {
  const ks = Object.keys(o);
  return ks.length === 1 ? (ks[0] ?? null) : null;
}

export function checkCondition(c: unknown, at: string, depth = 0): Problem | null {
  const bad = (m: string): Problem => ({ rule: 'invalid_condition', path: at, message: `${m}; a condition is {"eq":[a,b]}, ne, gt, lt, {"and":[…]}, {"or":[…]} or {"not":c}, operands are literals or {"path":"/p"}` });
  if (depth > Limits.maxConditionDepth) return bad(`condition nests deeper than ${Limits.maxConditionDepth} levels at "${at}"`);
  if (c === null || typeof c !== 'object' || Array.isArray(c)) return bad(`condition at "${at}" is not an object`);
  const k = soleKey(c);
  if (k === null) return bad(`condition at "${at}" must have exactly one operator key`);
  const v = (c as Record<string, unknown>)[k];
  if ((BINARY as readonly string[]).includes(k)) {
    if (!Array.isArray(v) || v.length !== 2) return bad(`"${k}" at "${at}" takes an array of two operands`);
    for (let i = 0; i < 2; i++) {
      const o: unknown = v[i];
      if (isBinding(o)) {
        const p = checkBinding(o, `${at}/${k}/${i}`);
        if (p) return p;
      } else if (o !== null && typeof o === 'object' && ('path' in o || 'call' in o)) {
        return bad(`operand at "${at}/${k}/${i}" must be a literal or exactly {"path":"/p"}`);
      }
    }
    return null;
  }
  if (k === 'and' || k === 'or') {
    if (!Array.isArray(v) || v.length === 0) return bad(`"${k}" at "${at}" takes a non-empty array of conditions`);
    for (let i = 0; i < v.length; i++) {
      const p = checkCondition(v[i], `${at}/${k}/${i}`, depth + 1);
      if (p) return p;
    }
    return null;
  }
  if (k === 'not') return checkCondition(v, `${at}/not`, depth + 1);
  return bad(`unknown operator "${k}" at "${at}"`);
}

function operand(o: Operand, data: Json): Json | undefined {
  return isBinding(o) ? resolveValue(o as unknown as Json, data) : o;
}

/** Evaluates a (validated) condition. Malformed parts evaluate to false, never throw. */
export function evalCondition(cond: Condition, data: Json, depth = 0): boolean {
  if (depth > Limits.maxConditionDepth || cond === null || typeof cond !== 'object') return false;
  if ('eq' in cond) return jsonEqual(operand(cond.eq[0], data), operand(cond.eq[1], data));
  if ('ne' in cond) return !jsonEqual(operand(cond.ne[0], data), operand(cond.ne[1], data));
  if ('gt' in cond || 'lt' in cond) {
    const pair = 'gt' in cond ? cond.gt : cond.lt;
    const a = operand(pair[0], data);
    const b = operand(pair[1], data);
    const bothNum = typeof a === 'number' && typeof b === 'number';
    const bothStr = typeof a === 'string' && typeof b === 'string';
    if (!bothNum && !bothStr) return false;
    return 'gt' in cond ? a > b : a < b;
  }
  if ('and' in cond) return Array.isArray(cond.and) && cond.and.every((c) => evalCondition(c, data, depth + 1));
  if ('or' in cond) return Array.isArray(cond.or) && cond.or.some((c) => evalCondition(c, data, depth + 1));
  if ('not' in cond) return !evalCondition(cond.not, data, depth + 1);
  return false;
}
