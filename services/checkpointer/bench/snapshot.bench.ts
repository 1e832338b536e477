// Snapshot fold cost per draft (target < 2 ms) and checkpoints/s on one core, without I/O:
// `npx tsx services/checkpointer/bench/snapshot.bench.ts`
import * as Y from 'yjs';
import type { Op } from '@weft/core';
import { applyOpsToYDoc } from '@weft/ydoc';
import { foldSnapshot } from '../src/fold.ts';
import type { TailStep } from '../src/fold.ts';

const doc = new Y.Doc();
const steps: TailStep[] = [];
const add = (ops: Op[]): void => {
  const sv = Y.encodeStateVector(doc);
  applyOpsToYDoc(doc, ops);
  steps.push({ version: steps.length + 1, ops, yUpdate: Y.encodeStateAsUpdate(doc, sv) });
};
add([{ op: 'add', path: '/title', value: 'Bench' }]);
for (let s = 0; s < 10; s++) {
  add([{ op: 'add', path: `/sections/s${s}`, value: { id: `s${s}`, kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: [] } } } }, { op: 'add', path: '/order/-', value: `s${s}` }]);
  for (let c = 0; c < 10; c++) add([{ op: 'add', path: `/sections/s${s}/components/c${c}`, value: { id: `c${c}`, component: 'Text', props: { text: `text ${s}.${c}` } } }, { op: 'add', path: `/sections/s${s}/components/root/children/-`, value: `c${c}` }]);
}
const base = foldSnapshot('bench', 0, null, steps.slice(0, steps.length - 50));
const prev = { version: base.version, epoch: 0, doc: base.doc as never, yState: base.yState };
const tail = steps.slice(steps.length - 50);
for (let i = 0; i < 50; i++) foldSnapshot('bench', 0, prev, tail);
const N = 500;
const t0 = performance.now();
for (let i = 0; i < N; i++) foldSnapshot('bench', 0, prev, tail);
const ms = (performance.now() - t0) / N;
console.log(`draft: 10 sections × 11 components; snapshot = previous (JSON + Yjs) + 50-step tail`);
console.log(`fold per snapshot: ${ms.toFixed(3)} ms (target < 2 ms); ≈ ${Math.round(1000 / ms)} checkpoints/s/core (excluding Postgres I/O)`);
