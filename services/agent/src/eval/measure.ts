// The build eval's measures (RFC "Build model eval"): one record per run (one model, one brief,
// one turn) and the ranked summary per model. Pure: reports and timings in, records and a table out.
import type { RefusalKind, Rule } from '@weft/core';
import { ruleKind } from '@weft/core';
import type { BuildReport, StepRecord } from '../model-builder.ts';
import type { Usage } from '../model-client.ts';

export interface RefusalSample {
  round: number;
  /** The refusal's rule, or `unreadable` for an object the reader could not read. */
  rule: Rule | 'unreadable';
  kind: RefusalKind;
  path: string;
  message: string;
}

export interface RunRecord {
  model: string;
  brief: string;
  mode: 'memory' | 'server';
  /** The draft the run built on the server (left there to look at); null in memory. */
  draftId: string | null;
  /** Done with at least one step written. */
  finished: boolean;
  stoppedBy: BuildReport['stoppedBy'] | 'error';
  /** The endpoint or door failed the turn (HTTP status, timeout, …); null when it ran. */
  error: string | null;
  steps: number;
  /** Steps written as sent after repairs (applied or repaired). */
  written: number;
  /** written / steps (0 when the model sent no step). */
  acceptance: number;
  repairs: number;
  /** Refused ops plus unreadable objects, all rounds. */
  refusals: number;
  emissionRefusals: number;
  contractRefusals: number;
  rounds: number;
  /** From the start of the turn to the first step written; null when none was. */
  firstStepMs: number | null;
  totalMs: number;
  /** Summed over the turn's model calls from the endpoint's `usage`; null when it sent none. */
  tokens: { prompt: number; completion: number } | null;
  /** What is wrong with the page ([] = as briefed); null for a brief without a check. */
  asBriefed: string[] | null;
  /** The first five refusals of the run: why this model's steps fail. */
  samples: RefusalSample[];
}

export const MAX_SAMPLES = 5;
const MAX_SAMPLE_MESSAGE = 300;

const isWritten = (s: StepRecord): boolean => s.status === 'applied' || s.status === 'repaired';

export interface RunInput {
  model: string;
  brief: string;
  mode: 'memory' | 'server';
  draftId: string | null;
  /** Every step the turn wrote or refused, as reported (also when the turn then failed). */
  steps: readonly StepRecord[];
  report: BuildReport | null;
  error: string | null;
  firstStepMs: number | null;
  totalMs: number;
  usage: readonly Usage[];
  asBriefed: string[] | null;
}

export function runRecord(i: RunInput): RunRecord {
  const steps = i.report?.steps ?? i.steps;
  const written = steps.filter(isWritten).length;
  const refused = steps.flatMap((s) => s.refused.map((r) => ({ s, r, kind: r.kind ?? ruleKind(r.rule) ?? 'emission' })));
  const unreadable = steps.filter((s) => s.status === 'unreadable');
  const samples: RefusalSample[] = steps.flatMap((s): RefusalSample[] => s.status === 'unreadable'
    ? [{ round: s.round + 1, rule: 'unreadable', kind: 'emission', path: '', message: (s.message ?? '').slice(0, MAX_SAMPLE_MESSAGE) }]
    : s.refused.map((r) => ({ round: s.round + 1, rule: r.rule, kind: r.kind ?? ruleKind(r.rule) ?? 'emission', path: r.path, message: r.message.slice(0, MAX_SAMPLE_MESSAGE) })),
  ).slice(0, MAX_SAMPLES);
  const stoppedBy = i.error !== null || !i.report ? 'error' : i.report.stoppedBy;
  return {
    model: i.model, brief: i.brief, mode: i.mode, draftId: i.draftId,
    finished: stoppedBy === 'done' && written > 0,
    stoppedBy, error: i.error,
    steps: steps.length, written, acceptance: steps.length === 0 ? 0 : written / steps.length,
    repairs: steps.reduce((n, s) => n + s.repairs.length, 0),
    refusals: refused.length + unreadable.length,
    emissionRefusals: refused.filter((x) => x.kind === 'emission').length + unreadable.length,
    contractRefusals: refused.filter((x) => x.kind === 'contract').length,
    rounds: i.report?.rounds ?? (steps.length === 0 ? 1 : Math.max(...steps.map((s) => s.round)) + 1),
    firstStepMs: i.firstStepMs === null ? null : Math.round(i.firstStepMs), totalMs: Math.round(i.totalMs),
    tokens: i.usage.length === 0 ? null : {
      prompt: i.usage.reduce((n, u) => n + u.promptTokens, 0),
      completion: i.usage.reduce((n, u) => n + u.completionTokens, 0),
    },
    asBriefed: i.asBriefed,
    samples,
  };
}

export interface ModelRow {
  rank: number;
  model: string;
  turns: number;
  finished: number;
  /** Steps written / steps sent, over all the model's turns. */
  acceptance: number;
  written: number;
  steps: number;
  repairsPerTurn: number;
  refusalsPerTurn: number;
  emissionPerTurn: number;
  contractPerTurn: number;
  roundsPerTurn: number;
  medianFirstStepMs: number | null;
  medianTotalMs: number;
  /** Mean completion tokens per turn over the turns whose endpoint reported usage. */
  outputTokensPerTurn: number | null;
  /** Turns whose page came out as briefed, of the turns with a check. */
  asBriefed: { ok: number; of: number };
  errors: number;
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** One row per model, ranked: finished turns, then acceptance, then median total time. */
export function rank(runs: readonly RunRecord[]): ModelRow[] {
  const byModel = new Map<string, RunRecord[]>();
  for (const r of runs) byModel.set(r.model, [...(byModel.get(r.model) ?? []), r]);
  const rows = [...byModel].map(([model, rs]): ModelRow => {
    const n = rs.length;
    const sum = (f: (r: RunRecord) => number): number => rs.reduce((a, r) => a + f(r), 0);
    const steps = sum((r) => r.steps);
    const written = sum((r) => r.written);
    const withTokens = rs.filter((r) => r.tokens !== null);
    const checked = rs.filter((r) => r.asBriefed !== null);
    return {
      rank: 0, model, turns: n, finished: rs.filter((r) => r.finished).length,
      acceptance: steps === 0 ? 0 : written / steps, written, steps,
      repairsPerTurn: sum((r) => r.repairs) / n, refusalsPerTurn: sum((r) => r.refusals) / n,
      emissionPerTurn: sum((r) => r.emissionRefusals) / n, contractPerTurn: sum((r) => r.contractRefusals) / n,
      roundsPerTurn: sum((r) => r.rounds) / n,
      medianFirstStepMs: median(rs.flatMap((r) => (r.firstStepMs === null ? [] : [r.firstStepMs]))),
      medianTotalMs: median(rs.map((r) => r.totalMs)) ?? 0,
      outputTokensPerTurn: withTokens.length === 0 ? null : withTokens.reduce((a, r) => a + r.tokens!.completion, 0) / withTokens.length,
      asBriefed: { ok: checked.filter((r) => r.asBriefed!.length === 0).length, of: checked.length },
      errors: rs.filter((r) => r.error !== null).length,
    };
  });
  rows.sort((a, b) => b.finished - a.finished || b.acceptance - a.acceptance || a.medianTotalMs - b.medianTotalMs || (a.model < b.model ? -1 : 1));
  return rows.map((r, i) => ({ ...r, rank: i + 1 }));
}

/** A duration for people: ms under a second, else seconds. */
export const duration = (ms: number | null): string => (ms === null ? '–' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
const num = (x: number): string => String(Math.round(x * 10) / 10);
/** Cells of a markdown table are data: a pipe or line break in a model name must not break it. */
const cell = (s: string): string => s.replace(/[|\\]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');

export const TABLE_HEADER = ['#', 'Model', 'Finished', 'Acceptance', 'Repairs/turn', 'Refusals/turn (emission+contract)', 'Rounds/turn', 'First step (median)', 'Total (median)', 'Output tokens/turn', 'As briefed'] as const;

/** The ranked summary as a markdown table (what the RFC's eval tables show). */
export function summaryTable(rows: readonly ModelRow[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [
    line(TABLE_HEADER),
    line(TABLE_HEADER.map(() => '---')),
    ...rows.map((r) => line([
      String(r.rank), cell(r.model), `${r.finished}/${r.turns}`, `${Math.round(r.acceptance * 100)}% (${r.written}/${r.steps})`,
      num(r.repairsPerTurn), `${num(r.refusalsPerTurn)} (${num(r.emissionPerTurn)}+${num(r.contractPerTurn)})`, num(r.roundsPerTurn),
      duration(r.medianFirstStepMs), duration(r.medianTotalMs),
      r.outputTokensPerTurn === null ? '–' : String(Math.round(r.outputTokensPerTurn)),
      r.asBriefed.of === 0 ? '–' : `${r.asBriefed.ok}/${r.asBriefed.of}`,
    ])),
  ].join('\n');
}
