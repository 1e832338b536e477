// What a page fault costs on this box (RESULTS.md "Machine"): fills fresh memory and divides the
// time by the minor faults it took. On the 2-core VMs it was 11–14 µs a fault (bare metal: well
// under 1 µs), which is why Postgres keeps large blocks in its heap (GLIBC_TUNABLES, README) and
// replay pages stay under V8's 128 KB large-object size (shared/store/src/load-draft.ts).
//   npx tsx load-tests/bench/page-faults.ts [--mb 256]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '256' } } });
const bytes = Number(values.mb) * 2 ** 20;
console.log(`load ${loadavg().map((x) => x.toFixed(2)).join(' ')}; node ${process.version}`);
// The same fill over memory already mapped: the part of the time that is not faulting.
const warm = Buffer.alloc(bytes, 0xff); // faulted in here, once
for (let rep = 0; rep < 3; rep++) {
  let t = performance.now();
  warm.fill(rep + 1);
  const fillMs = performance.now() - t;
  const before = process.resourceUsage().minorPageFault;
  t = performance.now();
  const fresh = Buffer.alloc(bytes, rep + 1);
  const ms = performance.now() - t;
  const faults = process.resourceUsage().minorPageFault - before;
  console.log(`${values.mb} MB: fresh ${ms.toFixed(0)} ms (${faults.toLocaleString('en')} minor faults), already mapped ${fillMs.toFixed(0)} ms → ${(((ms - fillMs) * 1000) / faults).toFixed(2)} µs a fault`);
  fresh[0] = 0;
}
