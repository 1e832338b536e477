// Append throughput and replay fetch on a throwaway Postgres 15 with fsync ON.
//   npx tsx shared/store/bench/append.bench.ts [--steps 2000] [--replay 100000]
// Group commit: the session room collects steps and appends them in one transaction, so one
// fsync covers many steps. This prints both modes side by side, then the B6 replay fetch.
import { cpus, totalmem, platform, release } from 'node:os';
import { sql } from 'kysely';
import type { Op } from '@weft/core';
import { migrateToLatest } from '@weft/migrations';
import { startPostgres } from '@weft/testing';
import { connectPostgres } from '../src/connect-postgres.ts';
import { EventStore } from '../src/event-store.ts';
import type { NewStep } from '../src/types.ts';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const STEPS = arg('steps', 2000);
const REPLAY = arg('replay', 100_000);

let seq = 0;
function step(): NewStep {
  const n = seq++;
  const ops: Op[] = [
    { op: 'add', path: `/sections/s1/components/c${n}`, value: { id: `c${n}`, component: 'Text', props: { text: `Line ${n} of the page` } } },
    { op: 'add', path: '/sections/s1/components/root/children/-', value: `c${n}` },
    { op: 'replace', path: '/sections/s1/data/count', value: n },
  ];
  return {
    opId: `op-${n}`, bodyHash: `h${n}`, actor: 'agent-1', actorKind: 'agent', turnId: 'turn-1', ops,
    inverse: [{ op: 'remove', path: `/sections/s1/components/c${n}` }], notes: [], refused: [],
  };
}

async function appendAll(store: EventStore, draftId: string, total: number, perTx: number): Promise<number> {
  let version = (await store.getDraft(draftId))!.headVersion;
  const t0 = performance.now();
  for (let done = 0; done < total; done += perTx) {
    const batch = Array.from({ length: Math.min(perTx, total - done) }, step);
    const r = await store.append(draftId, version, batch);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    version += batch.length;
  }
  return (performance.now() - t0) / 1000;
}

const cpu = cpus();
console.log(`machine: ${cpu.length} × ${cpu[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${platform()} ${release()}, node ${process.version}`);

const pg = await startPostgres({ fsync: true });
const conn = connectPostgres(pg.url, { max: 4 });
try {
  await migrateToLatest(conn.db);
  const v = await sql<{ v: string; f: string; s: string }>`SELECT version() AS v, current_setting('fsync') AS f, current_setting('synchronous_commit') AS s`.execute(conn.db);
  console.log(`postgres: ${v.rows[0]?.v.split(',')[0]} (fsync=${v.rows[0]?.f}, synchronous_commit=${v.rows[0]?.s})`);
  const store = new EventStore(conn.db);
  for (const id of ['one', 'group', 'replay']) await store.createDraft({ id, title: id, createdBy: 'bench' });

  // warm up
  await appendAll(store, 'replay', 200, 1);

  const s1 = await appendAll(store, 'one', STEPS, 1);
  const s20 = await appendAll(store, 'group', STEPS * 5, 20);
  const r1 = STEPS / s1, r20 = (STEPS * 5) / s20;
  console.log('\nappend (one writer, 3 ops per step, fsync on)');
  console.log(`  1 step / tx  : ${STEPS.toString().padStart(6)} steps in ${s1.toFixed(2)} s = ${r1.toFixed(0).padStart(6)} steps/s (${((s1 / STEPS) * 1000).toFixed(2)} ms/commit)`);
  console.log(`  20 steps / tx: ${(STEPS * 5).toString().padStart(6)} steps in ${s20.toFixed(2)} s = ${r20.toFixed(0).padStart(6)} steps/s (${((s20 / (STEPS * 5 / 20)) * 1000).toFixed(2)} ms/commit)`);
  console.log(`  ratio        : ${(r20 / r1).toFixed(1)}× with group commit`);

  // Replay fetch (PERFORMANCE.md B6): fill, then fetch ops as text vs as parsed jsonb rows.
  const have = (await store.getDraft('replay'))!.headVersion;
  await appendAll(store, 'replay', REPLAY - have, 1000);
  await sql`VACUUM ANALYZE events`.execute(conn.db);
  await store.readOpsPage('replay', 0, 1e9); // warm cache
  const t0 = performance.now();
  const page = (await store.readOpsPage('replay', 0, 1e9))!;
  const tText = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const rows = JSON.parse(page.text) as unknown[][];
  let nOps = 0;
  for (const r of rows) nOps += r.length;
  const tParse = (performance.now() - t1) / 1000;
  const t2 = performance.now();
  const full = await store.readSteps('replay');
  const tFull = (performance.now() - t2) / 1000;
  console.log(`\nreplay fetch of ${rows.length} steps (${nOps} ops)`);
  console.log(`  readOpsPage  : ${(tText * 1000).toFixed(0).padStart(5)} ms = ${(rows.length / tText).toFixed(0)} rows/s as one JSON text (+ one JSON.parse ${(tParse * 1000).toFixed(0)} ms)`);
  console.log(`  readSteps    : ${(tFull * 1000).toFixed(0).padStart(5)} ms = ${(full.length / tFull).toFixed(0)} rows/s (all columns, jsonb parsed by the driver)`);
} finally {
  await conn.close();
  await pg.destroy();
}
