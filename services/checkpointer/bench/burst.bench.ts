// A thousand drafts due for a snapshot in the same moment (drafts edited in step reach `everyOps`
// together, as in load-tests' many-drafts run): the worker's wall time and CPU, and Postgres's
// CPU, with snapshots taken in batches (the default, `batchDrafts` 100) and one draft at a time
// (`batchDrafts` 1: four statements per draft, as before batches), side by side on one Postgres:
//   npx tsx services/checkpointer/bench/burst.bench.ts [--drafts=1000] [--rounds=3]
// Each draft: a section at version 1 with its snapshot, then a 49-step tail of text edits carrying
// their Yjs updates; every round starts with no open fold (a new worker), as after the seed-time
// folds were evicted.
import os from 'node:os';
import * as Y from 'yjs';
import { createMemoryBus } from '@weft/bus';
import { applyOpsUnchecked, emptyDraft } from '@weft/core';
import type { Json, Op } from '@weft/core';
import { migrateToLatest } from '@weft/migrations';
import { silentLogger } from '@weft/ops';
import { connectPostgres, EventStore } from '@weft/store';
import type { NewStep } from '@weft/store';
import { startPostgres, treeTicks, TICKS_PER_SECOND } from '@weft/testing';
import { applyOpsToYDoc, genesis } from '@weft/ydoc';
import { sql } from 'kysely';
import { build } from '../src/app.ts';

const arg = (name: string, d: number): number => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? d);
const DRAFTS = arg('drafts', 1000);
const ROUNDS = arg('rounds', 3);
const TAIL = 49;

const pg = await startPostgres({ fsync: true });
const conn = connectPostgres(pg.url);
await migrateToLatest(conn.db);
const store = new EventStore(conn.db);

/** The draft's steps as the session logs them: ops with the Yjs update of each. */
function stepsOf(id: string): { first: NewStep; tail: NewStep[]; doc: Y.Doc } {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, genesis(id, 0));
  const step = (n: number, ops: Op[]): NewStep => {
    const sv = Y.encodeStateVector(doc);
    applyOpsToYDoc(doc, ops);
    return { opId: `op-${n}`, bodyHash: `h${n}`, actor: 'bench', actorKind: 'human', ops, inverse: [], notes: [], refused: [], yUpdate: Y.encodeStateAsUpdate(doc, sv) };
  };
  const section = { id: 's', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: ['c0'] }, c0: { id: 'c0', component: 'Text', props: { text: 'hello' } } } };
  const first = step(1, [{ op: 'add', path: '/sections/s', value: section }, { op: 'add', path: '/order/-', value: 's' }]);
  const tail = Array.from({ length: TAIL }, (_, i) => step(i + 2, [{ op: 'replace', path: '/sections/s/components/c0/props/text', value: `edit ${i} ${'x'.repeat(30)}` }]));
  return { first, tail, doc };
}

console.log(`machine: ${os.cpus()[0]?.model ?? '?'} ×${os.cpus().length}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}`);
const ids = Array.from({ length: DRAFTS }, (_, i) => `burst-${i}`);
const seed = performance.now();
for (let i = 0; i < ids.length; i += 50) {
  await Promise.all(ids.slice(i, i + 50).map(async (id) => {
    await store.createDraft({ id, title: '', createdBy: 'bench' });
    const { first, tail, doc } = stepsOf(id);
    const a = await store.append(id, 0, [first]);
    if (!a.ok) throw new Error(`seed ${id}: ${JSON.stringify(a.error)}`);
    // The quiet snapshot after the seed: version 1 with its Yjs state (the fold's stored base).
    const at1 = new Y.Doc();
    Y.applyUpdate(at1, genesis(id, 0));
    Y.applyUpdate(at1, first.yUpdate!);
    const json = emptyDraft(id);
    const applied = applyOpsUnchecked(json, first.ops); // in place
    if (!applied.ok) throw new Error(`seed ${id}: ${applied.error.message}`);
    await store.writeSnapshot({ draftId: id, version: 1, epoch: 0, doc: json as unknown as Json, yState: Y.encodeStateAsUpdate(at1), reason: 'quiet' });
    const b = await store.append(id, 1, tail);
    if (!b.ok) throw new Error(`seed ${id}: ${JSON.stringify(b.error)}`);
    doc.destroy();
  }));
}
console.log(`seeded ${DRAFTS} drafts × ${TAIL + 1} steps in ${((performance.now() - seed) / 1000).toFixed(1)} s`);

interface Round { wallMs: number; cpuMs: number; pgCpuMs: number }
async function round(batchDrafts: number): Promise<Round> {
  await sql`DELETE FROM snapshots WHERE version > 1`.execute(conn.db);
  await sql`CHECKPOINT`.execute(conn.db);
  const ck = build({ store, bus: createMemoryBus(), log: silentLogger }, { batchDrafts, perSecond: 0 }); // unpaced: the bench times the work itself
  const pg0 = treeTicks(pg.pid);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const versions = await Promise.all(ids.map((id) => ck.checkpoint(id, 'ops')));
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const pgCpuMs = ((treeTicks(pg.pid) - pg0) / TICKS_PER_SECOND) * 1000;
  const wrong = versions.filter((v) => v !== TAIL + 1).length;
  if (wrong > 0) throw new Error(`${wrong} drafts not snapshotted at ${TAIL + 1}`);
  await ck.stop();
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, pgCpuMs };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const results: Record<string, Round[]> = { batched: [], perDraft: [] };
await round(100); // warm-up: the code paths and Postgres' caches, untimed
for (let r = 0; r < ROUNDS; r++) {
  results['batched']!.push(await round(100));
  results['perDraft']!.push(await round(1));
}
const fig = (rs: Round[]) => ({ wall: median(rs.map((r) => r.wallMs)), cpu: median(rs.map((r) => r.cpuMs)), pg: median(rs.map((r) => r.pgCpuMs)) });
const b = fig(results['batched']!);
const p = fig(results['perDraft']!);
const line = (name: string, f: ReturnType<typeof fig>) => `${name.padEnd(28)} ${f.wall.toFixed(0).padStart(6)} ms wall, worker CPU ${f.cpu.toFixed(0).padStart(5)} ms (${(f.cpu / DRAFTS).toFixed(2)} ms per snapshot), Postgres CPU ${f.pg.toFixed(0).padStart(5)} ms`;
console.log(`${DRAFTS} drafts due at once, ${TAIL}-step tails, no open folds; medians of ${ROUNDS} rounds, interleaved:`);
console.log(line('batches of 100 (default)', b));
console.log(line('one draft at a time', p));
console.log(`batched / one at a time: wall ${(b.wall / p.wall).toFixed(2)}×, worker CPU ${(b.cpu / p.cpu).toFixed(2)}×, Postgres CPU ${(b.pg / p.pg).toFixed(2)}×, worker + Postgres ${((b.cpu + b.pg) / (p.cpu + p.pg)).toFixed(2)}×`);
console.log(`load after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
await conn.close();
await pg.destroy();
