// Where a heap delta went, from two V8 heap snapshots (v8.writeHeapSnapshot): compiled code and
// other V8 code objects (one-off for the process, not per draft), and the bytes retained
// (dominator tree, weak edges ignored) by instances of chosen classes. memory.bench.ts --breakdown
// prints it per draft; a helper for benches, not part of the service.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface HeapSummary {
  /** Self bytes of nodes of type `code` (bytecode, machine code, feedback vectors, …). */
  code: number;
  /** All self bytes reachable from the roots. */
  total: number;
  /** Retained bytes of the instances of each class asked for, and how many there are. */
  retained: Map<string, { bytes: number; count: number }>;
}

/** Reads a snapshot and sums what `classes` (constructor names) retain; nested instances are not counted twice. */
export function summarize(file: string, classes: readonly string[]): HeapSummary {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const m = s.snapshot.meta;
  const nf = m.node_fields.length;
  const ef = m.edge_fields.length;
  const [iType, iName, iSize, iEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => m.node_fields.indexOf(f)) as [number, number, number, number];
  const [eType, eTo] = ['type', 'to_node'].map((f) => m.edge_fields.indexOf(f)) as [number, number];
  const nodeTypes = m.node_types[0];
  const skip = new Set(['weak', 'shortcut'].map((t) => m.edge_types[0].indexOf(t)));
  const { nodes, edges, strings } = s;
  const n = nodes.length / nf;
  const first = new Uint32Array(n + 1);
  for (let i = 0, e = 0; i < n; i++) { first[i] = e; e += nodes[i * nf + iEdges]! * ef; }
  first[n] = edges.length;
  const each = (v: number, f: (w: number) => void): void => {
    for (let e = first[v]!; e < first[v + 1]!; e += ef) if (!skip.has(edges[e + eType]!)) f(edges[e + eTo]! / nf);
  };
  // Depth-first post order from the root (node 0), iteratively.
  const post = new Int32Array(n).fill(-1);
  const order: number[] = [];
  const seen = new Uint8Array(n);
  const stack: number[] = [0];
  const cursor: number[] = [first[0]!];
  seen[0] = 1;
  while (stack.length > 0) {
    const v = stack[stack.length - 1]!;
    let e = cursor[cursor.length - 1]!;
    let pushed = false;
    while (e < first[v + 1]!) {
      const w = edges[e + eTo]! / nf;
      const t = edges[e + eType]!;
      e += ef;
      if (skip.has(t) || seen[w]) continue;
      seen[w] = 1;
      cursor[cursor.length - 1] = e;
      stack.push(w);
      cursor.push(first[w]!);
      pushed = true;
      break;
    }
    if (!pushed) { stack.pop(); cursor.pop(); post[v] = order.length; order.push(v); }
  }
  const preds: number[][] = Array.from({ length: n }, () => []);
  for (const v of order) each(v, (w) => preds[w]!.push(v));
  // Immediate dominators (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm").
  const idom = new Int32Array(n).fill(-1);
  idom[0] = 0;
  const meet = (a: number, b: number): number => {
    while (a !== b) {
      while (post[a]! < post[b]!) a = idom[a]!;
      while (post[b]! < post[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let k = order.length - 2; k >= 0; k--) {
      const v = order[k]!;
      let d = -1;
      for (const p of preds[v]!) if (idom[p]! >= 0) d = d < 0 ? p : meet(p, d);
      if (d >= 0 && idom[v] !== d) { idom[v] = d; changed = true; }
    }
  }
  const retained = new Float64Array(n);
  let code = 0;
  let total = 0;
  for (const v of order) {
    const self = nodes[v * nf + iSize]!;
    retained[v]! += self;
    total += self;
    if (nodeTypes[nodes[v * nf + iType]!] === 'code') code += self;
    if (v !== 0) retained[idom[v]!]! += retained[v]!;
  }
  const wanted = new Set(classes);
  const cls = (v: number): string | null => {
    if (nodeTypes[nodes[v * nf + iType]!] !== 'object') return null;
    const name = strings[nodes[v * nf + iName]!]!;
    return wanted.has(name) ? name : null;
  };
  const out = new Map(classes.map((c) => [c, { bytes: 0, count: 0 }]));
  // Count an instance only if no dominator above it is one of the classes (no double counting).
  const inside = new Uint8Array(n);
  for (let k = order.length - 1; k >= 0; k--) {
    const v = order[k]!;
    const up = v === 0 ? 0 : inside[idom[v]!]!;
    const c = cls(v);
    if (c && !up) { const o = out.get(c)!; o.bytes += retained[v]!; o.count++; }
    inside[v] = up || (c ? 1 : 0);
  }
  return { code, total, retained: out };
}
