import { describe, expect, it } from 'vitest';
import { emptyDraft } from '@weft/core';
import { LANDING_SCRIPT } from './landing-script.ts';
import { runScript } from './scripted-builder.ts';
import { LocalBuildTransport } from './transport.ts';

describe('scripted landing-page builder (in-memory pipeline)', () => {
  it('builds hero, features, pricing, FAQ and CTA; one typo repaired, one step refused then fixed', async () => {
    const t = new LocalBuildTransport(emptyDraft('demo'));
    const ghosts: unknown[] = [];
    t.ghost = (op) => void ghosts.push(op);
    const events = await runScript(t, LANDING_SCRIPT, { sleep: async () => {} });
    for (const e of events) {
      const kind = e.result.refused.length > 0 ? 'refused' : e.result.repairs.some((n) => n.rule === 'snapped_name') ? 'repaired' : 'applied';
      expect([e.index, kind]).toEqual([e.index, e.step.expect]);
    }
    const refused = events.find((e) => e.step.expect === 'refused')!.result.refused[0]!;
    expect(refused.path).toMatch(/^\/sections\/cta\/components\/root/);
    expect(refused.rule).toBe('missing_child');
    const d = t.doc;
    expect(d.order).toEqual(['hero', 'features', 'pricing', 'faq', 'cta']);
    expect(d.sections['features']!.components['title']!.component).toBe('Heading');
    expect(d.sections['pricing']!.components['period']!.props!['value']).toEqual({ path: '/period' });
    expect(d.sections['pricing']!.data).toEqual({ period: 'monthly' });
    expect(Object.keys(d.sections['cta']!.components).sort()).toEqual(['cta-button', 'cta-title', 'root']);
    expect(ghosts.filter((g) => g !== null)).toHaveLength(LANDING_SCRIPT.length);
  });
});
