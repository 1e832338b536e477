// Snapshot fold cost per draft (PERFORMANCE.md B8: target < 2 ms) and checkpoints/s on one core,
// without Postgres I/O: `npx tsx services/checkpointer/bench/snapshot.bench.ts`
//  cold  — foldSnapshot: decode the stored state, apply the tail, encode (after a restart, or for an
//          evicted draft);
//  warm  — the worker's steady state: a DraftFold already open at the previous snapshot, advanced
//          by the tail (one transaction) and encoded once;
//  merge — Y.mergeUpdates([state, ...tail]) without a doc (considered; keeps deleted content, no GC,
//          and cannot tell a broken chain).
// Measured at two history lengths: Yjs keeps one struct per overwritten map value, so the state
// (and its encode) grows with the number of edits until an epoch change compacts it.
import os from 'node:os';
import * as Y from 'yjs';
import type { Op } from '@weft/core';
import { applyOpsToYDoc } from '@weft/ydoc';
import { DraftFold, foldSnapshot, yBaseOf } from '../src/fold.ts';
import type { PrevSnapshot, TailStep } from '../src/fold.ts';
import { genesis } from '@weft/ydoc';

const TAIL = 50;
const doc = new Y.Doc();
Y.applyUpdate(doc, genesis('bench', 0));
const steps: TailStep[] = [];
const add = (ops: Op[]): void => {
  const sv = Y.encodeStateVector(doc);
  applyOpsToYDoc(doc, ops);
  steps.push({ version: steps.length + 1, ops, yUpdate: Y.encodeStateAsUpdate(doc, sv) });
};
const edit = (i: number): void => add([{ op: 'replace', path: `/sections/s${i % 10}/components/c${(i * 7) % 10}/props/text`, value: `edit ${i}` }]);
add([{ op: 'replace', path: '/title', value: 'Bench' }]);
for (let s = 0; s < 10; s++) {
  add([{ op: 'add', path: `/sections/s${s}`, value: { id: `s${s}`, kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: [] } } } }, { op: 'add', path: '/order/-', value: `s${s}` }]);
  for (let c = 0; c < 10; c++) add([{ op: 'add', path: `/sections/s${s}/components/c${c}`, value: { id: `c${c}`, component: 'Text', props: { text: `text ${s}.${c}` } } }, { op: 'add', path: `/sections/s${s}/components/root/children/-`, value: `c${c}` }]);
}
const built = steps.length;
for (let i = 0; i < 2000 + TAIL; i++) edit(i);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
function run(name: string, n: number, setup: () => unknown, f: (ctx: never) => void): number {
  const xs: number[] = [];
  for (let i = 0; i < n + 30; i++) {
    const ctx = setup();
    const t0 = performance.now();
    f(ctx as never);
    if (i >= 30) xs.push(performance.now() - t0);
  }
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`  ${name.padEnd(6)} median ${median(xs).toFixed(3)} ms  p95 ${p95(xs).toFixed(3)} ms  mean ${mean.toFixed(3)} ms  ≈ ${Math.round(1000 / median(xs))} snapshots/s/core (median)`);
  return median(xs);
}

function at(head: number, n: number): number {
  const base = foldSnapshot('bench', 0, null, steps.slice(0, head - TAIL));
  if (base.yState === null) throw new Error(`bench lineage broken: ${base.yNote}`);
  const prev: PrevSnapshot = { version: base.version, epoch: 0, doc: base.doc as never, yState: base.yState };
  const tail = steps.slice(head - TAIL, head);
  console.log(`history ${head} steps (stored state ${base.yState.length} B), tail ${TAIL} steps:`);
  run('cold', n, () => null, () => { foldSnapshot('bench', 0, prev, tail); });
  // Opening the fold (untimed) is the cold cost, paid once while the draft stays in the cache.
  const warm = run('warm', n, () => new DraftFold('bench', 0, prev, yBaseOf('bench', 0, prev)), (f: DraftFold) => { f.advance(tail); f.result(); f.dispose(); });
  run('merge', n, () => null, () => { Y.mergeUpdates([prev.yState!, ...tail.map((s) => s.yUpdate as Uint8Array)]); });
  return warm;
}

console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`draft: 10 sections × 11 components (${built} steps to build), then prop edits`);
const short = at(built + TAIL, 300);
const long = at(steps.length, 100);
console.log(`target < 2 ms per snapshot (warm): ${short < 2 && long < 2 ? 'met' : 'MISSED'} (${short.toFixed(3)} / ${long.toFixed(3)} ms); load average now ${os.loadavg()[0]!.toFixed(2)}`);
