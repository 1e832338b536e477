// A step of the log in plain words for the activity feed and the versions list: "alice changed the
// Heading's text", "scripted-builder added the Features section (6 components), 1 repaired,
// 1 refused". Pure: the step and the draft (to name components by their kind).
import type { Draft, Op } from '@weft/core';

export interface StepLike {
  version: number;
  actor: string;
  actorKind?: string;
  turnId?: string | null;
  ops: readonly Op[];
  notes?: readonly unknown[];
  refused?: readonly unknown[];
}

const unescape = (seg: string): string => seg.replace(/~1/g, '/').replace(/~0/g, '~');
const segsOf = (p: string): string[] => (p === '' ? [] : p.split('/').slice(1).map(unescape));
const title = (id: string): string => id.replace(/[-_]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Catalog names, to name a component that is gone by its id ("badge-1" → "Badge"). */
let kindNames: readonly string[] = [];
export function setKindNames(names: readonly string[]): void {
  kindNames = names;
}

/** The kind of a component ("Heading"), from the op's value or the draft, else guessed from its id. */
function kindOf(d: Draft | null, sid: string, cid: string, value?: unknown): string {
  const v = value as { component?: unknown } | undefined;
  if (v && typeof v.component === 'string') return v.component;
  const c = d?.sections[sid]?.components[cid];
  if (c) return c.component;
  const stem = cid.replace(/-\d+$/, '');
  return kindNames.find((n) => n.toLowerCase() === stem) ?? cid;
}

/** One clause per op. */
function clause(op: Op, d: Draft | null): { key: string; text: string } {
  const s = segsOf(op.path);
  if (s[0] === 'title') return { key: 'title', text: 'renamed the page' };
  if (s[0] === 'order') return { key: 'order', text: 'reordered the sections' };
  if (s[0] !== 'sections' || s[1] === undefined) return { key: op.path, text: `changed ${op.path || 'the draft'}` };
  const sid = s[1];
  if (s.length === 2) {
    const n = op.op === 'add' || op.op === 'replace' ? Object.keys(((op.value ?? {}) as { components?: object }).components ?? {}).length : 0;
    if (op.op === 'add') return { key: `add:${sid}`, text: `added the ${title(sid)} section${n ? ` (${plural(n, 'component')})` : ''}` };
    if (op.op === 'remove') return { key: `rm:${sid}`, text: `deleted the ${title(sid)} section` };
    return { key: `set:${sid}`, text: `rewrote the ${title(sid)} section` };
  }
  if (s[2] === 'data') return { key: `data:${sid}`, text: `changed the data of ${title(sid)}` };
  if (s[2] === 'style') return { key: `style:${sid}`, text: `restyled ${title(sid)}` };
  if (s[2] !== 'components' || s[3] === undefined) return { key: `sec:${sid}`, text: `changed ${title(sid)}` };
  const cid = s[3];
  const kind = kindOf(d, sid, cid, op.op === 'add' ? op.value : undefined);
  if (s.length === 4) {
    if (op.op === 'add') return { key: 'add-comp', text: `added a ${kind}` };
    if (op.op === 'remove') return { key: 'rm-comp', text: `deleted a ${kind}` };
    return { key: `set:${sid}/${cid}`, text: `rewrote the ${kind}` };
  }
  if (s[4] === 'children') {
    if (op.op === 'move') return { key: `move:${sid}/${cid}`, text: `moved a component in the ${kind}` };
    return { key: `kids:${sid}/${cid}`, text: `rearranged the ${kind}` };
  }
  if (s[4] === 'props') return { key: `props:${sid}/${cid}/${s[5] ?? ''}`, text: s[5] ? `changed the ${kind}'s ${s[5]}` : `changed the ${kind}` };
  if (s[4] === 'visible') return { key: `vis:${sid}/${cid}`, text: `changed when the ${kind} shows` };
  return { key: `comp:${sid}/${cid}`, text: `changed the ${kind}` };
}

/** "changed the Heading's text", "added 3 components and moved a component in the Grid". */
export function describeOps(ops: readonly Op[], d: Draft | null): string {
  const parts = new Map<string, { text: string; n: number }>();
  for (const op of ops) {
    const c = clause(op, d);
    const cur = parts.get(c.key);
    if (cur) cur.n++;
    else parts.set(c.key, { text: c.text, n: 1 });
  }
  // Links of what the step adds are part of adding it (one "added" says it).
  const adds = parts.get('add-comp');
  if (adds && adds.n > 1) adds.text = `added ${adds.n} components`;
  const rms = parts.get('rm-comp');
  if (rms && rms.n > 1) rms.text = `deleted ${rms.n} components`;
  if (adds || rms || [...parts.keys()].some((k) => k.startsWith('add:') || k.startsWith('rm:'))) {
    for (const k of [...parts.keys()]) if (k.startsWith('kids:') || (k === 'order' && parts.size > 1)) parts.delete(k);
  }
  const list = [...parts.values()].map((p) => p.text);
  if (list.length === 0) return 'changed nothing';
  if (list.length <= 2) return list.join(' and ');
  return `${list.slice(0, 2).join(', ')} and ${plural(list.length - 2, 'more change')}`;
}

/** The feed's sentence for a step, with its repairs and refusals counted. */
export function describeStep(step: StepLike, d: Draft | null): string {
  const extra: string[] = [];
  if (step.notes?.length) extra.push(`${step.notes.length} repaired`);
  if (step.refused?.length) extra.push(`${step.refused.length} refused`);
  const what = step.ops.length === 0 && step.refused?.length ? 'tried a change' : describeOps(step.ops, d);
  return `${what}${extra.length ? ` — ${extra.join(', ')}` : ''}`;
}
