import { describe, expect, it } from 'vitest';
import { refusalOf } from '@weft/core';
import type { BuildReport, StepRecord } from '../model-builder.ts';
import { MAX_SAMPLES, rank, runRecord, summaryTable } from './measure.ts';
import type { RunInput, RunRecord } from './measure.ts';

const step = (over: Partial<StepRecord>): StepRecord => ({ round: 0, ops: [{}], status: 'applied', held: false, repairs: [], refused: [], ...over });
const report = (steps: StepRecord[], stoppedBy: BuildReport['stoppedBy'] = 'done'): BuildReport => ({
  turnId: 't', rounds: Math.max(1, ...steps.map((s) => s.round + 1)), steps, said: [], opsUsed: steps.length, acceptance: 0, stoppedBy, finished: null,
});
const input = (over: Partial<RunInput>): RunInput => ({
  model: 'm', brief: 'b', mode: 'memory', draftId: null, steps: [], report: report([]), error: null,
  firstStepMs: null, totalMs: 1000, usage: [], asBriefed: null, ...over,
});
const run = (model: string, over: Partial<RunRecord>): RunRecord => ({ ...runRecord(input({ model })), ...over });

describe('build eval measures', () => {
  it('a run: finished is done with a step written; refusals by kind; tokens summed; samples capped at five', () => {
    const bad = step({ status: 'refused', refused: [refusalOf('invalid_props', '/sections/a/components/x/props', 'm'.repeat(400), 0)] });
    const unread = step({ round: 1, status: 'unreadable', ops: [], message: 'line 3: not closed' });
    const steps = [step({ status: 'repaired', repairs: [{ rule: 'snapped_name', path: '/p', message: 'n', index: 0 }] }), bad, unread, bad, bad, bad, bad];
    const r = runRecord(input({ steps, report: report(steps), firstStepMs: 12.4, totalMs: 80.6, usage: [{ promptTokens: 10, completionTokens: 3 }, { promptTokens: 20, completionTokens: 4 }], asBriefed: [] }));
    expect(r).toMatchObject({
      finished: true, stoppedBy: 'done', steps: 7, written: 1, acceptance: 1 / 7, repairs: 1, refusals: 6, emissionRefusals: 1, contractRefusals: 5,
      rounds: 2, firstStepMs: 12, totalMs: 81, tokens: { prompt: 30, completion: 7 }, asBriefed: [],
    });
    expect(r.samples).toHaveLength(MAX_SAMPLES);
    expect(r.samples[0]).toEqual({ round: 1, rule: 'invalid_props', kind: 'contract', path: '/sections/a/components/x/props', message: 'm'.repeat(300) });
    expect(r.samples[1]).toEqual({ round: 2, rule: 'unreadable', kind: 'emission', path: '', message: 'line 3: not closed' });
    // Done with nothing written, or a failed turn, is not finished; no usage is null, not zero.
    expect(runRecord(input({ steps: [bad], report: report([bad]) }))).toMatchObject({ finished: false, stoppedBy: 'done', tokens: null });
    expect(runRecord(input({ steps: [step({})], report: null, error: 'model endpoint answered 401' }))).toMatchObject({ finished: false, stoppedBy: 'error', written: 1, rounds: 1 });
  });

  it('ranks by finished turns, then acceptance, then median total time', () => {
    const runs = [
      run('slow-perfect', { finished: true, steps: 4, written: 4, totalMs: 9000 }), run('slow-perfect', { finished: true, steps: 4, written: 4, totalMs: 9000 }),
      run('fast-perfect', { finished: true, steps: 4, written: 4, totalMs: 100 }), run('fast-perfect', { finished: true, steps: 4, written: 4, totalMs: 300 }),
      run('sloppy', { finished: true, steps: 4, written: 2, totalMs: 10 }), run('sloppy', { finished: true, steps: 4, written: 2, totalMs: 10 }),
      run('unfinished', { finished: true, steps: 4, written: 4, totalMs: 1 }), run('unfinished', { finished: false, steps: 0, written: 0, totalMs: 1 }),
    ];
    const rows = rank(runs);
    expect(rows.map((r) => [r.rank, r.model])).toEqual([[1, 'fast-perfect'], [2, 'slow-perfect'], [3, 'sloppy'], [4, 'unfinished']]);
    expect(rows[0]).toMatchObject({ turns: 2, finished: 2, acceptance: 1, medianTotalMs: 200 });
    expect(rows[2]).toMatchObject({ acceptance: 0.5, written: 4, steps: 8 });
  });

  it('prints the ranked table; a model name cannot break its row', () => {
    const rows = rank([run('a|b\nc', { finished: true, steps: 2, written: 1, totalMs: 1500, firstStepMs: 40, tokens: { prompt: 1, completion: 99 }, asBriefed: [] })]);
    const lines = summaryTable(rows).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('| 1 | a\\|b c | 1/1 | 50% (1/2) | 0 | 0 (0+0) | 1 | 40 ms | 1.5 s | 99 | 1/1 |');
  });
});
