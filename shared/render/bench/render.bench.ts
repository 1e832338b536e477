// Render timing: `npx tsx shared/render/bench/render.bench.ts`
// One changed section of a 200-component surface (what the preview does on each delta), and a
// whole page of 30 such sections (the largest draft the limits allow).

import type { Component, Draft, SurfaceSection } from '@weft/core';
import { renderDraft, renderSection } from '../src/index.ts';

function surface(id: string): SurfaceSection {
  const components: Record<string, Component> = {};
  const rootKids: string[] = [];
  let n = 1;
  const add = (c: Component): string => { components[c.id] = c; n++; return c.id; };
  // 22 cards × 9 components + root + header ≈ 200.
  rootKids.push(add({ id: 'title', component: 'Heading', props: { text: { path: '/title' }, level: 2 } }));
  for (let i = 0; n < 200 - 8; i++) {
    const kids = [
      add({ id: `t${i}`, component: 'Text', props: { text: `Item **${i}** with a [link](https://example.com/${i}) and \`code\`` } }),
      add({ id: `b${i}`, component: 'Badge', props: { text: 'new', tone: 'info' } }),
      add({ id: `s${i}`, component: 'Stat', props: { label: 'Users', value: { path: '/count' }, trend: 'up' } }),
      add({ id: `l${i}`, component: 'List', props: { items: ['one', 'two', 'three'] } }),
      add({ id: `i${i}`, component: 'Image', props: { src: `assets/img-${i}.png`, alt: 'pic' } }),
      add({ id: `bt${i}`, component: 'Button', props: { label: 'Go', onClick: { action: 'increment', path: '/count' } }, visible: { gt: [{ path: '/count' }, 1] } }),
      add({ id: `ch${i}`, component: 'Chart', props: { kind: i % 2 ? 'bar' : 'line', series: { path: '/series' } } }),
    ];
    rootKids.push(add({ id: `c${i}`, component: 'Card', props: { title: `Card ${i}` }, children: kids }));
  }
  for (let k = 0; Object.keys(components).length < 199; k++) rootKids.push(add({ id: `sp${k}`, component: 'Divider' }));
  components['root'] = { id: 'root', component: 'Grid', props: { columns: 3 }, children: rootKids };
  const series = Array.from({ length: 12 }, (_, k) => ({ label: `m${k}`, value: (k * 37) % 11 }));
  return { id, kind: 'surface', catalog: 'weft@1', components, data: { title: 'Dashboard', count: 42, series } };
}

function stats(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return `median ${at(0.5).toFixed(3)} ms, p99 ${at(0.99).toFixed(3)} ms (n=${s.length})`;
}

function time(fn: () => unknown, n: number, warmup = 50): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const one = surface('s0');
const draft: Draft = { id: 'bench', title: 'Bench', order: [], sections: {} };
for (let k = 0; k < 30; k++) {
  const s = k === 0 ? one : surface(`s${k}`);
  draft.sections[s.id] = s;
  draft.order.push(s.id);
}
const count = Object.keys(one.components).length;
const probe = renderSection(draft, 's0');
console.log(`section: ${count} components, ${(probe.html.length / 1024).toFixed(1)} KiB HTML, ${probe.notes.length} notes`);
console.log(`renderSection (1 changed section): ${stats(time(() => renderSection(draft, 's0'), 1000))}`);
console.log(`renderSection, checkProps off:    ${stats(time(() => renderSection(draft, 's0', { checkProps: false }), 1000))}`);
const page = renderDraft(draft);
console.log(`page: 30 sections, ${30 * count} components, ${(page.html.length / 1024).toFixed(0)} KiB HTML`);
console.log(`renderDraft (whole 30-section page): ${stats(time(() => renderDraft(draft), 50, 5))}`);
console.log(`renderDraft, checkProps off:         ${stats(time(() => renderDraft(draft, { checkProps: false }), 50, 5))}`);
