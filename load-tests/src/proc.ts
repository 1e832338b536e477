// Child processes of the harness: Weft services through the launcher, and load generators.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => res(port));
    });
  });
}

export interface ServiceProcess {
  readonly name: string;
  url: string;
  child: ChildProcess;
  readonly pid: number;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
  alive(): boolean;
}

/** `npm start`'s launcher with WEFT_SERVICES=<services>, as its own process on `port`. */
export async function spawnLauncher(name: string, env: Record<string, string>, port?: number): Promise<ServiceProcess> {
  const p = port ?? (await freePort());
  // The node flags of `npm start` and the image (young generation size, infra/docker/Dockerfile).
  // BENCH_SERVICE_FLAGS: more node flags for the services, to compare settings side by side.
  const extra = (process.env['BENCH_SERVICE_FLAGS'] ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, ['--max-semi-space-size=64', ...extra, '--import', 'tsx', join(ROOT, 'services/launcher/src/start.ts')], {
    cwd: ROOT,
    env: { ...process.env, WEFT_DATA_DIR: mkdtempSync(join(tmpdir(), 'weft-load-')), ...env, PORT: String(p) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer): void => { out = (out + d.toString()).slice(-20_000); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode}:\n${out}`);
    if (out.includes('Weft is running at')) break;
    if (Date.now() - t0 > 120_000) { child.kill('SIGKILL'); throw new Error(`${name} did not start:\n${out}`); }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    name, url: `http://127.0.0.1:${p}`, child,
    get pid() { return child.pid ?? 0; },
    output: () => out,
    alive: () => child.exitCode === null && child.signalCode === null,
    kill: (signal = 'SIGTERM') => new Promise<void>((r) => {
      if (child.exitCode !== null || child.signalCode !== null) return r();
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => { clearTimeout(t); r(); });
      child.kill(signal);
    }),
  };
}

/** A TypeScript entry point as a child with an IPC channel (load generators, baselines). */
export function spawnTs(file: string, args: string[] = [], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--expose-gc', '--import', 'tsx', file, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}
