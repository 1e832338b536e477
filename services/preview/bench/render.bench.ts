// Render time per changed section: `npx tsx services/preview/bench/render.bench.ts`
import { LiveDraft } from '../src/live-draft.ts';
import { emptyDraft } from '@weft/core';

const live = new LiveDraft('bench', emptyDraft('bench'), 0, Date.now());
let v = 0;
for (let s = 0; s < 10; s++) {
  const comps: Record<string, unknown> = { root: { id: 'root', component: 'Stack', children: [] as string[] } };
  for (let c = 0; c < 20; c++) {
    comps[`c${c}`] = { id: `c${c}`, component: c % 2 ? 'Text' : 'Heading', props: { text: `Section ${s} **item** ${c}` } };
    (comps['root'] as { children: string[] }).children.push(`c${c}`);
  }
  live.apply(++v, [{ op: 'add', path: `/sections/s${s}`, value: { id: `s${s}`, kind: 'surface', catalog: 'weft@1', data: {}, components: comps } as never }, { op: 'add', path: '/order/-', value: `s${s}` }]);
}
const N = 2000;
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const sid = `s${i % 10}`;
  live.apply(++v, [{ op: 'replace', path: `/sections/${sid}/components/c1/props/text`, value: `edit ${i}` }]);
  live.fragment(sid);
}
const ms = (performance.now() - t0) / N;
console.log(`apply + re-render one changed section (21 components): ${ms.toFixed(3)} ms per change; renders=${live.renders}`);
