// B6 replay (PERFORMANCE.md) in a process of its own, each phase timed, on Postgres 15 (fsync on):
// a 100k-event draft, then fetch (pages of 10,000 steps as JSON text; one after another, and all
// at once), parse (one JSON.parse per page), fold (the general apply, and replay's applyOwned), and
// loadDraft end to end (one streamed query of 1,000-step pages, parsed and folded in the replay
// worker as they arrive) beside loadDraft reading page queries four ahead (the earlier default)
// and with 10,000-step pages two ahead (the one before), each the median of --reps runs.
//   npx tsx shared/store/bench/replay.bench.ts [--events 100000] [--reps 8]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { applyOpsUnchecked, emptyDraft } from '@weft/core';
import { applyOwned } from '@weft/core/apply';
import type { Op } from '@weft/core';
import { migrateToLatest } from '@weft/migrations';
import { startPostgres } from '@weft/testing';
import { connectPostgres } from '../src/connect-postgres.ts';
import { EventStore } from '../src/event-store.ts';
import { loadDraft } from '../src/load-draft.ts';
import type { ReplayOptions } from '../src/load-draft.ts';
import type { OpsPage } from '../src/replay/ops-page.ts';

const { values: args } = parseArgs({ options: { events: { type: 'string', default: '100000' }, reps: { type: 'string', default: '8' } } });
const N = Number(args.events);
const REPS = Number(args.reps);
const PAGE = 10_000;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rate = (ms: number): string => `${Math.round(N / (ms / 1000)).toLocaleString('en')} events/s`;

console.log(`load ${loadavg().map((x) => x.toFixed(2)).join(' ')}; node ${process.version}`);
const pg = await startPostgres();
const conn = connectPostgres(pg.url);
try {
  await migrateToLatest(conn.db);
  const store = new EventStore(conn.db);
  const id = 'long-lived';
  await store.createDraft({ id, title: id, createdBy: 'bench' });
  const section = { id: 's', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: ['title'] }, title: { id: 'title', component: 'Heading', props: { text: 'x', level: 1 } } } };
  for (let v = 0; v < N; v += 1000) {
    const steps = Array.from({ length: Math.min(1000, N - v) }, (_, i) => {
      const x = v + i;
      const ops: Op[] = x === 0 ? [{ op: 'add', path: '/sections/s', value: section }, { op: 'add', path: '/order/-', value: 's' }] : [{ op: 'replace', path: '/sections/s/components/title/props/text', value: `v${x}` }];
      return { opId: `r-${x}`, bodyHash: 'h', actor: 'bench', actorKind: 'agent', ops, inverse: [], notes: [], refused: [] };
    });
    const r = await store.append(id, v, steps);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
  }
  await sql`VACUUM ANALYZE`.execute(conn.db);
  // Starts the replay worker (once per process) and warms its JSON.parse (~2× slower for the first
  // two or three replays of a process): three untimed replays, as a session that has replayed before.
  for (let i = 0; i < 3; i++) await loadDraft(store, id);

  const t = { serial: [] as number[], together: [] as number[], parse: [] as number[], fold: [] as number[], foldOwned: [] as number[], load: [] as number[], load10k: [] as number[], paged: [] as number[] };
  let draft = emptyDraft(id);
  for (let rep = 0; rep < REPS; rep++) {
    let s = performance.now();
    const pages: OpsPage[] = [];
    for (let after = 0; ;) { const p = await store.readOpsPage(id, after, PAGE); if (!p) break; pages.push(p); after = p.last; }
    t.serial.push(performance.now() - s);
    s = performance.now();
    await Promise.all(Array.from({ length: Math.ceil(N / PAGE) }, (_, i) => store.readOpsPage(id, i * PAGE, PAGE)));
    t.together.push(performance.now() - s);
    s = performance.now();
    const parsed = pages.map((p) => JSON.parse(p.text) as Op[][]);
    t.parse.push(performance.now() - s);
    s = performance.now();
    draft = emptyDraft(id);
    for (const page of parsed) for (const ops of page) applyOpsUnchecked(draft, ops);
    t.fold.push(performance.now() - s);
    const parsedAgain = pages.map((p) => JSON.parse(p.text) as Op[][]);
    s = performance.now();
    const owned = emptyDraft(id);
    for (const page of parsedAgain) for (const ops of page) applyOwned(owned, ops);
    t.foldOwned.push(performance.now() - s);
  }
  // loadDraft apart from the phases above (their parsed pages are garbage the main thread would
  // collect during these runs), the three ways in a rotating order (whichever runs after another
  // pays for its garbage).
  const ways: [number[], ReplayOptions][] = [[t.load, {}], [t.paged, { stream: false }], [t.load10k, { pageSize: PAGE, ahead: 2, stream: false }]];
  for (let rep = 0; rep < REPS; rep++) {
    for (let k = 0; k < ways.length; k++) {
      const [times, opts] = ways[(rep + k) % ways.length]!;
      const s = performance.now();
      const loaded = await loadDraft(store, id, undefined, opts);
      times.push(performance.now() - s);
      if (loaded.version !== N || JSON.stringify(loaded.draft) !== JSON.stringify(draft)) throw new Error('loadDraft and the phases disagree');
    }
  }
  console.log(`${N.toLocaleString('en')} events, pages of ${PAGE.toLocaleString('en')}, median of ${REPS}:`);
  console.log(`  fetch, one page after another   ${median(t.serial).toFixed(1)} ms = ${rate(median(t.serial))}`);
  console.log(`  fetch, every page at once       ${median(t.together).toFixed(1)} ms = ${rate(median(t.together))}`);
  console.log(`  parse (JSON.parse per page)     ${median(t.parse).toFixed(1)} ms = ${rate(median(t.parse))}`);
  console.log(`  fold (applyOpsUnchecked)        ${median(t.fold).toFixed(1)} ms = ${rate(median(t.fold))}`);
  console.log(`  fold (applyOwned, as replay)    ${median(t.foldOwned).toFixed(1)} ms = ${rate(median(t.foldOwned))}`);
  console.log(`  loadDraft end to end (worker)   ${median(t.load).toFixed(1)} ms = ${rate(median(t.load))}  (runs: ${t.load.map((x) => x.toFixed(0)).join(', ')} ms)`);
  console.log(`  … page queries, 4 ahead         ${median(t.paged).toFixed(1)} ms = ${rate(median(t.paged))}  (${(median(t.paged) / median(t.load)).toFixed(2)}× the time; runs: ${t.paged.map((x) => x.toFixed(0)).join(', ')} ms)`);
  console.log(`  … with 10,000-step pages, 2 ahead ${median(t.load10k).toFixed(1)} ms = ${rate(median(t.load10k))}  (${(median(t.load10k) / median(t.load)).toFixed(2)}× the time)`);
} finally {
  await conn.close();
  await pg.destroy();
}
