// Many drafts × 3 peers (1 writer at 2 ops/s + 2 viewers each, WeftPeer over the Yjs door), and the
// same shape through emmett's PostgreSQL event store in the same run (one stream per draft, each
// appended at the same rate): served ops/s, ack p50/p99, and where the machine's CPU went.
//   npx tsx load-tests/bench/many-drafts.ts [--drafts=1000] [--secs=8] [--warmup=5 s] [--viewers=2] [--rate=2 ops/s per writer] [--per-second]
// --per-second: the session's /metrics scraped each second, printed for the slowest seconds
// (session-seconds.ts): a blocked event loop or GC against slow commit statements.
// The measured seconds follow an untimed warm-up at the same rate on the same peers (a fresh
// process runs its first thousands of ops unoptimised); the warm-up's acks are printed apart, as
// the cold start. emmett gets the same warm-up.
// With PROF=1 and load-tests/bench/profile-hook.mjs loaded, the session profiles the measured window.
// Also section 3 of load-tests/bench/run.ts.
import { pathToFileURL } from 'node:url';
import postgres from 'postgres';
import { runGenerators } from '../src/gen/pool.ts';
import type { GenConfig } from '../src/gen/messages.ts';
import { machine } from '../src/machine.ts';
import { cpuCores, machineTicks, sampleProc, schedTimes, treeTicks, TICKS_PER_SECOND } from '@weft/testing';
import { fmt, fmtSummary, summarize } from '../src/stats.ts';
import { emmettOpenLoop } from '../src/baseline-emmett.ts';
import { roomFigures, slowestSeconds } from './figures.ts';
import { SessionSeconds } from './session-seconds.ts';
import { COMPONENTS, SECTION, seed } from './scenario.ts';
import { ADMIN_TOKEN, startStack } from './stack.ts';
import type { Stack } from './stack.ts';

const MB = 2 ** 20;
/** The profile hook's signal (profile-hook.mjs): only with the hook loaded, which handles it. */
const PROF = process.env['PROF'] === '1' && (process.env['NODE_OPTIONS'] ?? '').includes('profile-hook');

export async function manyDrafts(stack: Stack, size: { drafts: number; secs: number; warmup?: number; viewers?: number; rate?: number; perSecond?: boolean }, out: (s: string) => void): Promise<Record<string, unknown>> {
  const viewers = size.viewers ?? 2;
  const rate = size.rate ?? 2;
  const warmup = size.warmup ?? 5;
  out(`\n## ${size.drafts} drafts × ${viewers + 1} peers (1 writer at ${rate} ops/s, ${viewers} viewers), ${size.secs} s after ${warmup} s of warm-up`);
  const ids = Array.from({ length: size.drafts }, (_, i) => `many-${i}`);
  for (let i = 0; i < ids.length; i += 20) await Promise.all(ids.slice(i, i + 20).map((id) => seed(stack.admin, id)));
  const sessionPid = stack.session.pid;
  // PROF_SERVICE=checkpointer (or preview) profiles that service instead (the hook reads it too).
  const profPid = ({ checkpointer: stack.checkpointer?.pid, preview: stack.preview?.pid } as Record<string, number | undefined>)[process.env['PROF_SERVICE'] ?? ''] ?? sessionPid;
  const gcBefore = sampleProc(sessionPid);
  const procs = 4;
  const chunk = Math.ceil(ids.length / procs);
  const cfg: GenConfig[] = Array.from({ length: procs }, (_, p) => ({
    role: 'room', url: stack.session.url, token: ADMIN_TOKEN, drafts: ids.slice(p * chunk, (p + 1) * chunk), section: SECTION, components: COMPONENTS,
    viewers, writers: 1, writerOffset: 0, rate, durationMs: size.secs * 1000, warmupMs: warmup * 1000, mode: 'submit',
    watch: [COMPONENTS[0]!], // the one writer of a draft writes c0: reading the other nine after every update was a fifth of a generator's time
  }));
  let peak = gcBefore;
  // CPU over the measured run only (after every peer joined): per process tree, and the machine.
  const tree = () => ({
    session: treeTicks(sessionPid), postgres: treeTicks(stack.pg.pid), nats: treeTicks(stack.nats.pid),
    preview: stack.preview ? treeTicks(stack.preview.pid) : 0, checkpointer: stack.checkpointer ? treeTicks(stack.checkpointer.pid) : 0,
  });
  let cpuAt: { t: ReturnType<typeof tree>; m: ReturnType<typeof machineTicks>; at: number } | null = null;
  // The same, over the offered load's own seconds (go → go + secs), with the generators' trees and
  // the session's main thread's run-queue wait: the figures above also span the drain, the 2 s the
  // peers wait for the last deliveries and their close, which dilutes them (a machine that is
  // saturated while the load runs read as 1.5 of 2 cores busy).
  const snap = (gens: number[]) => ({ t: tree(), gens: gens.reduce((sum, p) => sum + treeTicks(p), 0), m: machineTicks(), sched: schedTimes(sessionPid), at: performance.now() });
  let goAt = 0;
  const perSecond = size.perSecond ? new SessionSeconds(`${stack.session.url}/metrics`, ADMIN_TOKEN) : null;
  const measured: { window: Promise<{ a: ReturnType<typeof snap>; b: ReturnType<typeof snap> }> | null } = { window: null };
  const many = await runGenerators(cfg, {
    label: 'many drafts', maxMs: size.secs * 1000 + 300_000,
    onStart: (gens) => {
      if (PROF) process.kill(profPid, 'SIGUSR2');
      const a = snap(gens);
      goAt = Date.now();
      perSecond?.start(goAt, size.secs);
      cpuAt = { t: a.t, m: a.m, at: a.at };
      measured.window = new Promise((r) => setTimeout(() => r({ a, b: snap(gens) }), size.secs * 1000));
    },
    onTick: () => { const s = sampleProc(sessionPid); if (s.rssBytes > peak.rssBytes) peak = s; return `session rss ${(s.rssBytes / MB).toFixed(0)} MB`; },
  });
  const manyEnd = sampleProc(sessionPid);
  if (PROF) process.kill(profPid, 'SIGUSR2');
  const cold = summarize(many.results.flatMap((r) => r.warmAckMs));
  if (warmup > 0) out(`warm-up (the first ${warmup} s of load on this process, untimed): ${fmt(cold.n / warmup)} ops/s acked, ack ${fmtSummary(cold)}`);
  const f = roomFigures(out, `${size.drafts} drafts`, many.results, size.secs);
  const perDraftKB = (peak.rssBytes - gcBefore.rssBytes) / 1024 / size.drafts;
  out(`per open draft (${viewers + 1} peers): session RSS +${fmt(perDraftKB)} KB (peak ${fmt(peak.rssBytes / MB)} MB vs ${fmt(gcBefore.rssBytes / MB)} MB before joining), CPU ${fmt((cpuCores(gcBefore, manyEnd) * 1000) / size.drafts, 2)} ms/s per draft; joined ${many.joined} peers`);
  let cpu: Record<string, number> = {};
  if (cpuAt) {
    const a = cpuAt as { t: ReturnType<typeof tree>; m: ReturnType<typeof machineTicks>; at: number };
    const secs = (performance.now() - a.at) / 1000;
    const b = tree();
    const m = machineTicks();
    cpu = Object.fromEntries(Object.entries(b).map(([k, v]) => [k, (v - a.t[k as keyof typeof b]) / TICKS_PER_SECOND / secs]));
    // The generators exit before this (their process trees would read 0): each reports its own CPU.
    cpu['generators'] = many.results.reduce((sum, r) => sum + (r.cpuMs ?? 0), 0) / 1000 / secs;
    cpu['machineBusy'] = ((m.busy - a.m.busy) / (m.total - a.m.total)) * 2;
    cpu['stolen'] = ((m.steal - a.m.steal) / (m.total - a.m.total)) * 2; // by the hypervisor, for other guests
    out(`session CPU per acked op: ${fmt((cpu['session']! * secs * 1e6) / f.ack.n)} µs (its process tree's CPU time from the go to the peers' close, closes included, / ops acked)`);
    out(`CPU from the go to the peers' close (${fmt((performance.now() - a.at) / 1000, 1)} s), in cores (the machine has 2; machineBusy counts every process on it, stolen what the hypervisor took for other guests): ${Object.entries(cpu).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
  }
  if (measured.window) {
    const { a, b } = await measured.window;
    const secs = (b.at - a.at) / 1000;
    const cores = (ticks: number): string => (ticks / TICKS_PER_SECOND / secs).toFixed(2);
    const inWindow = Object.entries(b.t).map(([k, v]) => `${k} ${cores(v - a.t[k as keyof typeof b.t])}`).join(', ');
    const perSec = (ns: number): string => fmt(ns / 1e6 / secs);
    out(`CPU while the load ran (go → go + ${fmt(secs, 1)} s), in cores: ${inWindow}, generators ${cores(b.gens - a.gens)}, machineBusy ${(((b.m.busy - a.m.busy) / (b.m.total - a.m.total)) * 2).toFixed(2)}, stolen ${(((b.m.steal - a.m.steal) / (b.m.total - a.m.total)) * 2).toFixed(2)}; the session's main thread on a core ${perSec(b.sched.runNs - a.sched.runNs)} ms/s, runnable but waiting for one ${perSec(b.sched.waitNs - a.sched.waitNs)} ms/s`);
  }
  out(await snapshotsBySecond(stack.pg.url, goAt, size.secs));
  if (perSecond) out(`the session in the slowest seconds (its /metrics each second): ${perSecond.describe(slowestSeconds(many.results, 3).slice(0, 3).map((w) => w.second))}`);
  // The session's own view of the same acks (submit command in → answer out, commit included),
  // from its /metrics histogram: what of the ack time is the service and what is the sockets and
  // the generators' event loops around it.
  const text = await (await fetch(`${stack.session.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  const server = histogramQuantiles(text, 'weft_ack_seconds', 'outcome="ok"', [0.5, 0.99]);
  const batch = histogramQuantiles(text, 'weft_commit_batch_steps', '', [0.5, 0.99]);
  const sum = (n: string): number => Number(new RegExp(`^${n} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  out(`in the session since it started, warm-up included (weft_ack_seconds, bucket bounds): ack p50 ≤ ${fmt(server[0]! * 1000)} ms, p99 ≤ ${fmt(server[1]! * 1000)} ms; room commits since start ${fmt(sum('weft_commit_batch_steps_count'))} of ${fmt(sum('weft_commit_batch_steps_sum'))} steps (p99 ≤ ${batch[1]} steps each), in ${fmt(sum('weft_group_commit_statements_total'))} cross-draft statements of ${fmt((sum('weft_group_commit_seconds_total') / sum('weft_group_commit_statements_total')) * 1000)} ms each on average`);
  const gc = [...text.matchAll(/^nodejs_gc_duration_seconds_sum\{kind="(\w+)"\} (\S+)$/gm)].map(([, kind, secs]) => {
    const count = Number(new RegExp(`^nodejs_gc_duration_seconds_count\\{kind="${kind}"\\} (\\S+)$`, 'm').exec(text)?.[1]);
    const upTo100ms = Number(new RegExp(`^nodejs_gc_duration_seconds_bucket\\{le="0.1",kind="${kind}"\\} (\\S+)$`, 'm').exec(text)?.[1]);
    return `${kind} ${count} (${fmt(Number(secs) * 1000)} ms in all, ${count - upTo100ms} over 100 ms)`;
  });
  if (gc.length) out(`the session's GC pauses since it started, warm-up included (nodejs_gc_duration_seconds): ${gc.join(', ')}`);
  // The same shape through emmett, on the same Postgres, once Weft's after-work has settled (the
  // checkpointer's quiet snapshots of every draft, autovacuum): emmett must not pay for it.
  const settled = await settle([sessionPid, stack.pg.pid, ...(stack.checkpointer ? [stack.checkpointer.pid] : [])]);
  out(`(waited ${fmt(settled.ms / 1000, 1)} s for the session, Postgres and the checkpointer to settle below 0.1 cores${settled.quiet ? '' : ': they did not, emmett runs beside them'})`);
  const em = await emmettOpenLoop(stack.pg.url, size.secs, size.drafts, rate, { ops: [{ op: 'replace', path: `/sections/${SECTION}/components/c0/props/text`, value: 'x'.repeat(40) }], inverse: [], opId: 'emmett', actor: 'bench' }, warmup);
  out(`emmett PostgreSQL event store 0.42, ${size.drafts} streams × ${rate} appends/s (offered ${fmt(em.offeredPerSec)}/s): ${fmt(em.appendsPerSec)} appends/s, ${fmtSummary(em.lat)}, errors ${em.errors}; weft/emmett ops served on the same schedule ${fmt(f.ack.n / em.lat.n, 2)}× (${f.ack.n} vs ${em.lat.n}), ack p99 weft ${fmt(f.ack.p99)} ms vs emmett ${fmt(em.lat.p99)} ms`);
  return { ...f, perDraftKB, joined: many.joined, cpu, emmett: em };
}

/**
 * The checkpointer's snapshots by the second they were written, from the go: drafts written in step
 * come due together, and how that burst lands beside the acks is part of the picture.
 */
async function snapshotsBySecond(url: string, goAt: number, secs: number): Promise<string> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ s: number; reason: string; n: number }[]>`
      SELECT floor(extract(epoch FROM created_at) - ${goAt / 1000})::int AS s, reason, count(*)::int AS n
      FROM snapshots WHERE created_at >= to_timestamp(${goAt / 1000}) GROUP BY 1, 2 ORDER BY 1, 2`;
    const inWindow = rows.filter((r) => r.s < secs);
    const peak = Math.max(0, ...inWindow.map((r) => r.n));
    const list = inWindow.map((r) => `+${r.s}s ${r.n} ${r.reason}`).join(', ');
    return `the checkpointer's snapshots while the load ran (go at ${new Date(goAt).toISOString().slice(11, 23)}), by second: ${list || 'none'}; at most ${peak} in a second`;
  } finally {
    await sql.end();
  }
}

/** Waits until these process trees together use < 0.1 cores over 1 s (at most 30 s). */
async function settle(pids: number[]): Promise<{ ms: number; quiet: boolean }> {
  const t0 = performance.now();
  const ticks = (): number => pids.reduce((sum, p) => sum + treeTicks(p), 0);
  for (let before = ticks(); performance.now() - t0 < 30_000; ) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = ticks();
    if ((now - before) / TICKS_PER_SECOND < 0.1) return { ms: performance.now() - t0, quiet: true };
    before = now;
  }
  return { ms: performance.now() - t0, quiet: false };
}

/** Upper bucket bounds at quantiles `qs` of a Prometheus histogram (cumulative buckets), label filter `match`. */
function histogramQuantiles(text: string, name: string, match: string, qs: number[]): number[] {
  const buckets: [number, number][] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}_bucket{`) || !line.includes(match)) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    if (le === undefined) continue;
    buckets.push([le === '+Inf' ? Infinity : Number(le), Number(line.slice(line.lastIndexOf(' ') + 1))]);
  }
  buckets.sort((a, b) => a[0] - b[0]);
  const total = buckets.at(-1)?.[1] ?? 0;
  return qs.map((q) => buckets.find(([, c]) => c >= q * total)?.[0] ?? NaN);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string, d: number): number => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? d);
  const m = machine();
  console.log(`machine: ${m.cpu} ×${m.nproc}, load ${m.load.join(' ')}, node ${m.node}`);
  const stack = await startStack();
  try {
    await manyDrafts(stack, { drafts: arg('drafts', 1000), secs: arg('secs', 8), warmup: arg('warmup', 5), viewers: arg('viewers', 2), rate: arg('rate', 2), perSecond: process.argv.includes('--per-second') }, console.log);
  } finally {
    console.log(`load after: ${machine().load.join(' ')}`);
    await stack.stop();
  }
}
