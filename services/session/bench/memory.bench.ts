// Memory per open draft with 10 peers: heap delta after GC of the session service (in this
// process) with D drafts open, each joined by 10 peers (in a child process), each draft seeded with
// a representative page; then again after 100, 1k and 10k edits per draft, to see whether it grows
// with history. Target (issue 4): ≤ 200 KB per draft, not growing with history; bar (issue 12):
// ≤ 250 KB per open draft with 10 peers. Prints figures.
// The first D drafts also pay for code compiled while they open (the warm-up draft has no peer):
// the "marginal" lines open D more drafts the same way, with every path warm, for the marginal cost.
// Run: node --expose-gc --import tsx services/session/bench/memory.bench.ts [drafts] [--breakdown]
// --breakdown also writes heap snapshots before and at "opened" (to $TMPDIR) and prints, at the
// end, where the opened delta went (heap-breakdown.ts); compare figures from runs without it.
// Postgres runs with fsync off here: a speed-only setup (PLATFORM.md), memory is what is measured.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { createMemoryBus } from '@weft/bus';
import { WeftHttpClient } from '@weft/client';
import { migrateToLatest } from '@weft/migrations';
import { connectPostgres, EventStore, SessionStore, TokenStore } from '@weft/store';
import { startPostgres } from '@weft/testing';
import { collabExtension, listen, parseConfig, silentLogger } from '../src/index.ts';
import { sleep } from '../../../shared/testing/src/sim/index.ts';
import { machineLine } from './machine.ts';
import { summarize } from './heap-breakdown.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc --import tsx');
const D = Number(process.argv[2] ?? 20);
const snapDir = process.argv.includes('--breakdown') ? mkdtempSync(join(tmpdir(), 'weft-mem-')) : null;
const PEERS = 10;
const ADMIN = 'mem-admin';

async function heap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc!();
    await sleep(50);
  }
  return process.memoryUsage().heapUsed;
}

/** A page of 3 sections × 12 components with a little data: a representative open draft. */
function page(i: number): unknown[] {
  const ops: unknown[] = [];
  for (let s = 0; s < 3; s++) {
    const id = `s${s}`;
    const comps: Record<string, unknown> = { root: { id: 'root', component: 'Stack', children: [] as string[] } };
    for (let c = 0; c < 11; c++) {
      const cid = `c${c}`;
      comps[cid] = c % 3 === 0 ? { id: cid, component: 'Text', props: { text: `Paragraph ${c} of draft ${i}: some words of body copy to make it real.` } } : { id: cid, component: 'Heading', props: { text: `Heading ${c}`, level: 2 } };
      (comps['root'] as { children: string[] }).children.push(cid);
    }
    ops.push({ op: 'add', path: `/sections/${id}`, value: { id, kind: 'surface', catalog: 'weft@1', data: { price: 10 + s, items: ['a', 'b', 'c'] }, components: comps } });
  }
  return ops;
}

console.log(machineLine());
const pg = await startPostgres({ fsync: false });
const conn = connectPostgres(pg.url);
await migrateToLatest(conn.db);
const config = parseConfig({}, { port: 0, adminToken: ADMIN, opsPerSecond: 1_000_000, opsPerTurn: 100_000_000 });
const bus = createMemoryBus();
const svc = await listen({ store: new EventStore(conn.db), tokens: new TokenStore(conn.db), sessions: new SessionStore(conn.db), bus, log: silentLogger }, config, [collabExtension()]);
const admin = new WeftHttpClient(svc.url, ADMIN);
const drafts = Array.from({ length: D }, (_, i) => `mem-${i}`);
const rd = await admin.mintToken({ actor: { id: 'peers', kind: 'human' }, scopes: Object.fromEntries(drafts.map((d) => [d, ['read']])) });
// Warm up code paths (ajv, Hocuspocus, Yjs) on a throwaway draft so they are not counted per draft.
await admin.createDraft('warm', 'Warm');
await admin.submit('warm', { opId: 'w', ops: page(-1) });
const before = await heap();
if (snapDir) writeHeapSnapshot(join(snapDir, 'before.heapsnapshot'));

for (const [i, id] of drafts.entries()) {
  await admin.createDraft(id, `Draft ${i}`);
  await admin.submit(id, { opId: 'page', ops: page(i) });
}
const roomsOnly = await heap();
console.log(`  rooms open, no peer yet       per draft ${((roomsOnly - before) / D / 1024).toFixed(1)} KB`);
const half = Math.ceil(D / 2);
const kids = [drafts.slice(0, half), drafts.slice(half)].map((ds) => fork(fileURLToPath(new URL('./viewers.ts', import.meta.url)), [JSON.stringify({ kind: 'weft', url: svc.url, draftId: '', token: rd.token, count: PEERS, drafts: ds })], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
await Promise.all(kids.map((k) => new Promise<void>((r) => k.on('message', (m: { type: string }) => m.type === 'ready' && r()))));

const report = async (label: string): Promise<void> => {
  const h = await heap();
  console.log(`  ${label.padEnd(28)} heap ${(h / 1048576).toFixed(1)} MB; per open draft (${PEERS} peers) ${((h - before) / D / 1024).toFixed(1)} KB`);
};
console.log(`${D} drafts × ${PEERS} peers (peers in 2 child processes), each draft 3 sections × 12 components`);
await report('opened');
if (snapDir) writeHeapSnapshot(join(snapDir, 'opened.heapsnapshot'));
let done = 0;
for (const target of [100, 1000, 10_000]) {
  // Edits: 50 ops per submit, text and level changes across every component (the kind of
  // history a busy draft accumulates), committed and broadcast to the 10 peers.
  while (done < target) {
    const batch = Math.min(50, target - done);
    await Promise.all(drafts.map((id) => admin.submit(id, { opId: `e${done}`, ops: Array.from({ length: batch }, (_, k) => ({ op: 'replace', path: `/sections/s${(done + k) % 3}/components/c${1 + ((done + k) % 10)}/props/text`, value: `edit ${done + k}` })) })));
    done += batch;
  }
  await report(`after ${target} edits/draft`);
  // Compaction waits for 2 s without commits on a draft (peers reload then): measure after it.
  await sleep(3000);
  await report(`  … then 3 s quiet`);
}
// Marginal cost: D more drafts, seeded and joined exactly like the first D, measured on their own.
const more = Array.from({ length: D }, (_, i) => `mem-more-${i}`);
const rdMore = await admin.mintToken({ actor: { id: 'peers', kind: 'human' }, scopes: Object.fromEntries(more.map((d) => [d, ['read']])) });
const m0 = await heap();
for (const [i, id] of more.entries()) {
  await admin.createDraft(id, `Draft ${D + i}`);
  await admin.submit(id, { opId: 'page', ops: page(D + i) });
}
const moreKids = [more.slice(0, half), more.slice(half)].map((ds) => fork(fileURLToPath(new URL('./viewers.ts', import.meta.url)), [JSON.stringify({ kind: 'weft', url: svc.url, draftId: '', token: rdMore.token, count: PEERS, drafts: ds })], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
await Promise.all(moreKids.map((k) => new Promise<void>((r) => k.on('message', (m: { type: string }) => m.type === 'ready' && r()))));
console.log(`  marginal: ${D} more drafts opened (${PEERS} peers each), per draft ${((await heap() - m0) / D / 1024).toFixed(1)} KB`);
// A draft quiet for 2 s with peers lets its lineage doc go (collab/draft-doc.ts): those just opened
// may still hold it, depending on how fast their peers joined.
await sleep(3000);
console.log(`    … then 3 s quiet           per draft ${((await heap() - m0) / D / 1024).toFixed(1)} KB`);
for (const k of [...kids, ...moreKids]) k.kill('SIGTERM');
if (snapDir) {
  // Live doc (Hocuspocus Document), lineage (DraftDoc), room, and each peer's connection objects.
  const classes = ['Document', 'DraftDoc', 'Room', 'ClientConnection', 'Connection', 'WebSocket', 'Socket'];
  const [a, b] = ['before', 'opened'].map((f) => summarize(join(snapDir, `${f}.heapsnapshot`), classes)) as [ReturnType<typeof summarize>, ReturnType<typeof summarize>];
  const kb = (bytes: number): string => `${(bytes / D / 1024).toFixed(1)} KB`;
  console.log(`breakdown of "opened" (heap snapshots, per draft): all ${kb(b.total - a.total)}, of it V8 code objects ${kb(b.code - a.code)} (compiled once per process)`);
  for (const c of classes) {
    const [x, y] = [a.retained.get(c)!, b.retained.get(c)!];
    console.log(`  retained by ${c.padEnd(16)} ${kb(y.bytes - x.bytes).padStart(9)}  (${((y.count - x.count) / D).toFixed(1)} per draft)`);
  }
  rmSync(snapDir, { recursive: true, force: true });
}
await svc.close();
await bus.close();
await conn.close();
await pg.destroy();
process.exit(0);
