// The op pipeline (RFC §6): shape → pointer safety → policy → repair → apply to the mutable
// draft → validate only what the op touched → keep, hold, or undo and refuse. Mutates in place.
import { applyOpsUnchecked, applyParsed } from './apply.ts';
import { defaultCatalog } from './catalog/catalog.ts';
import type { Catalog } from './catalog/types.ts';
import { checkCondition } from './conditions.ts';
import type { Draft, Op } from './draft.ts';
import { refusalOf } from './errors.ts';
import type { Note, Refusal } from './errors.ts';
import { sanitizeJson } from './json.ts';
import { HOLDABLE_RULES, checkComponentShape, checkData, checkOrder, checkSectionShell, checkSurfaceTree, componentPath, validateSurface } from './invariants.ts';
import { isValidId, Limits } from './limits.ts';
import { parsePointer } from './pointer.ts';
import type { Problem } from './problem.ts';
import { repairOp } from './repair.ts';
import type { PreparedOp } from './repair.ts';
import { keepable } from './text.ts';

export interface StepOptions {
  /** Called per op after the shape and pointer checks; a Refusal refuses the op. */
  policy?: (op: Op, index: number) => Refusal | null;
  catalog?: Catalog;
  /** Ops held at once waiting for a later op (default 3). */
  maxHeld?: number;
}

export interface StepResult {
  /** Ops as applied (after repair), in application order. */
  applied: Op[];
  /** Ops that, applied in order, restore the draft as it was before the step. */
  inverse: Op[];
  notes: Note[];
  refused: Refusal[];
}

const OP_NAMES = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** A refusal echoes the op's path: refused text the log cannot keep is echoed as U+FFFD. */
function refusal(p: Problem, index: number): Refusal {
  return refusalOf(p.rule, keepable(p.path), keepable(p.message), index);
}

/** RFC 6902 shape check plus value limits; returns a clean copy of the op. */
function bad(message: string, path = ''): { ok: false; error: Problem } {
  return { ok: false, error: { rule: 'invalid_op', path, message } };
}

export function checkOpShape(raw: unknown): { ok: true; op: Op } | { ok: false; error: Problem } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return bad('an op must be an object like {"op":"replace","path":"/title","value":"Hi"}');
  const o = raw as Record<string, unknown>;
  const name = o['op'];
  if (typeof name !== 'string' || !OP_NAMES.has(name)) return bad(`"op" must be one of add, remove, replace, move, copy, test; got ${JSON.stringify(name)?.slice(0, 40)}`);
  const path = o['path'];
  if (typeof path !== 'string') return bad(`"${name}" needs a string "path" (a JSON Pointer like "/sections/hero/components/root")`);
  if (path.length > 2048) return { ok: false, error: { rule: 'value_too_large', path: '', message: 'path is longer than 2048 chars' } };
  if (name === 'move' || name === 'copy') {
    const from = o['from'];
    if (typeof from !== 'string') return bad(`"${name}" needs a string "from" pointer`, path);
    if (from.length > 2048) return { ok: false, error: { rule: 'value_too_large', path, message: 'from is longer than 2048 chars' } };
    return { ok: true, op: { op: name, from, path } };
  }
  if (name === 'remove') return { ok: true, op: { op: 'remove', path } };
  if (!Object.hasOwn(o, 'value') || o['value'] === undefined) return bad(`"${name}" needs a "value"`, path);
  const v = sanitizeJson(o['value']);
  if (!v.ok) return { ok: false, error: { rule: v.error.rule, path: path + v.error.at, message: v.error.message } };
  // Size: only values of some bulk need the exact measure.
  const value = v.value;
  if (value !== null && typeof value === 'object' || typeof value === 'string' && value.length > 1024) {
    const n = JSON.stringify(value).length + path.length;
    if (n > Limits.maxOpBytes) return { ok: false, error: { rule: 'value_too_large', path, message: `the op is ${n} bytes of JSON, more than ${Limits.maxOpBytes}; split it into smaller ops` } };
  }
  return { ok: true, op: { op: name as 'add' | 'replace' | 'test', path, value } };
}

type Check = { k: 'title' } | { k: 'order' } | { k: 'all' } | { k: 'section'; sid: string } | { k: 'shell'; sid: string } | { k: 'data'; sid: string }
  | { k: 'tree'; sid: string } | { k: 'component'; sid: string; cid: string } | { k: 'props'; sid: string; cid: string } | { k: 'visible'; sid: string; cid: string };

/** What must be re-checked after an op at `segs`. null = the path is outside the draft model. */
function checksFor(segs: readonly string[], out: Check[]): Problem | null {
  const top = segs[0];
  if (top === 'title') {
    if (segs.length !== 1) return { rule: 'path_not_found', path: '/title', message: 'title is a string; use /title' };
    out.push({ k: 'title' });
    return null;
  }
  if (top === 'order') {
    out.push({ k: 'order' });
    return null;
  }
  if (top !== 'sections') return { rule: 'path_not_found', path: segs.length ? '/' + segs[0] : '', message: 'the draft has /title, /order and /sections/<id>/…; other paths cannot be changed' };
  if (segs.length === 1) {
    out.push({ k: 'all' });
    return null;
  }
  const sid = segs[1]!;
  if (segs.length === 2) {
    out.push({ k: 'section', sid });
    return null;
  }
  const field = segs[2];
  if (field === 'data') {
    out.push(segs.length === 3 ? { k: 'shell', sid } : { k: 'data', sid });
    if (segs.length === 3) out.push({ k: 'data', sid });
    return null;
  }
  if (field !== 'components') {
    out.push({ k: 'shell', sid });
    return null;
  }
  if (segs.length === 3) {
    out.push({ k: 'section', sid });
    return null;
  }
  const cid = segs[3]!;
  if (segs.length === 4) {
    out.push({ k: 'component', sid, cid }, { k: 'tree', sid });
    return null;
  }
  const cf = segs[4];
  if (cf === 'props') out.push({ k: 'props', sid, cid });
  else if (cf === 'visible') out.push({ k: 'visible', sid, cid });
  else if (cf === 'children') out.push({ k: 'tree', sid });
  else out.push({ k: 'component', sid, cid }, { k: 'tree', sid });
  return null;
}

function pushIf(out: Problem[], p: Problem | null): void {
  if (p) out.push(p);
}

function runCheck(d: Draft, c: Check, catalog: Catalog, out: Problem[]): void {
  switch (c.k) {
    case 'title':
      if (typeof d.title !== 'string') out.push({ rule: 'invalid_op', path: '/title', message: 'title must be a string' });
      else if (d.title.length > Limits.maxTitle) out.push({ rule: 'value_too_large', path: '/title', message: `title is longer than ${Limits.maxTitle} chars` });
      return;
    case 'order':
      return pushIf(out, checkOrder(d));
    case 'all': {
      if (d.sections === null || typeof d.sections !== 'object' || Array.isArray(d.sections)) {
        out.push({ rule: 'invalid_section', path: '/sections', message: 'sections must be an object keyed by section id' });
        return;
      }
      pushIf(out, checkOrder(d));
      for (const sid of Object.keys(d.sections)) out.push(...validateSurface(d.sections[sid], sid, catalog).problems);
      return;
    }
    case 'section': {
      pushIf(out, checkOrder(d));
      if (Object.hasOwn(d.sections, c.sid)) out.push(...validateSurface(d.sections[c.sid], c.sid, catalog).problems);
      return;
    }
  }
  if (!Object.hasOwn(d.sections, c.sid)) return; // removed in the same step; order check covers it
  const s = d.sections[c.sid]!;
  switch (c.k) {
    case 'shell':
      return pushIf(out, checkSectionShell(s, c.sid, catalog));
    case 'data':
      return pushIf(out, checkData(s, c.sid));
    case 'tree':
      out.push(...checkSurfaceTree(s, c.sid, catalog));
      return;
    case 'component':
    case 'props':
    case 'visible': {
      if (!Object.hasOwn(s.components, c.cid)) return; // removed: the tree check covers it
      const comp = s.components[c.cid]!;
      if (c.k === 'visible') return pushIf(out, comp.visible === undefined ? null : checkCondition(comp.visible, `${componentPath(c.sid, c.cid)}/visible`));
      if (c.k === 'component') {
        const shape = checkComponentShape(comp, c.cid, c.sid);
        if (shape) return pushIf(out, shape);
      }
      return pushIf(out, catalog.checkProps(comp.component, comp.props ?? {}, `${componentPath(c.sid, c.cid)}/props`));
    }
  }
}

interface Prepared {
  index: number;
  ops: PreparedOp[];
  notes: Problem[];
  /** Parts of its value left out and refused on their own (the op is applied without them). */
  left: Problem[];
  sids: string[];
  /** Why it was held. */
  held?: Problem;
}

interface Attempt {
  ok: boolean;
  /** Undo ops per applied op (kept on success). */
  undo: Op[][];
  problems: Problem[];
}

function undoAll(d: Draft, undo: Op[][]): void {
  for (let i = undo.length - 1; i >= 0; i--) {
    const u = undo[i]!;
    for (const op of u) {
      const segs = parsePointer(op.path);
      const from = op.op === 'move' ? parsePointer(op.from) : null;
      // Undo ops were computed from this very state: failure here is a bug.
      const r = applyParsed(d, op, segs.ok ? segs.value : [], from && from.ok ? from.value : null);
      if (!r.ok) throw new Error(`undo failed: ${r.error.message}`);
    }
  }
}

/** Applies one prepared op's ops, noting what to re-check; a problem means nothing of it stays applied. */
function applyPrepared(d: Draft, p: Prepared, undo: Op[][], checks: Check[]): Problem | null {
  const mark = undo.length;
  for (const po of p.ops) {
    const scope = checksFor(po.segs, checks) ?? (po.from ? checksFor(po.from, checks) : null);
    const problem = scope ?? missingSection(d, po) ?? (po.op.op === 'add' && isNewEntity(d, po.segs) ? duplicate(po) : null);
    const r = problem ? null : applyParsed(d, po.op, po.segs, po.from);
    if (problem || !r!.ok) {
      undoAll(d, undo.splice(mark));
      return problem ?? (r as { ok: false; error: Problem }).error;
    }
    undo.push(r!.value);
  }
  return null;
}

/** Runs each distinct check once. */
function validate(d: Draft, checks: readonly Check[], catalog: Catalog): Problem[] {
  const problems: Problem[] = [];
  if (checks.length === 1) {
    runCheck(d, checks[0]!, catalog, problems);
    return problems;
  }
  const seen = new Set<string>();
  for (const c of checks) {
    const key = JSON.stringify(c);
    if (seen.has(key)) continue;
    seen.add(key);
    runCheck(d, c, catalog, problems);
  }
  return problems;
}

/** Applies the ops of `group` in order, validates what they touched; undoes all on failure. */
function attempt(d: Draft, group: readonly Prepared[], catalog: Catalog): Attempt {
  const undo: Op[][] = [];
  try {
    return attemptIn(d, group, catalog, undo);
  } catch (e) {
    undoAll(d, undo); // a check that throws must not leave this group half-applied
    throw e;
  }
}

function attemptIn(d: Draft, group: readonly Prepared[], catalog: Catalog, undo: Op[][]): Attempt {
  const checks: Check[] = [];
  for (const p of group) {
    const problem = applyPrepared(d, p, undo, checks);
    if (problem) {
      undoAll(d, undo);
      return { ok: false, undo: [], problems: [problem] };
    }
  }
  const problems = validate(d, checks, catalog);
  if (problems.length > 0) {
    undoAll(d, undo);
    return { ok: false, undo: [], problems };
  }
  return { ok: true, undo, problems };
}

/** `add` of a whole section or component whose id is taken is refused, not an overwrite. */
function isNewEntity(d: Draft, segs: readonly string[]): boolean {
  if (segs[0] !== 'sections') return false;
  if (segs.length === 2) return Object.hasOwn(d.sections, segs[1]!);
  if (segs.length === 4 && segs[2] === 'components') {
    const s = Object.hasOwn(d.sections, segs[1]!) ? d.sections[segs[1]!] : undefined;
    return s !== undefined && s.components !== null && typeof s.components === 'object' && Object.hasOwn(s.components, segs[3]!);
  }
  return false;
}

/** A write into a section that is not there yet: it may come in a later op (held, RFC "Held
 *  steps"), unlike a missing component, whose add is what the write would be. */
function missingSection(d: Draft, po: PreparedOp): Problem | null {
  const segs = po.segs;
  if (segs[0] !== 'sections' || segs.length < 3 || po.op.op === 'remove' || po.op.op === 'test') return null;
  if (d.sections === null || typeof d.sections !== 'object' || Object.hasOwn(d.sections, segs[1]!)) return null;
  // Not an id at all (`/sections//b`): no later op can add that section, so nothing to wait for.
  if (!isValidId(segs[1])) return { rule: 'invalid_id', path: po.op.path, message: `${JSON.stringify(segs[1])} is not a section id: ids match [a-z][a-z0-9-]{0,40}` };
  return { rule: 'missing_section', path: po.op.path, message: `section "${segs[1]}" does not exist; add /sections/${segs[1]} (with its root) in the same step or before this op` };
}

function duplicate(po: PreparedOp): Problem {
  const what = po.segs.length === 2 ? 'section' : 'component';
  return { rule: 'duplicate_id', path: po.op.path, message: `${what} "${po.segs[po.segs.length - 1]}" already exists; use "replace" to change it, or pick another id` };
}

interface Acc {
  applied: Op[];
  undoStack: Op[][];
  notes: Note[];
  refused: Refusal[];
}
function commit(acc: Acc, group: readonly Prepared[], a: Attempt): void {
  for (const p of group) {
    for (const po of p.ops) acc.applied.push(po.op);
    for (const n of p.notes) acc.notes.push({ rule: n.rule, path: n.path, message: n.message, index: p.index });
    for (const l of p.left) acc.refused.push(refusal(l, p.index));
  }
  for (const u of a.undo) acc.undoStack.push(u);
}

const isHoldable = (a: Attempt): boolean => a.problems.length > 0 && a.problems.every((p) => HOLDABLE_RULES.has(p.rule));

type Policy = (op: Op, index: number) => Refusal | null;

/** Shape, pointers, policy and repair of one raw op against the draft as it is now. */
function prepare(draft: Draft, raw: unknown, index: number, catalog: Catalog, policy: Policy | undefined): { ok: true; p: Prepared } | { ok: false; refusal: Refusal } {
  const shape = checkOpShape(raw);
  if (!shape.ok) return { ok: false, refusal: refusal(shape.error, index) };
  const op = shape.op;
  const p = parsePointer(op.path);
  if (!p.ok) return { ok: false, refusal: refusal({ rule: p.error.rule, path: op.path, message: p.error.message }, index) };
  let from: string[] | null = null;
  if (op.op === 'move' || op.op === 'copy') {
    const fp = parsePointer(op.from);
    if (!fp.ok) return { ok: false, refusal: refusal({ rule: fp.error.rule, path: op.from, message: fp.error.message }, index) };
    from = fp.value;
  }
  const denied = policy?.(op, index);
  if (denied) return { ok: false, refusal: { ...denied, index } };
  const rep = repairOp(draft, op, p.value, from, catalog);
  if (!rep.ok) return { ok: false, refusal: refusal(rep.error, index) };
  const sids: string[] = [];
  for (const po of rep.ops) {
    if (po.segs[0] === 'sections' && po.segs[1] !== undefined) sids.push(po.segs[1]);
    if (po.from?.[0] === 'sections' && po.from[1] !== undefined) sids.push(po.from[1]);
  }
  return { ok: true, p: { index, ops: rep.ops, notes: rep.notes, left: rep.left, sids } };
}

/** What an op of a whole step may leave for a later op of it to put right: links, and props
 *  (a type change then its props). Anything else refuses the whole-step try at once, so repairs
 *  of later ops only ever read a draft of sound shape. */
const DEFERRABLE: ReadonlySet<string> = new Set([...HOLDABLE_RULES, 'invalid_props']);

/**
 * The whole step as one: each op repaired against the draft with the ops before it applied, then
 * everything they touched validated once more at the end (the prompt says a step's ops are
 * applied together, so a card, its children and the link to it may come in any order). null,
 * with the draft as it was, when any op fails; the step is then taken op by op.
 */
function applyWhole(draft: Draft, ops: readonly unknown[], catalog: Catalog, policy: Policy | undefined): StepResult | null {
  const undo: Op[][] = [];
  const checks: Check[] = [];
  const group: Prepared[] = [];
  const fail = (): null => {
    undoAll(draft, undo);
    return null;
  };
  for (let index = 0; index < ops.length; index++) {
    const prep = prepare(draft, ops[index], index, catalog, policy);
    if (!prep.ok) return fail();
    const own: Check[] = [];
    if (applyPrepared(draft, prep.p, undo, own)) return fail();
    if (validate(draft, own, catalog).some((p) => !DEFERRABLE.has(p.rule))) return fail();
    checks.push(...own);
    group.push(prep.p);
  }
  if (validate(draft, checks, catalog).length > 0) return fail();
  const acc: Acc = { applied: [], undoStack: [], notes: [], refused: [] };
  commit(acc, group, { ok: true, undo, problems: [] });
  const inverse: Op[] = [];
  for (let i = acc.undoStack.length - 1; i >= 0; i--) inverse.push(...acc.undoStack[i]!);
  return { applied: acc.applied, inverse, notes: acc.notes, refused: acc.refused };
}

/** The order a held group is tried in: held ops first (cur completes them), except those that
 *  wait for their section, which go after cur (cur may be the section). */
function around(held: readonly Prepared[], cur: Prepared): Prepared[] {
  const late = held.filter((h) => h.held?.rule === 'missing_section');
  return late.length === 0 ? [...held, cur] : [...held.filter((h) => !late.includes(h)), cur, ...late];
}

/** Held ops wait in chains, one per surface: the cap counts chains, not the ops of one chain. */
const chainOf = (p: Prepared): string => p.sids[0] ?? '';

/** A held op whose own path a problem points into is what spoils the group: try without it. */
function spoilers(group: readonly Prepared[], problems: readonly Problem[]): Set<Prepared> {
  const out = new Set<Prepared>();
  for (const h of group) {
    if (h.ops.some((po) => problems.some((x) => x.path === po.op.path || x.path.startsWith(`${po.op.path}/`)))) out.add(h);
  }
  return out;
}

/**
 * Validates, repairs and applies a step of ops to `draft` IN PLACE. Refused ops are not applied;
 * the applied ones form the step. See SPEC.md (PL rules).
 */
export function applyStep(draft: Draft, ops: unknown[], opts: StepOptions = {}): StepResult {
  const catalog = opts.catalog ?? defaultCatalog;
  const maxHeld = opts.maxHeld ?? Limits.maxHeld;
  const applied: Op[] = [];
  const undoStack: Op[][] = [];
  const notes: Note[] = [];
  const refused: Refusal[] = [];
  const acc: Acc = { applied, undoStack, notes, refused };

  if (!Array.isArray(ops)) {
    refused.push(refusalOf('invalid_op', '', 'a step is an array of ops', 0));
    return { applied, inverse: [], notes, refused };
  }
  // The policy is asked once per op, though the whole-step try prepares an op a second time.
  const given = opts.policy;
  const asked = given ? new Map<number, Refusal | null>() : null;
  const policy: Policy | undefined = given && asked ? (op, i) => (asked.has(i) ? asked.get(i)! : asked.set(i, given(op, i)).get(i)!) : undefined;

  // Transactional on the mirror: if anything throws mid-step, the ops this step already applied
  // are undone before the error surfaces, so the draft is as it was (all of a step or none).
  try {
    stepOps(draft, ops, catalog, maxHeld, policy, acc);
  } catch (e) {
    undoAll(draft, undoStack);
    throw e;
  }
  refused.sort((a, b) => a.index - b.index);
  const inverse: Op[] = [];
  for (let i = undoStack.length - 1; i >= 0; i--) inverse.push(...undoStack[i]!);
  const byOp: StepResult = { applied, inverse, notes, refused };
  // Op by op refused what the whole step might put right (links, a type change then its props):
  // try it as one (applyWhole takes itself back on failure); keep that if it passes, else the
  // op-by-op result (re-applied as it was).
  if (ops.length > 1 && maxHeld > 0 && wholeMayHelp(refused, ops)) {
    applyOpsUnchecked(draft, inverse);
    const whole = applyWhole(draft, ops, catalog, policy);
    if (whole) return whole;
    applyOpsUnchecked(draft, applied);
  }
  return byOp;
}

/** The op loop of applyStep (held ops wait here for a later op of the same step). */
function stepOps(draft: Draft, ops: unknown[], catalog: Catalog, maxHeld: number, policy: Policy | undefined, acc: Acc): void {
  const { refused } = acc;
  let held: Prepared[] = [];
  for (let index = 0; index < ops.length; index++) {
    const prep = prepare(draft, ops[index], index, catalog, policy);
    if (!prep.ok) {
      refused.push(prep.refusal);
      continue;
    }
    const cur = prep.p;
    const sids = cur.sids;

    let groupAttempt: Attempt | null = null;
    if (held.length > 0) {
      let related = held.filter((h) => h.sids.some((s) => sids.includes(s)));
      if (related.length > 0) {
        groupAttempt = attempt(draft, around(related, cur), catalog);
        if (!groupAttempt.ok) {
          // Once more without the held ops the problems point at (they wait for something else).
          const spoil = spoilers(related, groupAttempt.problems);
          if (spoil.size > 0 && spoil.size < related.length) {
            const fewer = related.filter((h) => !spoil.has(h));
            const again = attempt(draft, around(fewer, cur), catalog);
            if (again.ok) {
              related = fewer;
              groupAttempt = again;
            }
          }
        }
        if (groupAttempt.ok) {
          commit(acc, around(related, cur), groupAttempt);
          held = held.filter((h) => !related.includes(h));
          continue;
        }
      }
    }
    const alone = attempt(draft, [cur], catalog);
    if (alone.ok) {
      commit(acc, [cur], alone);
      // A held op may have waited for exactly this one.
      if (held.length > 0) for (const h of [...held]) {
        const a = attempt(draft, [h], catalog);
        if (a.ok) {
          commit(acc, [h], a);
          held = held.filter((x) => x !== h);
        }
      }
      continue;
    }
    const waiting = isHoldable(alone) || (groupAttempt !== null && isHoldable(groupAttempt));
    const why = isHoldable(alone) ? alone.problems[0]! : groupAttempt && isHoldable(groupAttempt) ? groupAttempt.problems[0]! : alone.problems[0]!;
    const chains = new Set(held.map(chainOf));
    const room = held.length < Limits.maxHeldOps && (chains.has(chainOf(cur)) ? chains.size <= maxHeld : chains.size < maxHeld);
    if (waiting && room && maxHeld > 0) {
      cur.held = why;
      held.push(cur);
      continue;
    }
    const first = alone.problems.find((x) => !HOLDABLE_RULES.has(x.rule)) ?? why;
    refused.push(refusal(waiting ? { ...first, message: `${first.message} (not held: ${maxHeld} surfaces are already waiting for later ops)` } : first, index));
  }
  for (const h of held) {
    const p = h.held!;
    refused.push(refusal({ ...p, message: `${p.message} (this op was held waiting for a later op in the step, and none completed it)` }, h.index));
  }
}

/** Whether a refusal could be the order of the step's ops: a link that waited in vain, or props
 *  refused on a component another op of the step also changes. Clean steps never pay twice. */
function wholeMayHelp(refused: readonly Refusal[], ops: readonly unknown[]): boolean {
  return refused.some((r) => {
    if (HOLDABLE_RULES.has(r.rule)) return true;
    const m = r.rule === 'invalid_props' ? /^\/sections\/[^/]+\/components\/[^/]+/.exec(r.path) : null;
    if (!m) return false;
    let n = 0;
    for (const o of ops) {
      const p = o !== null && typeof o === 'object' ? (o as { path?: unknown }).path : undefined;
      if (typeof p === 'string' && (p === m[0] || p.startsWith(`${m[0]}/`))) n++;
    }
    return n > 1;
  });
}
