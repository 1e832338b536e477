import { describe, expect, it } from 'vitest';
import { emptyDraft, validateDraft } from '@weft/core';
import type { SurfaceSection } from '@weft/core';
import { a2uiExamples } from '../test/conformance.ts';
import { fromA2ui } from './a2ui-import.ts';

function validate(sections: SurfaceSection[]) {
  const draft = emptyDraft('d1');
  for (const s of sections) {
    draft.sections[s.id] = s;
    draft.order.push(s.id);
  }
  return validateDraft(draft);
}

const examples = a2uiExamples();

describe('A2UI v0.9 official examples import', () => {
  it('finds all 36 examples', () => {
    expect(examples).toHaveLength(36);
  });

  for (const ex of examples) {
    it(`${ex.file} imports into a valid surface, every drop noted`, () => {
      const { value, notes } = fromA2ui(ex.messages);
      expect(value).toHaveLength(1);
      const { refusals } = validate(value);
      expect(refusals).toEqual([]);
      // Every source component is either present (by id or renamed id), folded, or noted.
      const section = value[0] as SurfaceSection;
      const renamed = new Map(notes.filter((n) => n.code === 'id-renamed').map((n) => [n.detail?.['from'], n.detail?.['to']]));
      for (const m of ex.messages as Array<Record<string, { components?: Array<{ id: string; component: string }> }>>) {
        for (const c of m['updateComponents']?.components ?? []) {
          const id = (renamed.get(c.id) as string | undefined) ?? c.id;
          if (section.components[id] !== undefined) continue;
          const mentioned = notes.some((n) => n.message.includes(`"${c.id}"`) || n.message.includes(c.component) || n.code === 'template-expanded');
          expect(mentioned, `${c.id} (${c.component}) vanished without a note`).toBe(true);
        }
      }
    });
  }
});
