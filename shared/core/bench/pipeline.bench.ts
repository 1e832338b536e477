// B1 (PERFORMANCE.md): validated ops/s through applyStep on a 200-component surface with 64 KB of
// data; replace ops of props, 10 % invalid. Run: npm run bench:core
import { cpus, loadavg } from 'node:os';
import { applyStep, emptyDraft, validateDraft } from '../src/index.ts';
import type { Draft, Op } from '../src/index.ts';

function buildDraft(): Draft {
  const d = emptyDraft('bench');
  const components: Draft['sections'][string]['components'] = { root: { id: 'root', component: 'Stack', children: [] } };
  // 199 more: 19 Stacks under root, 9 leaves under each (Heading/Text/Badge alternating).
  let n = 1;
  for (let g = 0; g < 19 && n < 200; g++) {
    const gid = `g${g}`;
    components[gid] = { id: gid, component: 'Stack', props: { gap: 'md' }, children: [] };
    components['root']!.children!.push(gid);
    n++;
    for (let k = 0; k < 9 && n < 200; k++) {
      const id = `c${g}-${k}`;
      const kind = k % 3;
      components[id] = kind === 0
        ? { id, component: 'Heading', props: { text: `Heading ${id}`, level: 2 } }
        : kind === 1 ? { id, component: 'Text', props: { text: { path: '/copy/0' }, tone: 'muted' } }
        : { id, component: 'Badge', props: { text: 'New', tone: 'info' } };
      components[gid]!.children!.push(id);
      n++;
    }
  }
  const copy: string[] = [];
  while (JSON.stringify(copy).length < 64 * 1024 - 400) copy.push('lorem ipsum dolor sit amet '.repeat(4));
  d.sections['main'] = { id: 'main', kind: 'surface', catalog: 'weft@1', components, data: { copy } };
  d.order.push('main');
  const v = validateDraft(d);
  if (v.refusals.length) throw new Error('bench draft invalid: ' + JSON.stringify(v.refusals[0]));
  return d;
}

function makeOps(d: Draft, n: number): Op[] {
  const ids = Object.keys(d.sections['main']!.components).filter((k) => k.startsWith('c'));
  const ops: Op[] = [];
  for (let i = 0; i < n; i++) {
    const id = ids[i % ids.length]!;
    const comp = d.sections['main']!.components[id]!.component;
    const invalid = i % 10 === 9;
    const path = `/sections/main/components/${id}/props/`;
    if (comp === 'Heading') ops.push({ op: 'replace', path: path + 'level', value: invalid ? 9 : (i % 6) + 1 });
    else if (comp === 'Text') ops.push({ op: 'replace', path: path + 'text', value: invalid ? 42 : `Text ${i}` });
    else ops.push({ op: 'replace', path: path + 'tone', value: invalid ? 'purple-ish' : i % 2 ? 'success' : 'info' });
  }
  // Ops arrive as parsed JSON (flat strings), not as template-literal cons strings.
  return JSON.parse(JSON.stringify(ops)) as Op[];
}

// Wall-clock ops/s and ops per CPU-second of this process: on a shared 2-core box under load the
// second is the fairer "per core" figure (PERFORMANCE.md); both are printed.
function run(stepSize: number, n: number): { opsPerSec: number; opsPerCpuSec: number; refused: number } {
  const d = buildDraft();
  const ops = makeOps(d, n);
  let refused = 0;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ops.length; i += stepSize) {
    const r = applyStep(d, ops.slice(i, i + stepSize));
    refused += r.refused.length;
  }
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const cu = process.cpuUsage(c0);
  return { opsPerSec: n / secs, opsPerCpuSec: n / ((cu.user + cu.system) / 1e6), refused };
}

function report(label: string, stepSize: number, n: number): void {
  run(stepSize, Math.min(n, 20_000)); // warm-up
  const rates: number[] = [];
  const cpuRates: number[] = [];
  let refused = 0;
  for (let i = 0; i < 5; i++) {
    const r = run(stepSize, n);
    rates.push(r.opsPerSec);
    cpuRates.push(r.opsPerCpuSec);
    refused = r.refused;
  }
  const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
  const summary = (xs: number[]) => {
    xs.sort((a, b) => a - b);
    const med = xs[2]!;
    return `median ${fmt(med)} (min ${fmt(xs[0]!)}, max ${fmt(xs[4]!)}, spread ±${(((xs[4]! - xs[0]!) / 2 / med) * 100).toFixed(1)} %)`;
  };
  console.log(`${label}: wall ${summary(rates)} validated ops/s; per CPU-second ${summary(cpuRates)}; ${refused}/${n} refused per run`);
}

const N = Number(process.argv[2] ?? 100_000);
console.log(`machine: ${cpus()[0]?.model ?? '?'} × ${cpus().length}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}, node ${process.version}`);
report('1 op per step ', 1, N);
report('20 ops per step', 20, N);
