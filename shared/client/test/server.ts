// A running Weft for the SDK's and CLI's end-to-end tests: `npm start`'s launcher as a child
// process on the embedded PGlite, on a free port, with a known admin token.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@weft/testing';

export const ROOT = resolve(import.meta.dirname, '..', '..', '..');

export interface TestServer { url: string; admin: string; output(): string; stop(): Promise<void> }

export async function startServer(): Promise<TestServer> {
  const admin = `wft_admin_${randomBytes(12).toString('hex')}`;
  const port = await freePort();
  let out = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'services/launcher/src/start.ts')], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', WEFT_ADMIN_TOKEN: admin, WEFT_DATA_DIR: mkdtempSync(join(tmpdir(), 'weft-client-data-')), DATABASE_URL: '', NATS_URL: '', WEFT_SERVICES: '' },
  });
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; !(await fetch(`${url}/readyz`).then((r) => r.ok, () => false)); i++) {
    if (child.exitCode !== null || i > 900) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url, admin, output: () => out,
    stop: () => new Promise<void>((r) => {
      if (child.exitCode !== null) return r();
      child.once('exit', () => r());
      child.kill('SIGTERM');
    }),
  };
}
