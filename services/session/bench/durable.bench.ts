// Durable ops through the session's room (B2/B3/B6/B7 of PERFORMANCE.md), on a real Postgres 15
// with fsync on. Prints figures; asserts nothing. Run: npx tsx services/session/bench/durable.bench.ts
import { cpus, loadavg } from 'node:os';
import { createMemoryBus } from '@weft/bus';
import { applyOpsUnchecked, emptyDraft } from '@weft/core';
import { migrateToLatest } from '@weft/migrations';
import { connectPostgres, EventStore, loadDraft, SessionStore, TokenStore } from '@weft/store';
import { startPostgres } from '@weft/testing';
import { build } from '../src/app.ts';
import { collabExtension } from '../src/collab/collab.ts';
import { parseConfig } from '../src/config.ts';
import { silentLogger } from '@weft/ops';

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const f1 = (n: number): string => n.toFixed(1);
const section = (id: string) => ({
  id, kind: 'surface', catalog: 'weft@1',
  components: { root: { id: 'root', component: 'Stack', children: ['title'] }, title: { id: 'title', component: 'Heading', props: { text: 'x', level: 1 } } },
  data: {},
});

console.log(`machine: ${cpus()[0]?.model} ×${cpus().length}, load ${loadavg().map(f1).join(' ')}, node ${process.version}`);
const pg = await startPostgres();
const conn = connectPostgres(pg.url, { max: 10 });
await migrateToLatest(conn.db);
const store = new EventStore(conn.db);
const mkApp = (collab: boolean) => build(
  { store, tokens: new TokenStore(conn.db), sessions: new SessionStore(conn.db), bus: createMemoryBus(), log: silentLogger },
  parseConfig({}, { opsPerSecond: 1e9, opsPerTurn: 1e9, adminToken: 'x' }),
  collab ? [collabExtension()] : [],
);
const actor = { id: 'bench', kind: 'agent' as const };

async function drive(app: ReturnType<typeof mkApp>, drafts: string[], total: number, inflight: number): Promise<{ opsPerSec: number; p50: number; p99: number }> {
  const lat: number[] = [];
  let n = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inflight }, async (_, w) => {
    for (;;) {
      const i = n++;
      if (i >= total) return;
      const draftId = drafts[i % drafts.length]!;
      const room = (await app.ctx.rooms.get(draftId))!;
      const s = performance.now();
      const out = await room.submit({ opId: `b-${draftId}-${w}-${i}`, bodyHash: 'h', ops: [{ op: 'replace', path: '/sections/s/components/title/props/text', value: `v${i}` }], actor });
      if (!out.ok) throw new Error(JSON.stringify(out.error));
      lat.push(performance.now() - s);
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  return { opsPerSec: total / secs, p50: pct(lat, 50), p99: pct(lat, 99) };
}

async function seed(app: ReturnType<typeof mkApp>, id: string): Promise<void> {
  await store.createDraft({ id, title: id, createdBy: 'bench' });
  const room = (await app.ctx.rooms.get(id))!;
  const out = await room.submit({ opId: `seed-${id}`, bodyHash: 'h', ops: [{ op: 'add', path: '/sections/s', value: section('s') }], actor });
  if (!out.ok) throw new Error(JSON.stringify(out.error));
}

for (const collab of [false, true]) {
  const app = mkApp(collab);
  const tag = collab ? 'with Yjs mirror' : 'JSON only     ';
  await seed(app, `one-${collab}`);
  await drive(app, [`one-${collab}`], 500, 16); // warm-up
  for (const inflight of [1, 16, 64]) {
    const r = await drive(app, [`one-${collab}`], inflight === 1 ? 1000 : 10_000, inflight);
    console.log(`B2 one draft, ${tag}, ${String(inflight).padStart(2)} in flight: ${Math.round(r.opsPerSec).toLocaleString('en')} durable ops/s, ack p50 ${f1(r.p50)} ms p99 ${f1(r.p99)} ms`);
  }
  const many = Array.from({ length: 100 }, (_, i) => `many-${collab}-${i}`);
  for (const id of many) await seed(app, id);
  const r = await drive(app, many, 10_000, 200);
  console.log(`B3 100 drafts, ${tag}, 200 in flight: ${Math.round(r.opsPerSec).toLocaleString('en')} durable ops/s, ack p50 ${f1(r.p50)} ms p99 ${f1(r.p99)} ms`);
  await app.close();
}

// B6 replay and B7 cold load: a 100k-step draft, appended in batches of 1000.
const big = 'long-lived';
await store.createDraft({ id: big, title: big, createdBy: 'bench' });
const draft = emptyDraft(big);
const first = { op: 'add' as const, path: '/sections/s', value: section('s') };
applyOpsUnchecked(draft, [first, { op: 'add', path: '/order/-', value: 's' }]);
let v = 0;
const N = 100_000;
const t0 = performance.now();
for (let b = 0; b < N / 1000; b++) {
  const steps = Array.from({ length: 1000 }, (_, i) => {
    const k = b * 1000 + i;
    const ops = k === 0 ? [first, { op: 'add' as const, path: '/order/-', value: 's' }] : [{ op: 'replace' as const, path: '/sections/s/components/title/props/text', value: `v${k}` }];
    return { opId: `r-${k}`, bodyHash: 'h', actor: 'bench', actorKind: 'agent', ops, inverse: [], notes: [], refused: [] };
  });
  const r = await store.append(big, v, steps);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  v += 1000;
}
console.log(`(appended ${N.toLocaleString('en')} steps in ${f1((performance.now() - t0) / 1000)} s)`);
for (let rep = 0; rep < 3; rep++) {
  const s = performance.now();
  const loaded = await loadDraft(store, big);
  const ms = performance.now() - s;
  console.log(`B6 replay ${loaded.version.toLocaleString('en')} steps from the log: ${f1(ms)} ms = ${Math.round(loaded.version / (ms / 1000)).toLocaleString('en')} events/s`);
}
const loaded = await loadDraft(store, big);
await store.writeSnapshot({ draftId: big, version: N - 1000, epoch: 0, doc: (await loadDraft(store, big, N - 1000)).draft as never, yState: null, reason: 'bench' });
const cold: number[] = [];
for (let rep = 0; rep < 20; rep++) {
  const s = performance.now();
  await loadDraft(store, big);
  cold.push(performance.now() - s);
}
console.log(`B7 cold load from snapshot + 1,000-step tail: p50 ${f1(pct(cold, 50))} ms, p99 ${f1(pct(cold, 99))} ms (head ${loaded.version})`);
await conn.close();
await pg.destroy();
