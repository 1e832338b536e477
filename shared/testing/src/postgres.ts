// A throwaway PostgreSQL 15 cluster (PLATFORM.md "Recipe: throwaway Postgres 15 as root").
// Reusable by fault tests (stop 'immediate' = crash, then start() on the same dir and port)
// and by benchmarks. fsync stays on unless asked: durability tests depend on it.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { aptInstall } from './apt.ts';
import { freePort } from './free-port.ts';

export interface StartPostgresOptions {
  /** Default true. Speed-only suites may turn it off; durability suites never do. */
  fsync?: boolean;
  /** Extra `-c name=value` server settings. */
  settings?: Record<string, string | number>;
}

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** The postmaster pid, or 0 while stopped. */
  readonly pid: number;
  /** 'fast' is a clean shutdown; 'immediate' simulates a crash (recovery on next start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /**
   * SIGKILLs the postmaster (not `pg_ctl`: its shutdown modes close client sockets in order,
   * a killed postmaster leaves its backends to notice and die, which is the path that crashed
   * postgres.js clients). Resolves once every backend has exited, so `start()` can follow.
   */
  kill(): Promise<void>;
  /** Starts again on the same data dir and port. */
  start(): Promise<void>;
  /** Stops (fast) and removes the data dir. */
  destroy(): Promise<void>;
}

export function pgBinDir(): string {
  const base = '/usr/lib/postgresql';
  const pick = (): string | undefined => {
    if (!existsSync(base)) return undefined;
    const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb')));
    versions.sort((a, b) => Number(a) - Number(b));
    const v = versions.at(-1);
    return v === undefined ? undefined : join(base, v, 'bin');
  };
  const found = pick();
  if (found !== undefined) return found;
  aptInstall('postgresql-15');
  const after = pick();
  if (after === undefined) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql and apt-get install failed');
  return after;
}

/** Pids whose parent is `ppid`, from /proc (a postmaster's backends). */
function childrenOf(ppid: number): number[] {
  return readdirSync('/proc').filter((d) => /^[0-9]+$/.test(d) && procStat(Number(d))?.ppid === ppid).map(Number);
}

/** Whether `pid` exists; a zombie counts (Postgres' lock-file check sees it until it is reaped). */
function exists(pid: number): boolean {
  return procStat(pid) !== null;
}

function procStat(pid: number): { ppid: number } | null {
  try {
    const stat = readFileSync(join('/proc', String(pid), 'stat'), 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces, so split after the last ')'.
    const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
    return { ppid: Number(ppid) };
  } catch {
    return null; // exited meanwhile
  }
}

const isRoot = (): boolean => userInfo().uid === 0;

/**
 * glibc malloc settings for the server (README "Separate processes and the compose stack"): a backend's blocks of up
 * to 32 MB come from its heap and at most 64 MB of free heap is kept rather than handed back. By
 * default glibc maps each large block (a replay page, a group commit's rows) fresh and unmaps it on
 * free, so every query pays the page faults again: 11–14 µs each on these VMs, which made fetching a
 * 10,000-step page 30 ms instead of 9 (shared/store/bench/replay.bench.ts).
 */
export const POSTGRES_MALLOC = 'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864';

/** Runs a Postgres binary as the `postgres` user when we are root (Postgres refuses root). */
function runPg(bin: string, args: string[]): string {
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const env = { ...process.env, GLIBC_TUNABLES: POSTGRES_MALLOC };
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env });
}

export async function startPostgres(opts: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = pgBinDir();
  const base = mkdtempSync('/tmp/weft-pg.');
  chmodSync(base, 0o755);
  const dataDir = join(base, 'db');
  mkdirSync(dataDir);
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dataDir, uid, gid);
  }
  runPg(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const settings: Record<string, string | number> = {
    listen_addresses: '127.0.0.1',
    port,
    unix_socket_directories: dataDir,
    max_connections: 200,
    ...(opts.fsync === false ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {}),
    ...opts.settings,
  };
  const o = Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`).join(' ');
  let pid = 0;

  const start = async (): Promise<void> => {
    runPg(join(bin, 'pg_ctl'), ['-D', dataDir, '-l', join(dataDir, 'server.log'), '-w', '-t', '60', 'start', '-o', o]);
    pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast'): Promise<void> => {
    if (pid === 0 || !existsSync(join(dataDir, 'postmaster.pid'))) { pid = 0; return; }
    runPg(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    pid = 0;
  };
  const kill = async (): Promise<void> => {
    if (pid === 0) return;
    const procs = [pid, ...childrenOf(pid)];
    process.kill(pid, 'SIGKILL');
    pid = 0;
    // Backends notice the postmaster's death and exit; until the last one has (and the postmaster
    // is reaped), a new postmaster refuses to start. Bounded: 30 s.
    for (let i = 0; i < 600 && procs.some(exists); i++) await new Promise((r) => setTimeout(r, 50));
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    get pid() { return pid; },
    start,
    stop,
    kill,
    async destroy() {
      try { await stop('fast'); } finally { if (statSync(base, { throwIfNoEntry: false })) rmSync(base, { recursive: true, force: true }); }
    },
  };
}
