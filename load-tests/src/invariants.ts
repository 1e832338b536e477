// RELIABILITY.md invariants I1–I5 over a recorded history and the log read back. Pure.
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';

/** What clients saw: invoked ops, acks (opId → version) and ops whose outcome is unknown. */
export interface History {
  invoked: Set<string>;
  acked: Map<string, number>;
  unknown: Set<string>;
}

export const newHistory = (): History => ({ invoked: new Set(), acked: new Map(), unknown: new Set() });

export interface LoggedStep { version: number; opId: string; ops: readonly unknown[] }

export interface Check { id: string; ok: boolean; detail: string }

/**
 * I1 every acked opId is logged once, at its acked version; I2 no opId twice; I3 versions 1..N;
 * I4 every logged op was invoked (ops whose opId matches `foreign` came from elsewhere, e.g. seeds
 * or Yjs edits, and are skipped). Unknown-outcome ops are allowed at most once (I2 covers it).
 */
export function checkLog(steps: readonly LoggedStep[], h: History, foreign: (opId: string) => boolean = () => false): Check[] {
  const byOp = new Map<string, number[]>();
  for (const s of steps) byOp.set(s.opId, [...(byOp.get(s.opId) ?? []), s.version]);
  const missing: string[] = [];
  const moved: string[] = [];
  for (const [opId, v] of h.acked) {
    const at = byOp.get(opId);
    if (!at) missing.push(opId);
    else if (!at.includes(v)) moved.push(`${opId}@${v}→${at.join(',')}`);
  }
  const dup = [...byOp].filter(([, vs]) => vs.length > 1).map(([k, vs]) => `${k}×${vs.length}`);
  let gap = '';
  steps.forEach((s, i) => { if (!gap && s.version !== i + 1) gap = `position ${i + 1} holds version ${s.version}`; });
  const uninvoked = [...byOp.keys()].filter((k) => !h.invoked.has(k) && !foreign(k));
  const first = (xs: string[]): string => xs.slice(0, 5).join(' ') + (xs.length > 5 ? ` …(+${xs.length - 5})` : '');
  return [
    { id: 'I1', ok: missing.length === 0 && moved.length === 0, detail: missing.length + moved.length === 0 ? `${h.acked.size} acked ops each in the log at their acked version` : `missing ${first(missing)} moved ${first(moved)}` },
    { id: 'I2', ok: dup.length === 0, detail: dup.length === 0 ? `${byOp.size} distinct opIds, none twice (${h.unknown.size} unknown-outcome ops)` : `duplicated ${first(dup)}` },
    { id: 'I3', ok: gap === '', detail: gap === '' ? `versions 1..${steps.length} gapless` : gap },
    { id: 'I4', ok: uninvoked.length === 0, detail: uninvoked.length === 0 ? 'every logged op was invoked' : `never invoked: ${first(uninvoked)}` },
  ];
}

/** The draft as the log says: the genesis draft with every step's ops applied in order. */
export function foldLog(genesis: unknown, steps: readonly LoggedStep[]): unknown {
  const doc = structuredClone(genesis);
  let cur: unknown = doc;
  for (const s of steps) cur = jsonpatch.applyPatch(cur, s.ops as Operation[], true, true).newDocument;
  return cur;
}

/** Deep equality of JSON values, key order ignored. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => jsonEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** I5: every view of the draft equals the fold of the log. */
export function checkViews(fold: unknown, views: Readonly<Record<string, unknown>>): Check {
  const bad = Object.entries(views).filter(([, v]) => !jsonEqual(fold, v)).map(([k]) => k);
  return { id: 'I5', ok: bad.length === 0, detail: bad.length === 0 ? `fold(log) = ${Object.keys(views).join(' = ')}` : `differs from fold(log): ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ` …(+${bad.length - 5})` : ''}` };
}
