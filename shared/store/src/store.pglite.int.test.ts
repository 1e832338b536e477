import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPGlite } from './pglite.ts';
import { DataDirInUse } from './data-dir-lock.ts';
import { EventStore } from './event-store.ts';
import { runStoreContract, step } from './contract.ts';
import { runRoomLogContract } from './room-log-contract.ts';

// In memory; one instance per file (2–4 s, ~750 MB).
runStoreContract('pglite', () => openPGlite(undefined));
runRoomLogContract('pglite', async () => {
  const h = await openPGlite(undefined);
  const store = new EventStore(h.db);
  return { log: store, createDraft: async (id) => { await store.createDraft({ id, title: '', createdBy: 'u' }); }, takeLease: async (id, node) => { await store.releaseLeases('node-a'); const l = (await store.acquireLease(id, node, `http://${node}`, 60_000))!; return { node: l.node!, epoch: l.epoch }; }, close: () => h.close() };
});

describe('openPGlite with a data dir', () => {
  it('keeps committed steps across close and reopen (migrations run once)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-pglite-'));
    try {
      const a = await openPGlite(dir);
      const s = new EventStore(a.db);
      await s.createDraft({ id: 'd', title: 'kept', createdBy: 'u' });
      expect((await s.append('d', 0, [step('one'), step('two')])).ok).toBe(true);
      await a.close();
      const b = await openPGlite(dir);
      try {
        const s2 = new EventStore(b.db);
        expect((await s2.getDraft('d'))?.headVersion).toBe(2);
        expect((await s2.readSteps('d')).map((x) => x.opId)).toEqual(['one', 'two']);
      } finally {
        await b.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000); // two on-disk PGlite creates: 30 s at load 13, over 60 s at load 15 on 2 cores

  it('one process at a time: a second open is refused naming the holder; a lock left by a dead process, or by a pid now someone else\'s, is taken over', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'weft-pglite-')), 'db');
    try {
      const a = await openPGlite(dir);
      const refused = await openPGlite(dir).then(() => null, (e: unknown) => e);
      expect(refused).toBeInstanceOf(DataDirInUse);
      expect((refused as DataDirInUse).pid).toBe(process.pid);
      expect((refused as Error).message).toContain(`The embedded database in ${dir} is in use by another Weft process (pid ${process.pid})`);
      await a.close();
      expect(existsSync(`${dir}.lock`)).toBe(false);
      // A process that held it and died without letting go (kill -9): its pid is gone.
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
      writeFileSync(`${dir}.lock`, `${dead}\n`);
      const b = await openPGlite(dir);
      expect(readFileSync(`${dir}.lock`, 'utf8').split(' ')[0]).toBe(String(process.pid));
      await b.close();
      // A live process whose start time is not the lock's took the pid over after a restart: stale too.
      const parentStarted = readFileSync(`/proc/${process.ppid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
      writeFileSync(`${dir}.lock`, `${process.ppid} 1\n`);
      await (await openPGlite(dir)).close();
      // The same live process, the same start time: in use.
      writeFileSync(`${dir}.lock`, `${process.ppid} ${parentStarted}\n`);
      await expect(openPGlite(dir)).rejects.toThrow(`is in use by another Weft process (pid ${process.ppid})`);
      // This process's own pid on a lock it does not hold (a restarted container's pid 1): an earlier process's, taken over.
      writeFileSync(`${dir}.lock`, `${process.pid} 1\n`);
      await (await openPGlite(dir)).close();
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  }, 180_000);
});
