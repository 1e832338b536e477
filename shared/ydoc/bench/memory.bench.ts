// B9 memory per open draft (PERFORMANCE.md): heap per Y.Doc after GC, for the mapping we ship
// (props as one JSON value per component) against props as a Y.Map per component, beside the
// plain JSON mirror of the same draft. Interleaved A B C, repeated; medians and spread printed.
// Run: node --expose-gc --import tsx shared/ydoc/bench/memory.bench.ts
import os from 'node:os';
import * as Y from 'yjs';
import type { Draft, Json, Op } from '@weft/core';
import { draftToYDoc } from '../src/mirror.ts';
import { applyOpsToYDoc } from '../src/apply-ops.ts';
import { createShadow } from '../src/update-guard.ts';
import { JSON_SHAPE, LIST, type Shape, toY } from '../src/shape.ts';
import { benchDraft } from './fixture.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc --import tsx');
const N = 40;
const REPEATS = 5;

// Variant B: the same flat mapping, but props as a Y.Map of prop name → JSON value.
const COMPONENT_B: Shape = { t: 'struct', fields: { component: JSON_SHAPE, props: { t: 'dict', of: JSON_SHAPE }, children: LIST, visible: JSON_SHAPE } };
const SECTION_B: Shape = {
  t: 'struct',
  fields: { kind: JSON_SHAPE, catalog: JSON_SHAPE, components: { t: 'dict', of: COMPONENT_B }, data: { t: 'dict', of: JSON_SHAPE }, style: JSON_SHAPE },
};
// Variant C (for reference, not shippable as is): each component one JSON value — no field merges,
// and concurrent edits to one parent's children would be last-writer-wins.
const SECTION_C: Shape = { t: 'struct', fields: { ...(SECTION_B as { fields: Record<string, Shape> }).fields, components: { t: 'dict', of: JSON_SHAPE } } };
function withSection(d: Draft, section: Shape): Y.Doc {
  const doc = new Y.Doc();
  doc.transact(() => {
    doc.getMap('meta').set('title', d.title);
    doc.getMap('meta').set('epoch', 0);
    doc.getArray('order').push(d.order);
    for (const [sid, s] of Object.entries(d.sections)) doc.getMap('sections').set(sid, toY(section, s as unknown as Json));
  });
  return doc;
}
function propsAsMaps(d: Draft): Y.Doc {
  return withSection(d, SECTION_B);
}
function shipped(d: Draft): Y.Doc {
  const doc = new Y.Doc();
  draftToYDoc(d, doc);
  return doc;
}
function afterOps(d: Draft, n: number): Y.Doc {
  const doc = shipped(d);
  const ids = Object.keys(d.sections['main']!.components).filter((c) => c !== 'root');
  for (let i = 0; i < n; i++) {
    const cid = ids[i % ids.length]!;
    const op: Op = { op: 'replace', path: `/sections/main/components/${cid}/props/${Number(cid.slice(2)) % 3 === 2 ? 'label' : 'text'}`, value: `edit ${i}` };
    applyOpsToYDoc(doc, [op]);
  }
  return doc;
}

function heapPer(make: () => unknown): number {
  make();
  gc!(); gc!();
  const before = process.memoryUsage().heapUsed;
  const keep: unknown[] = [];
  for (let i = 0; i < N; i++) keep.push(make());
  gc!(); gc!();
  const after = process.memoryUsage().heapUsed;
  if (keep.length !== N) throw new Error('unreachable');
  return (after - before) / N / 1024;
}

const d = benchDraft();
const bare = benchDraft('bare', 200, 0); // the same components, no data: the per-component cost
const variants: [string, () => unknown][] = [
  ['no data: JSON mirror', () => structuredClone(bare)],
  ['no data: Y.Doc shipped', () => shipped(bare)],
  ['no data: Y.Doc props as Y.Map', () => propsAsMaps(bare)],
  ['no data: Y.Doc component as one JSON', () => withSection(bare, SECTION_C)],
  ['JSON mirror (structuredClone)', () => structuredClone(d)],
  ['Y.Doc, props one JSON value (shipped)', () => shipped(d)],
  ['Y.Doc, props as Y.Map', () => propsAsMaps(d)],
  ['Y.Doc shipped + guard shadow', () => { const l = shipped(d); return [l, createShadow(l)]; }],
  ['Y.Doc shipped after 10k prop replaces', () => afterOps(d, 10_000)],
];
const results = new Map<string, number[]>(variants.map(([n]) => [n, []]));
for (let r = 0; r < REPEATS; r++) for (const [name, make] of variants) results.get(name)!.push(heapPer(make));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`# B9 memory per open draft — ${os.cpus()[0]?.model ?? '?'}, nproc ${os.cpus().length}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}, node ${process.version}, yjs 13.6.33`);
console.log(`# draft: ${Object.keys(d.sections['main']!.components).length} components, ${JSON.stringify(d.sections['main']!.data).length} B data, ${JSON.stringify(d).length} B JSON; ${N} docs per sample, ${REPEATS} samples`);
const base = median(results.get('JSON mirror (structuredClone)')!);
for (const [name] of variants) {
  const xs = results.get(name)!;
  console.log(`${name.padEnd(40)} median ${median(xs).toFixed(1).padStart(7)} KB  (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})  ×${(median(xs) / (name.startsWith('no data') ? median(results.get('no data: JSON mirror')!) : base)).toFixed(2)} of its JSON`);
}
console.log(`encoded state: shipped ${Y.encodeStateAsUpdate(shipped(d)).length} B, props as Y.Map ${Y.encodeStateAsUpdate(propsAsMaps(d)).length} B, after 10k replaces ${Y.encodeStateAsUpdate(afterOps(d, 10_000)).length} B`);
