// Export to code, measured: bytes and time of the html and react exports of a 200-component page
// (10 sections × 20 components: headings, text, toggles, sliders, stats, buttons; bound data).
// Run: npx tsx shared/render/bench/export.bench.ts
import { cpus, loadavg } from 'node:os';
import type { Component, Draft } from '@weft/core';
import { exportDraft, runtimeScript } from '../src/index.ts';

function page(): Draft {
  const d: Draft = { id: 'bench', title: 'Bench', order: [], sections: {} };
  for (let s = 0; s < 10; s++) {
    const id = `s${s}`;
    const components: Record<string, Component> = { root: { id: 'root', component: 'Stack', children: [] } };
    for (let i = 0; i < 19; i++) {
      const c = `c${i}`;
      const kind = i % 6;
      components[c] = kind === 0 ? { id: c, component: 'Heading', props: { text: `Section ${s} part ${i}`, level: 2 } }
        : kind === 1 ? { id: c, component: 'Text', props: { text: { call: 'concat', args: { parts: ['Plan: ', { path: '/plan' }] } } } }
        : kind === 2 ? { id: c, component: 'Toggle', props: { options: ['a', 'b'], value: { path: '/plan' } } }
        : kind === 3 ? { id: c, component: 'Slider', props: { min: 1, max: 10, value: { path: '/n' } } }
        : kind === 4 ? { id: c, component: 'Stat', props: { label: 'Total', value: { call: 'multiply', args: { a: { path: '/n' }, b: 3 } } } }
        : { id: c, component: 'Button', props: { label: 'More', onClick: { action: 'increment', path: '/n' } } };
      components['root']!.children!.push(c);
    }
    d.sections[id] = { id, kind: 'surface', catalog: 'weft@1', components, data: { plan: 'a', n: 2 } };
    d.order.push(id);
  }
  return d;
}

const draft = page();
const runtime = (await runtimeScript()).body;
console.log(`export bench: 10 sections × 20 components; node ${process.version}, ${cpus().length} cpus, load ${loadavg()[0]!.toFixed(2)}`);
for (const format of ['html', 'react'] as const) {
  exportDraft(format, { draft, version: 1, runtime }); // warm
  const runs = 50;
  const t0 = performance.now();
  let files = exportDraft(format, { draft, version: 1, runtime }).files;
  for (let i = 1; i < runs; i++) files = exportDraft(format, { draft, version: 1, runtime }).files;
  const ms = (performance.now() - t0) / runs;
  const sizes = files.map((f) => `${f.path} ${(Buffer.byteLength(f.text) / 1024).toFixed(1)} KB`).join(', ');
  console.log(`${format.padEnd(5)} ${ms.toFixed(2)} ms per export (mean of ${runs}); ${sizes}`);
}
