// Visibility conditions: Weft (eq, ne, gt, lt, and, or, not) ⇄ json-render ({$state, eq|neq|gt|
// gte|lt|lte, not}, arrays = AND, $and, $or). gte/lte are written as `not lt` / `not gt`.
import type { Condition, Json, Operand } from '@weft/core';
import { isObject } from './json-util.ts';
import { note } from './notes.ts';
import type { InteropNote } from './notes.ts';

export interface CondCtx {
  notes: InteropNote[];
  path: string;
  /** Inside a repeat: `$item` fields resolve under this absolute path; `$index` is this index. */
  item?: { path: string; index: number };
}

const OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] as const;

/** json-render → Weft; undefined when it cannot be expressed (noted). `true` → no condition. */
export function importCondition(v: unknown, ctx: CondCtx): Condition | undefined {
  if (v === true) return undefined;
  if (v === false) return { eq: [true, false] };
  if (Array.isArray(v)) return all(v.map((c, i) => importCondition(c, { ...ctx, path: `${ctx.path}/${i}` })));
  if (!isObject(v)) return fail(ctx, 'is not a condition');
  if (Array.isArray(v['$and'])) return all(v['$and'].map((c, i) => importCondition(c, { ...ctx, path: `${ctx.path}/$and/${i}` })));
  if (Array.isArray(v['$or'])) {
    const parts = v['$or'].map((c, i) => importCondition(c, { ...ctx, path: `${ctx.path}/$or/${i}` }));
    if (parts.some((p) => p === undefined)) return fail(ctx, 'has a branch that cannot be expressed');
    return { or: parts as Condition[] };
  }
  let subject: Operand;
  if (typeof v['$state'] === 'string') subject = { path: v['$state'] };
  else if (typeof v['$item'] === 'string' && ctx.item) subject = { path: v['$item'] === '' ? ctx.item.path : `${ctx.item.path}/${v['$item']}` };
  else if (v['$index'] === true && ctx.item) subject = ctx.item.index;
  else return fail(ctx, 'has no $state (or $item/$index outside a repeat)');
  const op = OPS.find((o) => o in v);
  const rhs = op === undefined ? undefined : toOperand(v[op]);
  let c: Condition;
  switch (op) {
    case 'eq': c = { eq: [subject, rhs as Operand] }; break;
    case 'neq': c = { ne: [subject, rhs as Operand] }; break;
    case 'gt': c = { gt: [subject, rhs as Operand] }; break;
    case 'lt': c = { lt: [subject, rhs as Operand] }; break;
    case 'gte': c = { not: { lt: [subject, rhs as Operand] } }; break;
    case 'lte': c = { not: { gt: [subject, rhs as Operand] } }; break;
    default:
      // Truthiness: Weft has no truthy test; "not false, null, 0 or empty" is the closest.
      ctx.notes.push(note('condition-mapped', ctx.path, 'A truthiness test became "not false, null, 0 or empty string".', true));
      c = { and: [false, null, 0, ''].map((x) => ({ ne: [subject, x] as [Operand, Operand] })) };
  }
  return v['not'] === true ? { not: c } : c;
}

function toOperand(v: unknown): Operand | undefined {
  if (isObject(v) && typeof v['$state'] === 'string') return { path: v['$state'] };
  return v as Json;
}

function all(parts: Array<Condition | undefined>): Condition | undefined {
  const defined = parts.filter((p): p is Condition => p !== undefined);
  if (defined.length === 0) return undefined;
  return defined.length === 1 ? defined[0] : { and: defined };
}

function fail(ctx: CondCtx, why: string): undefined {
  ctx.notes.push(note('visibility-dropped', ctx.path, `The visibility condition ${why}; the element is always shown.`, true));
  return undefined;
}

/** Weft → json-render; undefined when it cannot be expressed (noted). */
export function exportCondition(c: Condition, ctx: CondCtx): Json | undefined {
  return exp(c, false, ctx);
}

function isPath(o: unknown): o is { path: string } {
  return isObject(o) && typeof o['path'] === 'string' && Object.keys(o).length === 1;
}

function exp(c: Condition, negate: boolean, ctx: CondCtx): Json | undefined {
  if ('and' in c || 'or' in c) {
    const isAnd = 'and' in c !== negate; // De Morgan under negation
    const list = 'and' in c ? c.and : c.or;
    const parts = list.map((x) => exp(x, negate, ctx));
    if (parts.some((p) => p === undefined)) return undefined;
    return isAnd ? { $and: parts as Json[] } : { $or: parts as Json[] };
  }
  if ('not' in c) return exp(c.not, !negate, ctx);
  const [op, pair] = Object.entries(c)[0] as ['eq' | 'ne' | 'gt' | 'lt', [Operand, Operand]];
  let [a, b] = pair;
  let o: string = op;
  if (!isPath(a) && isPath(b)) {
    [a, b] = [b, a];
    o = op === 'gt' ? 'lt' : op === 'lt' ? 'gt' : op;
  }
  if (!isPath(a) || isPath(b)) {
    ctx.notes.push(note('visibility-dropped', ctx.path, 'json-render compares one state path with a literal; this condition was left out.', true));
    return undefined;
  }
  const jr = { eq: 'eq', ne: 'neq', gt: 'gt', lt: 'lt' }[o as 'eq'] as string;
  const out: { [k: string]: Json } = { $state: a.path, [jr]: b as Json };
  if (negate) out['not'] = true;
  return out;
}
