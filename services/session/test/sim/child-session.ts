// The session service as a child process (the `npm start` launcher) on a given Postgres database
// and a fixed port, so that it can be SIGKILLed and started again where peers reconnect.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');

export interface ChildSession {
  readonly url: string;
  readonly port: number;
  /** The running child (replaced by start()). */
  readonly proc: ChildProcess | null;
  start(): Promise<void>;
  /** SIGKILL, then wait for the exit: no drain, no goodbye. */
  kill9(): Promise<void>;
  /** SIGTERM (or SIGKILL after 5 s) and remove the data dir. */
  stop(): Promise<void>;
  output(): string;
}

export function childSession(o: { databaseUrl: string; port: number; adminToken: string; env?: Record<string, string>; /** node flags before the entry (npm start's: --max-semi-space-size=64) */ nodeFlags?: string[] }): ChildSession {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-child-'));
  let proc: ChildProcess | null = null;
  let out = '';
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NATS_URL') env[k] = v;
  Object.assign(env, { DATABASE_URL: o.databaseUrl, PORT: String(o.port), WEFT_ADMIN_TOKEN: o.adminToken, WEFT_DATA_DIR: dataDir, WEFT_OPS_PER_SECOND: '1000000', WEFT_OPS_PER_TURN: '1000000' }, o.env ?? {});
  const exited = (p: ChildProcess): Promise<void> => new Promise((r) => (p.exitCode !== null || p.signalCode !== null ? r() : p.once('exit', () => r())));
  const self: ChildSession = {
    url: `http://127.0.0.1:${o.port}`,
    port: o.port,
    get proc() { return proc; },
    async start() {
      const p = spawn(process.execPath, [...(o.nodeFlags ?? []), '--import', 'tsx', join(ROOT, 'services/launcher/src/start.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      proc = p;
      const t0 = Date.now();
      let cur = '';
      await new Promise<void>((resolveStart, reject) => {
        const t = setTimeout(() => reject(new Error(`session child did not start within 60 s:\n${cur}`)), 60_000);
        const onData = (b: Buffer): void => {
          out += b.toString();
          cur += b.toString();
          if (cur.includes('Weft is running at')) {
            clearTimeout(t);
            out += `[started in ${Date.now() - t0} ms]\n`;
            resolveStart();
          }
        };
        p.stdout!.on('data', onData);
        p.stderr!.on('data', (b: Buffer) => {
          out += b.toString();
          cur += b.toString();
        });
        p.once('exit', (code, sig) => {
          clearTimeout(t);
          reject(new Error(`session child exited (${code ?? sig}) before it started:\n${cur}`));
        });
      });
    },
    async kill9() {
      if (!proc) return;
      const p = proc;
      p.kill('SIGKILL');
      await exited(p);
      proc = null;
    },
    async stop() {
      if (proc) {
        const p = proc;
        p.kill('SIGTERM');
        const t = setTimeout(() => p.kill('SIGKILL'), 5000);
        await exited(p);
        clearTimeout(t);
        proc = null;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
    output: () => out,
  };
  return self;
}
