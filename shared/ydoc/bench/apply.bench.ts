// Cost of the mirror on the hot path (PERFORMANCE.md B1): ops → one Y transaction (+ encode), the
// peer side (apply update + events → ops), and the guard (tryUpdate + commit / revert).
// Run: npx tsx shared/ydoc/bench/apply.bench.ts
import os from 'node:os';
import * as Y from 'yjs';
import type { Op } from '@weft/core';
import { draftToYDoc } from '../src/mirror.ts';
import { applyOpsToYDoc } from '../src/apply-ops.ts';
import { observeDraftOps } from '../src/events-to-ops.ts';
import { UpdateGuard, createShadow } from '../src/update-guard.ts';
import { benchDraft } from './fixture.ts';

const d = benchDraft();
const textOp = (i: number): Op => {
  const n = 1 + (i % 199);
  return { op: 'replace', path: `/sections/main/components/c-${n}/props/${n % 3 === 2 ? 'label' : 'text'}`, value: `edit ${i}` };
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

function run(label: string, n: number, f: (i: number) => void) {
  for (let i = 0; i < Math.min(1000, n); i++) f(i); // warm-up
  const t: number[] = [];
  for (let i = 0; i < n; i++) { const s = performance.now(); f(i); t.push(performance.now() - s); }
  console.log(`${label.padEnd(52)} p50 ${us(pct(t, 0.5)).padStart(9)}  p99 ${us(pct(t, 0.99)).padStart(9)}  max ${us(Math.max(...t)).padStart(9)}`);
}

console.log(`# mirror hot path — ${os.cpus()[0]?.model ?? '?'}, nproc ${os.cpus().length}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}, node ${process.version}`);
for (let rep = 0; rep < 2; rep++) {
  const live = new Y.Doc(); draftToYDoc(d, live);
  let bytes = 0;
  live.on('update', (u: Uint8Array) => { bytes += u.length; });
  run('applyOpsToYDoc, 1 op per transaction (+ update)', 10_000, (i) => applyOpsToYDoc(live, [textOp(i)]));
  run('applyOpsToYDoc, 20 ops per transaction (whole tx)', 500, (i) => applyOpsToYDoc(live, Array.from({ length: 20 }, (_, j) => textOp(i * 20 + j))));
  console.log(`  update bytes per op ≈ ${(bytes / (10_000 + 1000 + 500 * 20 + 500 * 20)).toFixed(0)}`);

  const a = new Y.Doc(); draftToYDoc(d, a);
  const peer = new Y.Doc(); Y.applyUpdate(peer, Y.encodeStateAsUpdate(a));
  let got = 0;
  observeDraftOps(peer, (ops) => { got += ops.length; });
  const ups: Uint8Array[] = [];
  a.on('update', (u: Uint8Array) => ups.push(u));
  for (let i = 0; i < 12_000; i++) applyOpsToYDoc(a, [textOp(i)]);
  run('peer: applyUpdate + events → ops', 11_000, (i) => Y.applyUpdate(peer, ups[i]!));
  if (got < 11_000) throw new Error('ops missing');

  const live2 = new Y.Doc(); draftToYDoc(d, live2);
  const author = new Y.Doc(); Y.applyUpdate(author, Y.encodeStateAsUpdate(live2));
  const guard = new UpdateGuard(createShadow(live2));
  const aups: Uint8Array[] = [];
  author.on('update', (u: Uint8Array) => aups.push(u));
  for (let i = 0; i < 6000; i++) applyOpsToYDoc(author, [textOp(i)]);
  let k = 0;
  run('guard: tryUpdate + commit (accepted)', 2000, () => { const u = aups[k++]!; guard.tryUpdate(u); guard.commit(); Y.applyUpdate(live2, u); });
  run('guard: tryUpdate + revert + mergeUpdates (refused)', 1000, () => {
    const u = aups[k++]!; guard.tryUpdate(u); const inv = guard.revert(); Y.applyUpdate(live2, Y.mergeUpdates([u, inv]));
  });
}
