// The model-driven builder (RFC 000 "Build"): brief → model → JSON Lines steps (tolerant reader,
// read as the answer streams) → the pipeline through a BuildTransport, as one turn. A step that
// only waits for something a later step adds (root, a child), or for a step already held, is
// held (chains of steps for at most 3 surfaces) and written with the step that completes it;
// what still waits at the end of a round is sent and refused.
// Emission defects (and objects that could not be read) go back to the model for at most
// `maxFeedbackRounds` rounds; contract violations are final (docs/errors.md "Kind"): asking until
// the model behaves would hide what it cannot do. Budgets are enforced.
import { randomUUID } from 'node:crypto';
import { HOLDABLE_RULES, applyOpsUnchecked, applyStep, readingOrder, ruleKind } from '@weft/core';
import type { Draft, Note, Refusal, RefusalKind } from '@weft/core';
import { StepReader } from '@weft/interop';
import type { ChatMessage, Complete } from './model-client.ts';
import type { BuildTransport } from './transport.ts';

export type StepStatus = 'applied' | 'repaired' | 'refused' | 'unreadable' | 'over-budget';
export interface StepRecord {
  round: number;
  ops: unknown[];
  status: StepStatus;
  /** Held before it was written (waited for a later step). */
  held: boolean;
  repairs: Note[];
  refused: Refusal[];
  /** For unreadable objects: the reader's message. */
  message?: string;
}
export interface BuildReport {
  turnId: string;
  rounds: number;
  steps: StepRecord[];
  said: string[];
  opsUsed: number;
  /** Steps written as sent after repairs / all steps the model sent. */
  acceptance: number;
  stoppedBy: 'done' | 'rounds' | 'budget' | 'steps';
  /** The door's summary of the finished turn (RUN_FINISHED), null if it had none. */
  finished: Record<string, number> | null;
}
export interface BuildOptions {
  brief: string;
  transport: BuildTransport;
  complete: Complete;
  systemPrompt: string;
  maxFeedbackRounds?: number;
  /** Surfaces with held steps at once (default 3); one surface's steps wait as one chain. */
  maxHeld?: number;
  /** Ops per turn (default: the door's budget, else 500 as in the RFC). */
  opsPerTurn?: number;
  /** Steps per turn, all rounds together. */
  maxSteps?: number;
  turnId?: string;
  onStep?: (s: StepRecord) => void;
}

/** A step waiting for a later one, with why it waits (its refusals in the last dry run). */
interface Pending { rec: StepRecord; why: Refusal[] }

/** A compact view of the draft for the model: sections and component ids in reading order (the
 *  order `/components/<n>` counts in), not whole props. */
export function draftSummary(d: Draft): string {
  if (d.order.length === 0) return 'The draft is empty.';
  return d.order.map((sid) => {
    const s = Object.hasOwn(d.sections, sid) ? d.sections[sid] : undefined;
    if (!s) return `- ${sid}: (missing)`;
    return `- /sections/${sid}: ${readingOrder(s).map((id) => `${id}:${s.components[id]!.component}`).join(', ')}`;
  }).join('\n');
}

const MAX_REPAIR_LINES = 8;

/** A refusal's kind; a door from before `kind` existed sends only the rule. */
const kindOf = (r: Refusal): RefusalKind => r.kind ?? ruleKind(r.rule) ?? 'emission';
/** Whether a step goes back to the model: unreadable, or refused for an emission defect. */
export const askAgain = (s: StepRecord): boolean => s.status === 'unreadable' || (s.status === 'refused' && s.refused.some((r) => kindOf(r) === 'emission'));

/** What goes back to the model after a round: each emission defect with its pointer, rule and fix
 *  to write again, the contract violations as final, and (briefly) the repairs made, so its next
 *  steps are written right. */
export function feedback(refused: StepRecord[], repaired: StepRecord[] = []): string {
  const fix = refused.slice(0, 20).flatMap((s) => s.status === 'unreadable'
    ? [`- an object you sent could not be read: ${s.message ?? ''}`]
    : s.refused.filter((r) => kindOf(r) === 'emission').map((r) => `- ${r.path} (${r.rule}): ${r.message}`));
  const final = refused.flatMap((s) => s.refused.filter((r) => kindOf(r) === 'contract')).slice(0, 20).map((r) => `- ${r.path} (${r.rule}): ${r.message}`);
  const lines = final.length > 0 ? [...fix, `Refused as breaking the catalog or a rule (final; do not send them again as they were):`, ...final] : fix;
  // Order kept in step with sections is what the prompt promises, not a mistake to point out.
  const notes = repaired.flatMap((s) => s.repairs).filter((n) => !(n.rule === 'rewrote_path' && n.path.startsWith('/order')));
  const fixed = notes.slice(0, MAX_REPAIR_LINES).map((n) => `- ${n.path} (${n.rule}): ${n.message.slice(0, 240)}`);
  if (notes.length > MAX_REPAIR_LINES) fixed.push(`- … and ${notes.length - MAX_REPAIR_LINES} more`);
  const repairs = fixed.length > 0 ? `\nRepaired and kept (write it this way next time):\n${fixed.join('\n')}` : '';
  return `Some steps were refused:\n${lines.join('\n')}${repairs}\nThe other steps are in the draft. Send only corrected steps, one JSON object per line. A new surface carries its "root" component in the same step.`;
}

/** The surface a step is about (its first op under /sections/<sid>), '' for other paths. */
function chainOf(rec: StepRecord): string {
  for (const op of rec.ops) {
    const path = op !== null && typeof op === 'object' ? (op as { path?: unknown }).path : undefined;
    const m = typeof path === 'string' ? /^\/sections\/([^/]+)/.exec(path) : null;
    if (m) return m[1]!;
  }
  return '';
}

function statusOf(rec: StepRecord): StepStatus {
  return rec.refused.length > 0 ? 'refused' : rec.repairs.length > 0 ? 'repaired' : 'applied';
}

export async function buildFromBrief(o: BuildOptions): Promise<BuildReport> {
  const t = o.transport;
  const turnId = o.turnId ?? `turn-${randomUUID().slice(0, 12)}`;
  const maxHeld = o.maxHeld ?? 3;
  const maxSteps = o.maxSteps ?? 200;
  const opsPerTurn = o.opsPerTurn ?? t.opsPerTurn ?? 500;
  const steps: StepRecord[] = [];
  const said: string[] = [];
  let opsUsed = 0;
  let stoppedBy: BuildReport['stoppedBy'] = 'rounds';
  let mirror: Draft = (await t.draft()).draft;
  let held: Pending[] = [];
  let seq = 0;
  let rounds = 0;
  let finished: Record<string, number> | null = null;

  const record = (rec: StepRecord): void => {
    steps.push(rec);
    o.onStep?.(rec);
  };

  /** Sends held steps that `cur` completes together with it; maps refusals back by index. */
  const write = async (batch: StepRecord[]): Promise<void> => {
    const ops = batch.flatMap((r) => r.ops);
    const ranges: [StepRecord, number, number][] = [];
    let at = 0;
    for (const r of batch) {
      ranges.push([r, at, at + r.ops.length]);
      at += r.ops.length;
    }
    const res = await t.submit(ops, { turnId, opId: `${turnId}-${seq++}` });
    opsUsed += ops.length;
    applyOpsUnchecked(mirror, res.applied);
    for (const [r, a, b] of ranges) {
      r.refused = res.refused.filter((x) => x.index >= a && x.index < b).map((x) => ({ ...x, index: x.index - a }));
      r.repairs = res.repairs.filter((x) => x.index >= a && x.index < b).map((x) => ({ ...x, index: x.index - a }));
      r.status = statusOf(r);
      record(r);
    }
  };

  const process = async (rec: StepRecord): Promise<'ok' | 'budget'> => {
    if (opsUsed + rec.ops.length + held.reduce((n, h) => n + h.rec.ops.length, 0) > opsPerTurn) {
      rec.status = 'over-budget';
      record(rec);
      return 'budget';
    }
    // Dry run on a copy, held steps first: which of them does this one complete, and does it
    // wait itself (for a held step, or for a later one)?
    const withHeld = [...held.map((h) => h.rec), rec];
    const trial = applyStep(structuredClone(mirror), withHeld.flatMap((x) => x.ops));
    const ok: StepRecord[] = [];
    const still: Pending[] = [];
    let start = 0;
    let own: typeof trial.refused = [];
    for (const x of withHeld) {
      const end = start + x.ops.length;
      const mine = trial.refused.filter((f) => f.index >= start && f.index < end);
      const why = mine.map((f) => ({ ...f, index: f.index - start }));
      if (x === rec) own = mine;
      else if (mine.length > 0) still.push({ rec: x, why });
      else ok.push(x);
      start = end;
    }
    const waits = own.length > 0 && own.every((f) => HOLDABLE_RULES.has(f.rule));
    // Steps for one surface wait as one chain; the cap counts chains.
    const chains = new Set([...still, { rec }].map((h) => chainOf(h.rec)));
    if (waits && chains.size <= maxHeld && still.length < maxSteps) {
      rec.held = true;
      held = [...still, { rec, why: own.map((f) => ({ ...f, index: f.index - (start - rec.ops.length) })) }];
      if (ok.length > 0) await write(ok);
      return 'ok';
    }
    held = still;
    await write([...ok, rec]);
    return 'ok';
  };

  const messages: ChatMessage[] = [
    { role: 'system', content: o.systemPrompt },
    { role: 'user', content: `${o.brief}\n\nThe draft now:\n${draftSummary(mirror)}` },
  ];
  try {
    for (let round = 0; round <= (o.maxFeedbackRounds ?? 3); round++) {
      rounds = round + 1;
      const reader = new StepReader();
      const from = steps.length;
      let answer = '';
      let budget = false;
      const handle = async (batch: ReturnType<StepReader['push']>): Promise<void> => {
        for (const s of batch) {
          if ('say' in s) said.push(s.say);
          else if ('done' in s) continue;
          else if (!budget && steps.length + held.length < maxSteps) {
            const rec: StepRecord = { round, ops: s.ops, status: 'applied', held: false, repairs: [], refused: [] };
            if ((await process(rec)) === 'budget') budget = true;
          }
        }
      };
      for await (const chunk of o.complete(messages)) {
        answer += chunk;
        await handle(reader.push(chunk));
      }
      await handle(reader.end());
      for (const e of reader.errors) {
        if (e.message.startsWith('The answer holds no JSON object')) continue;
        record({ round, ops: [], status: 'unreadable', held: false, repairs: [], refused: [], message: `line ${e.line}: ${e.message}` });
      }
      // End of round: whatever still waits is refused with why it waited (not sent: within a turn
      // the session would keep holding it for a later submission, and the model is asked again).
      if (held.length > 0) {
        for (const h of held) {
          h.rec.refused = h.why;
          h.rec.status = statusOf(h.rec);
          record(h.rec);
        }
        held = [];
      }
      if (budget) {
        stoppedBy = 'budget';
        break;
      }
      const written = steps.slice(from);
      const bad = written.filter(askAgain);
      const noObject = reader.errors.some((e) => e.message.startsWith('The answer holds no JSON object'));
      if (bad.length === 0 && !noObject) {
        stoppedBy = 'done';
        break;
      }
      if (steps.length >= maxSteps) {
        stoppedBy = 'steps';
        break;
      }
      messages.push({ role: 'assistant', content: answer });
      const repaired = written.filter((s) => s.repairs.length > 0);
      const refusedToo = written.filter((s) => s.status === 'refused' && !askAgain(s));
      messages.push({ role: 'user', content: noObject && bad.length === 0 ? reader.errors[0]!.message : `${feedback([...bad, ...refusedToo], repaired)}\n\nThe draft now:\n${draftSummary(mirror)}` });
    }
  } catch (e) {
    if ((e as { code?: string }).code === 'BUDGET_EXCEEDED') stoppedBy = 'budget';
    else throw e;
  } finally {
    finished = (await t.finishTurn?.(turnId).catch(() => null)) ?? null;
  }
  const accepted = steps.filter((s) => s.status === 'applied' || s.status === 'repaired').length;
  return { turnId, rounds, steps, said, opsUsed, acceptance: steps.length === 0 ? 0 : accepted / steps.length, stoppedBy, finished };
}

