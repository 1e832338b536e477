import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@weft/testing';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs `npm start`'s launcher as a child process (its own event loop, killable with SIGKILL). */
export async function spawnLauncher(env: Record<string, string>, port?: number): Promise<ServiceProcess> {
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'services/launcher/src/start.ts')], {
    cwd: ROOT,
    env: { ...process.env, WEFT_DATA_DIR: mkdtempSync(join(tmpdir(), 'weft-data-')), ...env, PORT: String(p) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
  const url = `http://127.0.0.1:${p}`;
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`launcher exited ${child.exitCode}:\n${out}`);
    if (out.includes('Weft is running at')) break;
    if (Date.now() - t0 > 60_000) throw new Error(`launcher did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url, child, output: () => out,
    kill: (signal = 'SIGTERM') => new Promise<void>((r) => {
      if (child.exitCode !== null || child.signalCode !== null) return r();
      child.once('exit', () => r());
      child.kill(signal);
    }),
  };
}
