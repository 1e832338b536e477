// The load harness: one stack of separate processes, the scenarios of issue 7 with their plain
// baselines side by side, a progress line, and a JSON + markdown report in load-tests/out/.
//   npx tsx load-tests/bench/run.ts            quick (scaled down), ~3–5 min
//   npx tsx load-tests/bench/run.ts --full     the sizes of issue 7 (200 viewers, 1,000 drafts, 100k events)
//   --drafts=N --viewers=N --events=N --secs=N override sizes; --faults runs the fault suite in full form
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WeftHttpClient, WeftPeer } from '@weft/client';
import postgres from 'postgres';
import { runGenerators } from '../src/gen/pool.ts';
import type { GenConfig, GenResult, RoomGen } from '../src/gen/messages.ts';
import { machine } from '../src/machine.ts';
import { cpuCores, pgBinDir, sampleProc } from '@weft/testing';
import type { ProcSample } from '@weft/testing';
import { ROOT, spawnTs, freePort } from '../src/proc.ts';
import { fmt, fmtSummary, summarize } from '../src/stats.ts';
import { foldLog } from '../src/invariants.ts';
import { readLog } from '../src/verify.ts';
import { ADMIN_TOKEN, startStack } from './stack.ts';
import { emmettAppends } from '../src/baseline-emmett.ts';
import { roomFigures as figuresOf } from './figures.ts';
import { manyDrafts } from './many-drafts.ts';
import { COMPONENTS, SECTION, section, seed as seedDraft } from './scenario.ts';

const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(`--${name}`);
const num = (name: string, dflt: number): number => {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : dflt;
};

if (flag('faults')) {
  const r = spawnSync('npx', ['vitest', 'run', '--project', 'int', 'load-tests/faults'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, WEFT_FAULTS_FULL: '1' } });
  process.exit(r.status ?? 1);
}

const FULL = flag('full');
const size = {
  viewers: num('viewers', FULL ? 200 : 40),
  writers: 10,
  drafts: num('drafts', FULL ? 1000 : 100),
  events: num('events', FULL ? 100_000 : 10_000),
  secs: num('secs', FULL ? 20 : 8),
};
const MB = 2 ** 20;
const m = machine(pgBinDir());
console.log(`machine: ${m.cpu} ×${m.nproc}, ${m.memGiB} GiB, load ${m.load.join(' ')}, node ${m.node}, ${m.postgres}, ${m.nats}`);
console.log(`sizes: ${JSON.stringify(size)}${FULL ? ' (full)' : ' (quick; --full for the issue sizes)'}`);

const report: Record<string, unknown> = { machine: m, sizes: size, full: FULL, startedAt: new Date().toISOString() };
const lines: string[] = [];
const out = (s: string): void => { console.log(s); lines.push(s); };

const stack = await startStack();
const admin = stack.admin;
const sessionPid = () => stack.session.pid;
const procLine = (a: ProcSample) => () => {
  const b = sampleProc(sessionPid());
  return `session cpu ${(cpuCores(a, b) * 100).toFixed(0)}% rss ${(b.rssBytes / MB).toFixed(0)} MB`;
};

const seed = (id: string): Promise<void> => seedDraft(admin, id);

/** Hot draft: `viewers` over 4 processes, 10 closed-loop writers in a fifth. */
function hotConfigs(url: string, draft: string, mode: RoomGen['mode'], token: string): GenConfig[] {
  const base = { role: 'room' as const, url, token, drafts: [draft], section: SECTION, components: COMPONENTS, rate: 0, durationMs: size.secs * 1000, mode, writerOffset: 0 };
  const per = Math.ceil(size.viewers / 4);
  return [
    ...Array.from({ length: 4 }, (_, i) => ({ ...base, viewers: Math.max(0, Math.min(per, size.viewers - i * per)), writers: 0 })),
    { ...base, viewers: 0, writers: size.writers },
  ];
}
const roomFigures = (label: string, results: GenResult[], secs: number) => figuresOf(out, label, results, secs);

try {
  // ── 1. hot draft: Weft (validated, durable) vs a bare Hocuspocus relay, interleaved A B A B.
  out(`\n## Hot draft: ${size.viewers} viewers, ${size.writers} closed-loop writers, ${size.secs} s per run`);
  const relayPort = await freePort();
  const relay = spawnTs(join(ROOT, 'load-tests/src/baseline-relay.ts'), [String(relayPort)]);
  await new Promise<void>((r) => relay.once('message', () => r()));
  const relayUrl = `http://127.0.0.1:${relayPort}`;
  const hot: Record<string, unknown>[] = [];
  for (let rep = 0; rep < (FULL ? 2 : 1); rep++) {
    const id = `hot-${rep}`;
    await seed(id);
    const s0 = sampleProc(sessionPid());
    const w = await runGenerators(hotConfigs(stack.session.url, id, 'submit', ADMIN_TOKEN), { label: `weft hot #${rep}`, onTick: procLine(s0), maxMs: size.secs * 1000 + 120_000 });
    const s1 = sampleProc(sessionPid());
    const weft = roomFigures(`weft  #${rep} (WeftPeer.submit → validate → COMMIT → fan-out)`, w.results, size.secs);
    // Baseline: the same load as raw Yjs edits through a relay with no validation or storage.
    const seeder = await WeftPeer.join({ url: relayUrl, draftId: id, token: 'x' });
    seeder.applyOps([{ op: 'add', path: `/sections/${SECTION}`, value: section() as never }]);
    await seeder.flushed();
    const b = await runGenerators(hotConfigs(relayUrl, id, 'yjs', 'x'), { label: `relay hot #${rep}`, maxMs: size.secs * 1000 + 120_000 });
    seeder.close();
    const base = roomFigures(`relay #${rep} (bare Hocuspocus, Yjs edits, no validation/persistence)`, b.results, size.secs);
    out(`ratio weft/relay #${rep}: ops/s ${fmt(weft.opsPerSec / base.opsPerSec, 2)}×, all-viewers p50 ${fmt(weft.allViewers.p50 / base.allViewers.p50, 2)}×, p99 ${fmt(weft.allViewers.p99 / base.allViewers.p99, 2)}×; session ${(cpuCores(s0, s1) * 100).toFixed(0)}% CPU during the weft run`);
    hot.push({ rep, weft, relay: base, joined: w.joined, sessionCpuCores: cpuCores(s0, s1) });
  }
  relay.kill('SIGTERM');
  report['hotDraft'] = hot;

  // ── 2. raw Postgres inserts of the same rows (one row per transaction, 10 connections) vs Weft.
  out(`\n## Durable ops/s: Weft hot draft vs raw Postgres inserts of the same rows (10 connections, 1 row/tx, ${size.secs} s)`);
  const sql = postgres(stack.pg.url, { max: 10, onnotice: () => {} });
  await sql`CREATE TABLE IF NOT EXISTS raw_events (LIKE events INCLUDING DEFAULTS INCLUDING IDENTITY)`;
  const sample = (await sql`SELECT * FROM events WHERE draft_id = 'hot-0' ORDER BY version DESC LIMIT 1`)[0] as Record<string, unknown>;
  let rawN = 0;
  const rawLat: number[] = [];
  const rawEnd = Date.now() + size.secs * 1000;
  await Promise.all(Array.from({ length: 10 }, async (_, c) => {
    for (let i = 0; Date.now() < rawEnd; i++) {
      const t0 = performance.now();
      await sql`INSERT INTO raw_events (draft_id, version, op_id, body_hash, actor, actor_kind, ops, inverse) VALUES (${'raw'}, ${c * 1e7 + i}, ${`raw-${c}-${i}`}, ${String(sample['body_hash'])}, ${'bench'}, ${'agent'}, ${sql.json(sample['ops'] as never)}, ${sql.json(sample['inverse'] as never)})`;
      rawLat.push(performance.now() - t0);
      rawN++;
    }
  }));
  const raw = { opsPerSec: rawN / size.secs, lat: summarize(rawLat) };
  const hot0 = (hot[0]?.['weft'] as { opsPerSec: number } | undefined)?.opsPerSec ?? NaN;
  out(`raw inserts: ${fmt(raw.opsPerSec)} rows/s, ${fmtSummary(raw.lat)}; weft/raw ratio ${fmt(hot0 / raw.opsPerSec, 2)}× (weft hot draft ${fmt(hot0)} ops/s)`);
  report['rawPostgres'] = raw;
  // The same event body through emmett's PostgreSQL event store (one event per append, expected
  // stream version), 10 concurrent streams on the same Postgres.
  const em = await emmettAppends(stack.pg.url, size.secs, 10, { ops: sample['ops'], inverse: sample['inverse'], opId: 'emmett', actor: 'bench' });
  out(`emmett PostgreSQL event store 0.42 (10 streams, 1 event/append): ${fmt(em.appendsPerSec)} appends/s, ${fmtSummary(em.lat)}, errors ${em.errors}; weft/emmett ratio ${fmt(hot0 / em.appendsPerSec, 2)}×, emmett/raw ${fmt(em.appendsPerSec / raw.opsPerSec, 2)}×`);
  report['emmett'] = em;
  await sql.end();

  // ── 3. many drafts × 3 peers: 1 writer at 2 ops/s + 2 viewers each, beside emmett on the same shape.
  report['manyDrafts'] = await manyDrafts(stack, { drafts: size.drafts, secs: size.secs }, out);

  // ── 4. agent burst: 500-op turns over HTTP, 1 op per request and 50 ops per request.
  out('\n## Agent burst: 4 agents × 2 turns × 500 ops on one draft');
  const burst: Record<string, unknown> = {};
  for (const per of [1, 50]) {
    const id = `burst-${per}`;
    await seed(id);
    const r = await runGenerators([{ role: 'agents', url: stack.session.url, token: ADMIN_TOKEN, drafts: [id], section: SECTION, turns: 2, opsPerTurn: 500, opsPerRequest: per, agentsPerDraft: 4 }], { label: `burst ${per}/req`, maxMs: 300_000 });
    const secs = (r.endedAt - r.startedAt) / 1000;
    burst[`opsPerRequest${per}`] = roomFigures(`burst, ${per} op(s) per request (${fmt(secs)} s)`, r.results, secs);
  }
  report['agentBurst'] = burst;

  // ── 5. long-lived draft: N events, then cold load, replay, snapshot.
  out(`\n## Long-lived draft: ${size.events.toLocaleString('en')} events`);
  const big = 'long-lived';
  await seed(big);
  const agents = 4;
  const t0 = Date.now();
  await runGenerators([{ role: 'agents', url: stack.session.url, token: ADMIN_TOKEN, drafts: [big], section: SECTION, turns: Math.ceil(size.events / agents / 500), opsPerTurn: 500, opsPerRequest: 1, agentsPerDraft: agents }], { label: 'append', onTick: procLine(sampleProc(sessionPid())), maxMs: 1_200_000 });
  const head = (await admin.getDraft(big)).version;
  out(`appended ${head.toLocaleString('en')} events in ${fmt((Date.now() - t0) / 1000)} s through the API`);
  const tr = performance.now();
  const steps = await readLog(admin, big);
  const fetchMs = performance.now() - tr;
  const tf = performance.now();
  foldLog({ id: big, title: '', order: [], sections: {} }, steps);
  const foldMs = performance.now() - tf;
  out(`replay via the paged events API (events(), 1,000 a page): fetch ${fmt(fetchMs)} ms (${fmt(steps.length / (fetchMs / 1000))} events/s), client-side fold ${fmt(foldMs)} ms (${fmt(steps.length / (foldMs / 1000))} events/s)`);
  const tl = performance.now();
  let streamed = 0;
  for await (const _ of admin.log(big)) streamed++;
  const logMs = performance.now() - tl;
  out(`replay via the SDK's log() (the NDJSON stream, each line parsed): ${streamed.toLocaleString('en')} steps in ${fmt(logMs)} ms (${fmt(streamed / (logMs / 1000))} events/s)`);
  await new Promise((r) => setTimeout(r, 3000)); // give the checkpointer its quiet period
  const snaps = (await admin.versions(big)).versions.filter((v) => v.kind === 'snapshot');
  out(`snapshots written by the checkpointer: ${snaps.length}, latest at version ${snaps.map((v) => v.version).sort((a, b) => b - a)[0] ?? 'none'} (head ${head})`);
  const cold: number[] = [];
  const coldJoin: number[] = [];
  for (let rep = 0; rep < (FULL ? 5 : 3); rep++) {
    await stack.restartSession('SIGTERM');
    const client = new WeftHttpClient(stack.session.url, ADMIN_TOKEN);
    const c0 = performance.now();
    await client.getDraft(big);
    cold.push(performance.now() - c0);
    const j0 = performance.now();
    const p = await WeftPeer.join({ url: stack.session.url, draftId: big, token: ADMIN_TOKEN, timeoutMs: 60_000 });
    coldJoin.push(performance.now() - j0);
    p.close();
  }
  out(`cold load after a session restart (GET draft, room loads snapshot + tail): ${fmtSummary(summarize(cold))}; first Yjs sync after it: ${fmtSummary(summarize(coldJoin))}`);
  report['longLived'] = { head, fetchMs, foldMs, replayEventsPerSec: steps.length / (fetchMs / 1000), logMs, logEventsPerSec: streamed / (logMs / 1000), snapshots: snaps.length, coldLoad: summarize(cold), coldJoin: summarize(coldJoin) };
} finally {
  report['endedAt'] = new Date().toISOString();
  report['loadAfter'] = machine().load;
  const dir = join(ROOT, 'load-tests', 'out');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(dir, `report-${stamp}.json`), JSON.stringify(report, null, 2));
  const md = `# Weft load run ${report['startedAt']}\n\nmachine: ${m.cpu} ×${m.nproc}, load ${m.load.join(' ')} → ${(report['loadAfter'] as number[]).join(' ')}, ${m.node}, ${m.postgres}, ${m.nats}\nsizes: ${JSON.stringify(size)}\n\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n`;
  writeFileSync(join(dir, `report-${stamp}.md`), md);
  writeFileSync(join(dir, 'latest.md'), md);
  console.log(`\nreport: load-tests/out/report-${stamp}.{json,md}`);
  await stack.stop();
}
