// Applying RFC 6902 ops to the mutable draft in place, and computing each op's inverse from the
// state before it. Never clones the draft (PERFORMANCE.md lever 1); inserted values are copied so
// the draft never shares objects with ops the caller keeps. Own properties only.
import type { Json, Op } from './draft.ts';
import type { Result } from './errors.ts';
import { cloneJson, jsonEqual } from './json.ts';
import { arrayIndex, formatPointer, getAt, parsePointer } from './pointer.ts';
import type { Problem } from './problem.ts';

type Container = Json[] | { [k: string]: Json };

function containerAt(doc: unknown, parentSegs: readonly string[]): Container | null {
  const r = getAt(doc, parentSegs);
  return r.found && r.value !== null && typeof r.value === 'object' ? (r.value as Container) : null;
}

const notFound = (path: string, what = 'does not exist'): { ok: false; error: Problem } => ({
  ok: false,
  error: { rule: 'path_not_found', path, message: `path "${path}" ${what}` },
});

/** add: inserts (arrays) or sets (objects). Returns the undo ops. */
function add(doc: unknown, segs: readonly string[], path: string, value: Json): Result<Op[], Problem> {
  if (segs.length === 0) return notFound(path, 'is the whole document; ops change parts of it');
  const parent = containerAt(doc, segs.slice(0, -1));
  if (!parent) return notFound(path, 'has no parent object or array; create the parent first');
  const last = segs[segs.length - 1]!;
  if (Array.isArray(parent)) {
    const i = last === '-' ? parent.length : arrayIndex(last);
    if (i < 0 || i > parent.length) return notFound(path, `is not an index 0..${parent.length} or "-" of the array`);
    parent.splice(i, 0, value);
    return { ok: true, value: [{ op: 'remove', path: formatPointer([...segs.slice(0, -1), String(i)]) }] };
  }
  if (Object.hasOwn(parent, last)) {
    const old = parent[last]!;
    parent[last] = value;
    return { ok: true, value: [{ op: 'replace', path, value: old }] };
  }
  parent[last] = value;
  return { ok: true, value: [{ op: 'remove', path }] };
}

function remove(doc: unknown, segs: readonly string[], path: string): Result<{ undo: Op[]; value: Json }, Problem> {
  if (segs.length === 0) return notFound(path, 'is the whole document and cannot be removed');
  const parent = containerAt(doc, segs.slice(0, -1));
  if (!parent) return notFound(path);
  const last = segs[segs.length - 1]!;
  if (Array.isArray(parent)) {
    const i = arrayIndex(last);
    if (i < 0 || i >= parent.length) return notFound(path);
    const [old] = parent.splice(i, 1) as [Json];
    return { ok: true, value: { undo: [{ op: 'add', path, value: old }], value: old } };
  }
  if (!Object.hasOwn(parent, last)) return notFound(path);
  const old = parent[last]!;
  delete parent[last];
  return { ok: true, value: { undo: [{ op: 'add', path, value: old }], value: old } };
}

function isPrefix(a: readonly string[], b: readonly string[]): boolean {
  if (a.length >= b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Applies one op whose pointers are already parsed (and checked for forbidden segments).
 * On success returns the ops that undo it, in the order they must be applied. On failure the
 * document is unchanged.
 */
export function applyParsed(doc: unknown, op: Op, segs: readonly string[], fromSegs: readonly string[] | null): Result<Op[], Problem> {
  switch (op.op) {
    case 'add':
      return add(doc, segs, op.path, cloneJson(op.value));
    case 'remove': {
      const r = remove(doc, segs, op.path);
      return r.ok ? { ok: true, value: r.value.undo } : r;
    }
    case 'replace': {
      if (segs.length === 0) return notFound(op.path, 'is the whole document; ops change parts of it');
      const parent = containerAt(doc, segs.slice(0, -1));
      const last = segs[segs.length - 1]!;
      if (!parent) return notFound(op.path);
      if (Array.isArray(parent)) {
        const i = arrayIndex(last);
        if (i < 0 || i >= parent.length) return notFound(op.path);
        const old = parent[i]!;
        parent[i] = cloneJson(op.value);
        return { ok: true, value: [{ op: 'replace', path: op.path, value: old }] };
      }
      if (!Object.hasOwn(parent, last)) return notFound(op.path, 'does not exist; use "add" to create it');
      const old = parent[last]!;
      parent[last] = cloneJson(op.value);
      return { ok: true, value: [{ op: 'replace', path: op.path, value: old }] };
    }
    case 'test': {
      const r = getAt(doc, segs);
      if (!r.found) return notFound(op.path);
      if (!jsonEqual(r.value, op.value)) {
        return { ok: false, error: { rule: 'test_failed', path: op.path, message: `test failed: the value at "${op.path}" is not ${JSON.stringify(op.value).slice(0, 200)}` } };
      }
      return { ok: true, value: [] };
    }
    case 'copy': {
      const src = getAt(doc, fromSegs!);
      if (!src.found) return notFound(op.from);
      return add(doc, segs, op.path, cloneJson(src.value as Json));
    }
    case 'move': {
      const fs = fromSegs!;
      if (isPrefix(fs, segs)) {
        return { ok: false, error: { rule: 'invalid_op', path: op.path, message: `cannot move "${op.from}" into its own child "${op.path}"` } };
      }
      if (op.from === op.path) {
        return getAt(doc, fs).found ? { ok: true, value: [] } : notFound(op.from);
      }
      const r = remove(doc, fs, op.from);
      if (!r.ok) return r;
      const a = add(doc, segs, op.path, r.value.value);
      if (!a.ok) {
        add(doc, fs, op.from, r.value.value); // put it back: the document stays unchanged
        return a;
      }
      // Undo: move it back (no value copied into the undo list), then restore what it overwrote.
      const first = a.value[0]!;
      const newPath = first.op === 'remove' ? first.path : op.path;
      const undo: Op[] = [{ op: 'move', from: newPath, path: op.from }];
      if (first.op === 'replace') undo.push({ op: 'add', path: op.path, value: first.value });
      return { ok: true, value: undo };
    }
  }
}

/** The ops that undo `op` on `doc`, in the order to apply them. `doc` ends unchanged. */
export function invertOp(doc: unknown, op: Op): Result<Op[], Problem> {
  const r = applyOp(doc, op);
  if (!r.ok) return r;
  const back = applyOpsUnchecked(doc, r.value);
  if (!back.ok) return { ok: false, error: { rule: 'invalid_op', path: op.path, message: back.error.message } };
  return r;
}

/** Parses pointers and applies one op. Returns its undo ops. */
export function applyOp(doc: unknown, op: Op): Result<Op[], Problem> {
  const p = parsePointer(op.path);
  if (!p.ok) return { ok: false, error: { rule: p.error.rule, path: op.path, message: p.error.message } };
  let f: string[] | null = null;
  if (op.op === 'move' || op.op === 'copy') {
    const fp = parsePointer(op.from);
    if (!fp.ok) return { ok: false, error: { rule: fp.error.rule, path: op.from, message: fp.error.message } };
    f = fp.value;
  }
  return applyParsed(doc, op, p.value, f);
}

/**
 * Applies already-validated ops (replay, applying inverses) without the pipeline's checks, except
 * pointer safety. Stops at the first failure; returns the undo ops of everything applied
 * (in undo order) or the failure with its index.
 */
export function applyOpsUnchecked(doc: unknown, ops: readonly Op[]): Result<Op[], { index: number; message: string; rule: Problem['rule'] }> {
  const undo: Op[][] = [];
  for (let i = 0; i < ops.length; i++) {
    const r = applyOp(doc, ops[i]!);
    if (!r.ok) return { ok: false, error: { index: i, message: r.error.message, rule: r.error.rule } };
    undo.push(r.value);
  }
  const out: Op[] = [];
  for (let i = undo.length - 1; i >= 0; i--) out.push(...undo[i]!);
  return { ok: true, value: out };
}

/**
 * Replay's apply: committed ops whose values the caller hands over (just parsed from the log and
 * kept by no one), so add/replace/remove copy nothing and build no inverse: the fold of a 100k-step
 * log in about half the time of applyOpsUnchecked (shared/store/bench/replay.bench.ts). Pointers
 * and lookups as everywhere (forbidden segments refused, own properties only). move, copy, test and
 * any op that does not apply here take the general path, which names the failure. Stops at the
 * first failure, with the ops before it applied (as applyOpsUnchecked).
 */
export function applyOwned(doc: unknown, ops: readonly Op[]): Result<true, { index: number; message: string }> {
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.op === 'add' || op.op === 'replace' || op.op === 'remove') {
      const p = parsePointer(op.path);
      if (p.ok && setOwned(doc, op, p.value)) continue;
    }
    const r = applyOp(doc, op);
    if (!r.ok) return { ok: false, error: { index: i, message: r.error.message } };
  }
  return { ok: true, value: true };
}

/** add / replace / remove in place, the value taken as is; false (nothing changed) where it does not apply. */
function setOwned(doc: unknown, op: Op & { op: 'add' | 'replace' | 'remove' }, segs: readonly string[]): boolean {
  const n = segs.length - 1;
  if (n < 0) return false;
  const parent = getAt(doc, segs, n).value; // the parent, without a slice per op
  if (parent === null || typeof parent !== 'object') return false;
  const last = segs[n]!;
  if (Array.isArray(parent)) {
    const k = op.op === 'add' && last === '-' ? parent.length : arrayIndex(last);
    if (k < 0 || k > parent.length || (op.op !== 'add' && k === parent.length)) return false;
    if (op.op === 'add') parent.splice(k, 0, op.value);
    else if (op.op === 'replace') parent[k] = op.value;
    else parent.splice(k, 1);
    return true;
  }
  const obj = parent as { [k: string]: Json };
  if (op.op === 'add') obj[last] = op.value;
  else if (!Object.hasOwn(obj, last)) return false;
  else if (op.op === 'replace') obj[last] = op.value;
  else delete obj[last];
  return true;
}
