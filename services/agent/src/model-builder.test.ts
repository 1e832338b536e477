import { describe, expect, it } from 'vitest';
import { defaultCatalog, emptyDraft } from '@weft/core';
import { loadCases } from '../bench/brief-cases.ts';
import { scopedBrief } from './brief-request.ts';
import { loadCorpus, mismatches, replayModel } from '../test/corpus.ts';
import { buildFromBrief, draftSummary } from './model-builder.ts';
import { parseModelConfig } from './model-config.ts';
import { catalogPromptText } from './prompt.ts';
import { LocalBuildTransport } from './transport.ts';

const run = (answers: string[], o: { rounds?: number; opsPerTurn?: number } = {}) => {
  const t = new LocalBuildTransport(emptyDraft('p'));
  const model = replayModel(answers);
  return buildFromBrief({
    brief: 'A landing page.', transport: t, complete: model, systemPrompt: catalogPromptText(),
    ...(o.rounds === undefined ? {} : { maxFeedbackRounds: o.rounds }), ...(o.opsPerTurn === undefined ? {} : { opsPerTurn: o.opsPerTurn }),
  }).then((report) => ({ report, t, model }));
};
const hero = (id: string, extra = '') => `{"ops":[{"op":"add","path":"/sections/${id}","value":{"id":"${id}","kind":"surface","catalog":"weft@1","data":{},"components":{"root":{"id":"root","component":"Heading","props":{"text":"Hi ${id}"}}${extra}}}}]}`;

describe('model-driven builder', () => {
  it('every recorded answer in the corpus builds its intended page; first-answer acceptance ≥ 95%', async () => {
    let steps = 0;
    let accepted = 0;
    for (const c of loadCorpus()) {
      const { report, t } = await run([c.answer, ...c.fixes], { rounds: c.fixes.length });
      expect([c.name, mismatches(t.doc, c.expect)]).toEqual([c.name, []]);
      const first = report.steps.filter((s) => s.round === 0);
      steps += first.length;
      accepted += first.filter((s) => s.status === 'applied' || s.status === 'repaired').length;
    }
    expect(steps).toBeGreaterThanOrEqual(40);
    expect(accepted / steps).toBeGreaterThanOrEqual(0.95);
  });

  it('the independent briefs corpus (6 briefs × 4 styles): ≥ 95 % of steps written, ≥ 22/24 pages as briefed, every refusal with pointer and fix', async () => {
    let steps = 0;
    let accepted = 0;
    let asBriefed = 0;
    const cases = loadCases((n) => defaultCatalog.getEntry(n) !== undefined);
    expect(cases).toHaveLength(24);
    for (const c of cases) {
      const d = emptyDraft(c.brief.id);
      for (const s of c.brief.seed) {
        d.sections[s.id] = structuredClone(s);
        d.order.push(s.id);
      }
      const t = new LocalBuildTransport(d);
      const report = await buildFromBrief({ brief: scopedBrief(c.brief.text, d, c.brief.scope), transport: t, complete: replayModel([...c.answers, '{"done":true}']), systemPrompt: catalogPromptText() });
      steps += report.steps.length;
      accepted += report.steps.filter((s) => s.status === 'applied' || s.status === 'repaired').length;
      if (c.brief.check(t.doc).length === 0) asBriefed++;
      for (const r of report.steps.flatMap((s) => s.refused)) expect(r).toMatchObject({ code: 'VALIDATION_FAILED', path: expect.stringMatching(/^\//), message: expect.stringMatching(/; |: /) });
    }
    expect(accepted / steps).toBeGreaterThanOrEqual(0.95);
    expect(asBriefed).toBeGreaterThanOrEqual(22);
  });

  it('sends emission defects back with their pointers and stops after the allowed rounds', async () => {
    const bad = '{"ops":[{"op":"add","path":"/sections/x","value":{"id":"x","kind":"surface","catalog":"weft@1","data":{},"components":{"root":{"id":"root","component":"Stack","children":"title"}}}}]}';
    const { report, model } = await run([bad], { rounds: 3 });
    expect(model.calls).toHaveLength(4);
    expect(report.rounds).toBe(4);
    expect(report.stoppedBy).toBe('rounds');
    expect(report.steps.flatMap((s) => s.refused.map((r) => [r.rule, r.kind]))).toEqual(Array(4).fill(['invalid_section', 'emission']));
    const feedback = model.calls[1]!.at(-1)!;
    expect(feedback.role).toBe('user');
    expect(feedback.content).toContain('/sections/x/components/root/children (invalid_section)');
    expect(feedback.content).not.toContain('final');
    expect(model.calls[1]!.at(-2)).toEqual({ role: 'assistant', content: bad });
  });

  it('a contract violation is final: the model is not asked again, the refusal stays in the report', async () => {
    const bad = '{"ops":[{"op":"add","path":"/sections/x","value":{"id":"x","kind":"surface","catalog":"weft@1","data":{},"components":{"root":{"id":"root","component":"Slider","props":{"label":"n","max":"lots"}}}}}]}';
    const { report, model, t } = await run([`${hero('a')}\n${bad}`, hero('never')], { rounds: 3 });
    expect(model.calls).toHaveLength(1);
    expect(report.stoppedBy).toBe('done');
    expect(report.steps.map((s) => s.status)).toEqual(['repaired', 'refused']);
    expect(report.steps[1]!.refused).toMatchObject([{ rule: 'invalid_props', kind: 'contract', path: '/sections/x/components/root/props' }]);
    expect(t.doc.order).toEqual(['a']);
  });

  it('stops asking once a round has no emission defects', async () => {
    const { report, model } = await run([`${hero('a')}\n{"ops":[{"op":"replace","path":"/sections/zz/components/root/props/level","value":2}]}`, hero('b')]);
    expect(model.calls).toHaveLength(2);
    expect(report.stoppedBy).toBe('done');
    expect(report.steps.map((s) => [s.round, s.status])).toEqual([[0, 'repaired'], [0, 'refused'], [1, 'repaired']]);
  });

  it('holds a step that waits for a later one, and refuses it at the end of the round if nothing completes it', async () => {
    const waits = '{"ops":[{"op":"add","path":"/sections/a/components/root/children","value":["later"]}]}';
    const a = '{"ops":[{"op":"add","path":"/sections/a","value":{"id":"a","kind":"surface","catalog":"weft@1","data":{},"components":{"root":{"id":"root","component":"Stack"}}}}]}';
    const { report, t } = await run([`${a}\n${waits}\n${hero('b')}`], { rounds: 0 });
    const byStatus = report.steps.map((s) => [s.status, s.held]);
    expect(byStatus).toContainEqual(['refused', true]);
    expect(t.doc.order).toEqual(['a', 'b']);
    const refusal = report.steps.find((s) => s.held)!.refused[0]!;
    expect(refusal.path).toMatch(/^\/sections\/a\/components/);
    expect(report.steps.at(-1)!.held).toBe(true);
  });

  it('a chain of steps into a held surface waits as one, however long, and is written when root comes', async () => {
    const comp = (id: string) => `{"ops":[{"op":"add","path":"/sections/q/components/${id}","value":{"id":"${id}","component":"Text","props":{"text":"${id}"}}}]}`;
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const answer = [
      '{"ops":[{"op":"add","path":"/sections/q","value":{"id":"q","kind":"surface","catalog":"weft@1","data":{},"components":{}}}]}',
      ...ids.map(comp),
      `{"ops":[{"op":"add","path":"/sections/q/components/root","value":{"id":"root","component":"Stack","children":${JSON.stringify(ids)}}}]}`,
    ].join('\n');
    const { report, t, model } = await run([answer], { rounds: 1 });
    expect(report.steps.map((s) => s.status === 'applied' || s.status === 'repaired')).toEqual(Array(7).fill(true));
    expect(report.steps.filter((s) => s.held)).toHaveLength(6);
    expect(t.doc.sections['q']!.components['root']!.children).toEqual(ids);
    expect(model.calls).toHaveLength(1);
  });

  it('returns the round\'s repairs (briefly) with its refusals, contract violations as final, and lists components in reading order', async () => {
    const go = '{"ops":[{"op":"add","path":"/sections/b/components/go","value":{"id":"go","component":"Button","props":{"text":"Go"}}},{"op":"add","path":"/sections/b/components/root/children/-","value":"go"}]}';
    const stray = '{"ops":[{"op":"add","path":"/sections/a/components/stray","value":{"id":"stray","component":"Text","props":{"text":"?"}}}]}';
    const stack = '{"ops":[{"op":"add","path":"/sections/b","value":{"id":"b","kind":"surface","catalog":"weft@1","data":{},"components":{"root":{"id":"root","component":"Stack"}}}}]}';
    const slash = '{"ops":[{"op":"add","path":"sections/c","value":{}}]}';
    const { model, t } = await run([`${hero('a')}\n${stack}\n${go}\n${stray}\n${slash}`, '{"done":true}'], { rounds: 1 });
    const back = model.calls[1]!.at(-1)!.content;
    // The emission defect is asked again; the contract violation beside it is told as final.
    expect(back).toMatch(/sections\/c \(invalid_pointer\)[^]*final[^]*\/sections\/a\/components\/stray \(unreachable\)/);
    expect(back).not.toContain('/order/-');
    expect(back).toMatch(/Repaired and kept[^]*\/sections\/b\/components\/go\/props\/text \(renamed_prop\)/);
    t.doc.sections['a']!.components = { z: { id: 'z', component: 'Text', props: { text: 'z' } }, root: { id: 'root', component: 'Stack', children: ['z'] } };
    expect(draftSummary(t.doc)).toBe('- /sections/a: root:Stack, z:Text\n- /sections/b: root:Stack, go:Button');
  });

  it('enforces the op budget of the turn', async () => {
    const { report, t } = await run([`${hero('a')}\n${hero('b')}\n${hero('c')}`], { opsPerTurn: 2 });
    expect(report.stoppedBy).toBe('budget');
    expect(report.opsUsed).toBeLessThanOrEqual(2);
    expect(t.doc.order).toEqual(['a', 'b']);
    expect(report.steps.at(-1)!.status).toBe('over-budget');
  });

  it('an answer without any object gets one clear message back', async () => {
    const { model, t } = await run(['I would love to help! What colours do you like?', hero('a')]);
    expect(model.calls[1]!.at(-1)!.content).toMatch(/no JSON object/);
    expect(t.doc.order).toEqual(['a']);
  });

  it('reads the model endpoint from the environment once', () => {
    expect(parseModelConfig({ WEFT_MODEL_URL: 'http://127.0.0.1:9/v1/', WEFT_MODEL: 'm', WEFT_MODEL_KEY: ' k ' })).toEqual({ ok: true, value: { url: 'http://127.0.0.1:9/v1', model: 'm', key: 'k', stream: true } });
    expect(parseModelConfig({ WEFT_MODEL: 'm' }).ok).toBe(false);
    expect(parseModelConfig({ WEFT_MODEL_URL: 'http://h' }).ok).toBe(false);
  });
});
