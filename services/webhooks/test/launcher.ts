// The launcher (`npm start`) as a child process on a test database: killable with SIGKILL, like
// a crashed node, and started again on the same rows.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@weft/testing';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

export interface Launched {
  url: string;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function launch(env: Record<string, string>): Promise<Launched> {
  const port = await freePort();
  const childEnv: Record<string, string | undefined> = { ...process.env, WEFT_DATA_DIR: mkdtempSync(join(tmpdir(), 'weft-hooks-')), ...env, PORT: String(port) };
  delete childEnv['NATS_URL'];
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'services/launcher/src/start.ts')], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`launcher exited ${child.exitCode}:\n${out}`);
    if (out.includes('Weft is running at')) break;
    if (i > 1200) {
      child.kill('SIGKILL');
      throw new Error(`launcher did not start in 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`, output: () => out,
    kill: (signal = 'SIGTERM') => new Promise<void>((r) => {
      if (child.exitCode !== null || child.signalCode !== null) return r();
      child.once('exit', () => r());
      child.kill(signal);
    }),
  };
}
