// One process per embedded database directory. PGlite does not lock its files: a second
// `npm start` on the same directory opened it too, and two Postgres instances writing one data
// directory corrupt it. The lock is a file beside the directory holding the owner's pid, created
// with O_EXCL; a lock whose pid is gone (the owner was killed) is taken over at once — a lock
// aged by mtime would hold a restart after kill -9 back for its whole staleness window.
import { openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync, closeSync } from 'node:fs';

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

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // it exists, under another user
  }
};

/** Takes `<dataDir>.lock` for this process; returns its release. Throws DataDirInUse while a live process holds it. */
export function lockDataDir(dataDir: string): () => void {
  const file = `${dataDir}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => { try { if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file); } catch { /* already gone */ } };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) throw new DataDirInUse(dataDir, pid, file);
    if (attempt > 0) throw new DataDirInUse(dataDir, pid, file); // taken again between our steps: someone else won
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
