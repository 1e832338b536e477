// The interaction runtime's budget and construction: one constant bundle ≤ 6 KB gzip that holds
// core's evaluators (one implementation with the server render) and no way to run strings.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { draftWith } from '../fixtures.testkit.ts';
import { renderDraft } from '../render.ts';
import { runtimeScript } from './bundle.ts';

describe('the interaction runtime', () => {
  it('is one constant script within 6 KB gzip, with no eval, Function or HTML parsing', async () => {
    const a = await runtimeScript();
    const gz = gzipSync(a.body, { level: 9 }).length;
    console.log(`[runtime] ${a.body.length} B minified, ${gz} B gzip, hash ${a.hash}`);
    expect(gz).toBeLessThanOrEqual(6 * 1024);
    expect(a.hash).toMatch(/^[0-9a-f]{16}$/);
    for (const bad of ['eval(', 'Function(', 'innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'setTimeout("']) expect(a.body).not.toContain(bad);
    // core's named functions are in it (bundled from @weft/core/evaluate, not re-implemented)
    for (const fn of ['formatCurrency', 'multiply', 'pluralize']) expect(a.body).toContain(fn);
  });

  it('the render hands it only what a live section needs, as inert JSON, behind the markers', () => {
    const live = renderDraft(draftWith(
      { id: 'root', component: 'Stack', children: ['t', 's', 'x', 'b'] },
      [
        { id: 't', component: 'Toggle', props: { options: ['a', 'b'], value: { path: '/p' } } },
        { id: 's', component: 'Stat', props: { label: 'Total', value: { call: 'sum', args: { values: { path: '/xs' } } } } },
        { id: 'x', component: 'Text', props: { text: 'only b' }, visible: { eq: [{ path: '/p' }, 'b'] } },
        { id: 'b', component: 'Button', props: { label: 'Go', onClick: { action: 'toggle', path: '/ok' }, checks: [{ condition: { eq: [{ path: '/ok' }, true] }, message: 'Not yet' }] } },
      ],
      { p: 'a', xs: [1, 2.5], ok: false },
    ));
    expect(live.interactive).toBe(true);
    expect(live.html).toContain('<span class="weft-stat-number" data-weft-bind="s:value">3.5</span>');
    expect(live.html).toContain('data-weft-model="/p"');
    expect(live.html).toContain('data-weft-cond="x" data-weft-visible="false" hidden');
    expect(live.html).toMatch(/<button[^>]* disabled[^>]* data-weft-gate[^>]*>Go<\/button><p class="weft-check-msg" role="alert" data-weft-check="b:0">Not yet<\/p>/);
    const logic = JSON.parse(/<script type="application\/json" data-weft-logic>(.*?)<\/script>/.exec(live.html)?.[1] ?? 'null');
    expect(logic).toEqual({
      t: { 's:value': { call: 'sum', args: { values: { path: '/xs' } } } },
      v: { x: { eq: [{ path: '/p' }, 'b'] } },
      k: { b: [{ eq: [{ path: '/ok' }, true] }] },
    });
    // A page nobody can change gets neither the logic nor (in renderPage) the runtime.
    const still = renderDraft(draftWith({ id: 'root', component: 'Heading', props: { text: { path: '/h' } } }, [], { h: 'Hi' }));
    expect(still.interactive).toBe(false);
    expect(still.html).not.toContain('data-weft-logic');
  });
});
