import { describe, expect, it } from 'vitest';
import { applyStep, emptyDraft, validateDraft } from '@weft/core';
import { a2uiExamples } from '../test/conformance.ts';
import { A2uiStream } from './a2ui-stream.ts';
import { fromA2ui } from './a2ui-import.ts';

describe('A2uiStream: a live A2UI agent builds through the op pipeline', () => {
  for (const ex of a2uiExamples()) {
    it(`${ex.file}: streamed ops build a valid draft equal to the one-shot import`, () => {
      const draft = emptyDraft('d');
      const stream = new A2uiStream();
      const refused: unknown[] = [];
      for (const m of ex.messages) {
        // Each message is one step, valid on its own: nothing is refused along the way.
        refused.push(...applyStep(draft, stream.push(m)).refused);
      }
      expect(refused).toEqual([]);
      expect(validateDraft(draft).refusals).toEqual([]);
      const oneShot = fromA2ui(ex.messages).value[0];
      const id = oneShot?.id as string;
      expect(draft.order).toEqual([id]);
      expect(draft.sections[id]).toEqual(oneShot);
    });
  }

  it('emits component ops in arrival order, before root exists, and data ops by key', () => {
    const s = new A2uiStream();
    expect(s.push({ version: 'v0.9', createSurface: { surfaceId: 'live', catalogId: 'x' } })).toEqual([]);
    // Before root: held, noted.
    expect(s.push({ version: 'v0.9', updateComponents: { surfaceId: 'live', components: [{ id: 'b', component: 'Text', text: 'B' }, { id: 'a', component: 'Text', text: 'A' }] } })).toEqual([]);
    expect(s.notes.map((n) => n.code)).toContain('components-buffered');
    // Root arrives: the surface goes out whole, with its root, in one op.
    const root = s.push({ version: 'v0.9', updateComponents: { surfaceId: 'live', components: [{ id: 'root', component: 'Column', children: ['a', 'b', 'c'] }] } });
    expect(root).toEqual([{ op: 'add', path: '/sections/live', value: { id: 'live', kind: 'surface', catalog: 'weft@1', data: {}, components: {
      b: { id: 'b', component: 'Text', props: { text: 'B' } },
      a: { id: 'a', component: 'Text', props: { text: 'A' } },
      root: { id: 'root', component: 'Stack', children: ['a', 'b'] },
    } } }]);
    // A forward reference is completed when the child arrives: child added and parent relinked
    // in one op, so the step is valid on its own.
    const c = s.push({ version: 'v0.9', updateComponents: { surfaceId: 'live', components: [{ id: 'c', component: 'Divider' }] } });
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({ op: 'replace', path: '/sections/live/components' });
    expect(s.sections()[0]?.components['root']?.children).toEqual(['a', 'b', 'c']);
    expect(s.push({ version: 'v0.9', updateDataModel: { surfaceId: 'live', path: '/user/name', value: 'Ada' } })).toEqual([
      { op: 'add', path: '/sections/live/data/user', value: { name: 'Ada' } },
    ]);
    expect(s.push({ version: 'v0.9', updateComponents: { surfaceId: 'live', components: [{ id: 'a', component: 'Text', text: 'A2', variant: 'h2' }] } })).toEqual([
      { op: 'replace', path: '/sections/live/components/a', value: { id: 'a', component: 'Heading', props: { text: 'A2', level: 2 } } },
    ]);
    expect(s.push({ version: 'v0.9', deleteSurface: { surfaceId: 'live' } })).toEqual([{ op: 'remove', path: '/sections/live' }]);
    expect(s.push({ nonsense: true })).toEqual([]);
    expect(s.notes[0]?.code).toBe('message-invalid');
  });
});
