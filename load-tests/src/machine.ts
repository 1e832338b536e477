// What the figures were measured on (PERFORMANCE.md: print the machine first).
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';

export interface Machine { cpu: string; nproc: number; memGiB: number; load: number[]; node: string; postgres: string; nats: string }

const run = (cmd: string, args: string[]): string => {
  try { return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { return 'unknown'; }
};

export function machine(pgBin?: string): Machine {
  return {
    cpu: cpus()[0]?.model ?? 'unknown', nproc: cpus().length, memGiB: Math.round(totalmem() / 2 ** 30),
    load: loadavg().map((x) => Math.round(x * 100) / 100), node: process.version,
    postgres: pgBin ? run(`${pgBin}/postgres`, ['--version']) : 'unknown',
    nats: run('nats-server', ['--version']),
  };
}
