// `weft submit` input → the steps to submit, in order. Accepted: a JSON array of ops (one step),
// a JSON step {"opId"?, "ops": […], "turnId"?, "baseVersion"?}, or JSON Lines — every line an op
// (one step) or every line a step (each submitted in order). Errors name the line.

import { readOpsField } from '@weft/protocol';

export interface InputStep { opId?: string; ops: unknown[]; turnId?: string; baseVersion?: number }
export type StepsResult = { ok: true; steps: InputStep[] } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
// {"ops": {one op}} is a step of one op, as the server reads it (readOpsField).
const isStep = (v: unknown): v is Record<string, unknown> => isObject(v) && readOpsField(v['ops']) !== null;
const isOp = (v: unknown): boolean => isObject(v) && typeof v['op'] === 'string';

function toStep(v: Record<string, unknown>, where: string): InputStep | string {
  const s: InputStep = { ops: readOpsField(v['ops'])! };
  for (const [k, x] of Object.entries(v)) {
    if (k === 'ops') continue;
    if ((k === 'opId' || k === 'turnId') && typeof x === 'string') s[k] = x;
    else if (k === 'baseVersion' && Number.isSafeInteger(x)) s.baseVersion = x as number;
    else return `${where}: unexpected field "${k}" (a step has opId, ops, turnId, baseVersion)`;
  }
  return s;
}

export function parseOpsInput(text: string): StepsResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'no input: give ops as JSON or JSON Lines (--file <path>, or on stdin)' };
  let whole: unknown;
  let isJson = true;
  try {
    whole = JSON.parse(trimmed);
  } catch {
    isJson = false;
  }
  if (isJson) {
    if (Array.isArray(whole)) {
      const bad = whole.findIndex((x) => !isOp(x));
      return bad >= 0 ? { ok: false, message: `item ${bad}: not a JSON Patch op ({"op": …, "path": …})` } : { ok: true, steps: [{ ops: whole }] };
    }
    if (isStep(whole)) {
      const s = toStep(whole, 'the step');
      return typeof s === 'string' ? { ok: false, message: s } : { ok: true, steps: [s] };
    }
    if (isOp(whole)) return { ok: true, steps: [{ ops: [whole] }] };
    return { ok: false, message: 'expected a JSON array of ops, a step {"ops": […]}, or JSON Lines' };
  }
  const lines = text.split('\n').map((l, i) => ({ n: i + 1, l: l.trim() })).filter((x) => x.l !== '');
  const values: { n: number; v: unknown }[] = [];
  for (const { n, l } of lines) {
    try {
      values.push({ n, v: JSON.parse(l) });
    } catch (e) {
      return { ok: false, message: `line ${n}: not JSON (${(e as Error).message})` };
    }
  }
  if (values.every(({ v }) => isOp(v))) return { ok: true, steps: [{ ops: values.map(({ v }) => v) }] };
  const steps: InputStep[] = [];
  for (const { n, v } of values) {
    if (!isStep(v)) return { ok: false, message: `line ${n}: ${isOp(v) ? 'an op among steps: use one form per input (all ops, or all steps)' : 'neither an op nor a step {"ops": […]}'}` };
    const s = toStep(v, `line ${n}`);
    if (typeof s === 'string') return { ok: false, message: s };
    steps.push(s);
  }
  return { ok: true, steps };
}
