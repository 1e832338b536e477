// The machine a benchmark ran on, printed first so figures can be compared honestly.
import { cpus, loadavg } from 'node:os';

export function machineLine(): string {
  const c = cpus();
  return `machine: ${c[0]?.model ?? 'unknown cpu'} × ${c.length} (nproc); loadavg ${loadavg().map((x) => x.toFixed(2)).join(' ')}; node ${process.version}`;
}
