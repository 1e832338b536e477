// One process per embedded database directory. PGlite does not lock its files: a second
// `npm start` on the same directory opened it too, and two Postgres instances writing one data
// directory corrupt it. The lock is a file beside the directory naming its owner (pid, and on
// Linux the process's start time, so a pid reused by another process after a restart — a
// container's pid 1 — is not taken for the owner), created with O_EXCL. A lock whose owner is
// gone (killed) is taken over at once: a lock aged by mtime would hold a restart after kill -9
// back for its whole staleness window.
import { closeSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';

export class DataDirInUse extends Error {
  readonly dataDir: string;
  readonly pid: number;
  constructor(dataDir: string, pid: number, lockFile: string) {
    super(`The embedded database in ${dataDir} is in use by another Weft process (pid ${pid}). Weft stopped before opening it: `
      + 'two processes writing one database directory would corrupt it. Stop that process, or point WEFT_DATA_DIR at another directory. '
      + `If no process ${pid} is running, remove ${lockFile} and start again.`);
    this.name = 'DataDirInUse';
    this.dataDir = dataDir;
    this.pid = pid;
  }
}

/** Directories this process holds (a second open from the same process is refused too). */
const held = new Set<string>();

/** A process's start time in clock ticks since boot (Linux), or null where /proc is not there. */
function startedAt(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null; // field 22 (starttime); the name before it may hold ") "
  } catch {
    return null;
  }
}

/** Whether the process the lock names still runs: the pid exists and, where known, started when the lock says. */
function ownerRuns(pid: number, started: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false; // EPERM: it exists, under another user
  }
  const now = startedAt(pid);
  return started === undefined || now === null || now === started;
}

/** Takes `<dataDir>.lock` for this process; returns its release. Throws DataDirInUse while its owner runs. */
export function lockDataDir(dataDir: string): () => void {
  const file = `${dataDir}.lock`;
  if (held.has(file)) throw new DataDirInUse(dataDir, process.pid, file);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid} ${startedAt(process.pid) ?? ''}\n`);
      closeSync(fd);
      held.add(file);
      return () => {
        held.delete(file);
        try { if (readFileSync(file, 'utf8').split(/\s+/)[0] === String(process.pid)) unlinkSync(file); } catch { /* already gone */ }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const [pidText, started] = readFileSync(file, 'utf8').trim().split(/\s+/);
    const pid = Number(pidText);
    // Our own pid on a lock this process does not hold: left by an earlier process that had it (a restarted container's pid 1).
    const runs = Number.isInteger(pid) && pid > 0 && pid !== process.pid && ownerRuns(pid, started || undefined);
    if (runs || attempt > 0) throw new DataDirInUse(dataDir, pid, file); // attempt > 0: taken again between our steps, someone else won
    // Stale (its process is gone). Renamed away first: of two processes taking it over, one wins the rename.
    const aside = `${file}.stale-${process.pid}`;
    try {
      renameSync(file, aside);
      rmSync(aside, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}
