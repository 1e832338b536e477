// RFC "Held steps": a step that only waits for a later step of the turn is held and written with
// the step that completes it. Here the wait is for the section itself (missing_section).
import { describe, expect, it } from 'vitest';
import { emptyDraft } from '@weft/core';
import { replayModel } from '../test/corpus.ts';
import { buildFromBrief } from './model-builder.ts';
import { catalogPromptText } from './prompt.ts';
import { LocalBuildTransport } from './transport.ts';

const child = (id: string) => `{"ops":[{"op":"add","path":"/sections/faq/components/${id}","value":{"id":"${id}","component":"Heading","props":{"text":"${id}"}}}]}`;
const section = '{"ops":[{"op":"add","path":"/sections/faq","value":{"id":"faq","kind":"surface","catalog":"weft@1","data":{},"components":{"root":{"id":"root","component":"Stack","children":["q1","q2"]}}}}]}';

describe('held steps across the submissions of a turn', () => {
  it('children sent before their section are held and land with it, from an empty draft', async () => {
    const t = new LocalBuildTransport(emptyDraft('p'));
    const report = await buildFromBrief({
      brief: 'An FAQ.', transport: t, complete: replayModel([[child('q1'), child('q2'), section, '{"done":true}'].join('\n')]),
      systemPrompt: catalogPromptText(), maxFeedbackRounds: 0,
    });
    expect(report.steps.map((s) => [s.status, s.held])).toEqual([['applied', true], ['applied', true], ['repaired', false]]); // repaired: the section joins order (a note)
    expect(report.stoppedBy).toBe('done');
    expect(t.doc.order).toEqual(['faq']);
    expect(t.doc.sections['faq']!.components['root']!.children).toEqual(['q1', 'q2']);
    expect(Object.keys(t.doc.sections['faq']!.components).sort()).toEqual(['q1', 'q2', 'root']);
  });
  it('a child whose section never comes is refused at the end of the round with missing_section', async () => {
    const t = new LocalBuildTransport(emptyDraft('p'));
    const report = await buildFromBrief({
      brief: 'An FAQ.', transport: t, complete: replayModel([child('q1')]), systemPrompt: catalogPromptText(), maxFeedbackRounds: 0,
    });
    expect(report.steps).toHaveLength(1);
    expect(report.steps[0]!.refused).toEqual([expect.objectContaining({ rule: 'missing_section', path: '/sections/faq/components/q1' })]);
    expect(t.doc.order).toEqual([]);
  });
});
