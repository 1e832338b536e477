// The trip-budget mode's pure parts: its surface passes the pipeline, its answer recomputes the
// downstream numbers only, and the recomputed ids follow Clay's rule.
import { describe, expect, it } from 'vitest';
import { applyStep, emptyDraft } from '@weft/core';
import type { Json } from '@weft/core';
import { recomputedIds, tripFigures, tripOps, tripSection } from './trip-budget.ts';

describe('trip budget', () => {
  it('its surface is valid, and an answer recomputes table, chart and total, never the slider', () => {
    const d = emptyDraft('t');
    expect(applyStep(d, [{ op: 'add', path: '/sections/trip', value: tripSection(5) }]).refused).toEqual([]);
    const before = structuredClone(d.sections['trip']!.data);
    expect(applyStep(d, [{ op: 'replace', path: '/sections/trip/data/days', value: 8 }]).refused).toEqual([]);
    const ops = tripOps(8);
    expect(ops.every((o) => !o.path.endsWith('/days'))).toBe(true);
    expect(applyStep(d, ops).refused).toEqual([]);
    const after = d.sections['trip']!.data;
    expect(after['days']).toBe(8);
    expect(after['total']).toBe(tripFigures(8).total);
    expect(tripFigures(8).total).toBe((120 + 45 + 30) * 8);
    expect(recomputedIds(d.sections['trip']!, before, after, 'days')).toEqual(['chart', 'check', 'table', 'total']);
  });

  it("Clay's rule: numeric leaves only, not min/max/step, not the touched component", () => {
    const s = tripSection(5);
    s.components['days']!.props!['max'] = { path: '/max' } as unknown as Json;
    s.components['note'] = { id: 'note', component: 'Text', props: { text: { path: '/label' } } };
    s.components['lim'] = { id: 'lim', component: 'Slider', props: { min: 0, max: { path: '/max' }, label: 'x' } };
    const a = { ...s.data, max: 30, label: 'a' };
    const b = { ...s.data, days: 9, max: 40, label: 'b' };
    expect(recomputedIds(s, a, b, 'days')).toEqual([]);
  });
});
