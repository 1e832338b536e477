// A throwaway nats-server with JetStream (PLATFORM.md "Recipe: nats-server").
// `-p -1` lets the server pick a port; we read it from the ports file. restart() reuses the
// port and the store dir, so fault tests can kill and bring it back at the same URL.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { commandOrInstall } from './apt.ts';

export interface StartNatsOptions {
  /** JetStream store dir; default a fresh temp dir (removed by destroy()). */
  storeDir?: string;
  /** Fixed port; default picked by the server. */
  port?: number;
}

export interface NatsServer {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** Sends a signal (e.g. 'SIGKILL' to crash) and waits for exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Starts again on the same port and store dir. */
  restart(): Promise<void>;
  /** Stops and removes the temp dir. */
  destroy(): Promise<void>;
}

const natsBinary = (): string => commandOrInstall('nats-server', 'nats-server');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startNats(opts: StartNatsOptions = {}): Promise<NatsServer> {
  const bin = natsBinary();
  const dir = mkdtempSync('/tmp/weft-nats.');
  const storeDir = opts.storeDir ?? join(dir, 'js');
  mkdirSync(storeDir, { recursive: true });
  let port = opts.port ?? -1;
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const args = ['-js', '-a', '127.0.0.1', '-p', String(port), '-m', '-1', '-sd', storeDir, '--ports_file_dir', dir];
    const proc = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr?.on('data', (b: Buffer) => { stderr = (stderr + b.toString()).slice(-4000); });
    child = proc;
    const portsFile = join(dir, `nats-server_${proc.pid}.ports`);
    for (let i = 0; i < 200; i++) {
      if (proc.exitCode !== null) throw new Error(`nats-server exited ${proc.exitCode}: ${stderr}`);
      if (existsSync(portsFile)) {
        const text = readFileSync(portsFile, 'utf8');
        const m = /"nats":\["nats:\/\/[^"]*:(\d+)"/.exec(text);
        if (m?.[1] !== undefined) { port = Number(m[1]); return; }
      }
      await sleep(25);
    }
    proc.kill('SIGKILL');
    throw new Error(`nats-server did not write ${portsFile}: ${stderr}`);
  };

  const kill = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = child;
    if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill(signal);
    await exited;
    child = undefined;
  };

  await launch();
  const server: NatsServer = {
    get url() { return `nats://127.0.0.1:${port}`; },
    get port() { return port; },
    get pid() { return child?.pid ?? 0; },
    stop: () => kill('SIGTERM'),
    kill,
    async restart() { await kill('SIGTERM'); await launch(); },
    async destroy() {
      try { await kill('SIGTERM'); } finally { rmSync(dir, { recursive: true, force: true }); }
    },
  };
  return server;
}
