// A load-generator process: Yjs viewers and writers (WeftPeer) or HTTP agents, driven by the
// parent over IPC, so the generators are not the bottleneck of the process they measure.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { profileWhile } from './profile.ts';
import { WeftError, WeftHttpClient, WeftPeer } from '@weft/client';
import type * as Y from 'yjs';
import { now, stamp, unstamp } from './messages.ts';
import type { AgentGen, GenConfig, GenResult, RoomGen, ToChild, ToParent } from './messages.ts';

const send = (m: ToParent): void => { process.send?.(m); };
/** Sends and waits until the message left (a large result must not be cut off by the exit). */
const sendAll = (m: ToParent): Promise<void> => new Promise((resolve) => { if (!process.send) resolve(); else process.send(m, undefined, {}, () => resolve()); });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const result: GenResult = { maxByKey: {}, deliveries: [], ackMs: [], ackSentAt: [], warmAckMs: [], acked: 0, errors: {}, joinMs: [], joinFailures: 0, firstAck: 0, lastAck: 0 };
const err = (k: string): void => { result.errors[k] = (result.errors[k] ?? 0) + 1; };
const ack = (ms: number): void => {
  const t = now();
  if (!result.firstAck) result.firstAck = t;
  result.lastAck = t;
  result.acked++;
  result.ackMs.push(ms);
  result.ackSentAt.push(t - ms);
};
let delivered = 0;
/** Epoch ms (now()) at which the measured run starts: ops sent before it are the warm-up's. */
let measuredFrom = Infinity;
const lag = monitorEventLoopDelay({ resolution: 10 });
let cpuAtGo: NodeJS.CpuUsage | undefined;
/** The measured run ends (before the peers are closed: closing hundreds is not load). Once. */
function endMeasure(): void {
  if (result.loopLag) return;
  lag.disable();
  const ms = (ns: number): number => ns / 1e6;
  result.loopLag = { p50: ms(lag.percentile(50)), p99: ms(lag.percentile(99)), max: ms(lag.max) };
  const cpu = process.cpuUsage(cpuAtGo);
  result.cpuMs = (cpu.user + cpu.system) / 1000;
}
let stopping = false;
let go: () => void = () => {};
const started = new Promise<void>((r) => { go = r; });

/** The text prop of a component, read in place (no toJSON of the whole props map per update). */
function textOf(doc: Y.Doc, section: string, component: string): unknown {
  const s = doc.getMap('sections').get(section) as Y.Map<unknown> | undefined;
  const c = (s?.get('components') as Y.Map<unknown> | undefined)?.get(component) as Y.Map<unknown> | undefined;
  const p = c?.get('props') as Y.Map<unknown> | Record<string, unknown> | undefined;
  const v = p && typeof (p as Y.Map<unknown>).get === 'function' ? (p as Y.Map<unknown>).get('text') : (p as Record<string, unknown> | undefined)?.['text'];
  return v !== null && typeof v === 'object' && 'toJSON' in v ? (v as Y.Text).toJSON() : v; // a Y.Text reads as its string
}

function watch(peer: WeftPeer, c: RoomGen): void {
  const last = new Map<string, unknown>();
  const onUpdate = (): void => {
    const t = now();
    for (const comp of c.watch ?? c.components) {
      const text = textOf(peer.doc, c.section, comp);
      if (text === last.get(comp)) continue;
      last.set(comp, text);
      const s = unstamp(text);
      if (!s || s.at < measuredFrom) continue;
      const ms = t - s.at;
      delivered++;
      if (result.deliveries.length < 100_000) result.deliveries.push(ms);
      const prev = result.maxByKey[s.key];
      if (prev === undefined || ms > prev) result.maxByKey[s.key] = ms;
    }
  };
  peer.doc.on('update', onUpdate);
  peer.onReload((doc) => doc.on('update', onUpdate)); // a new Yjs epoch: a fresh doc
}

async function join(c: { url: string; token: string }, draftId: string): Promise<WeftPeer | null> {
  const t0 = performance.now();
  try {
    const p = await WeftPeer.join({ url: c.url, draftId, token: c.token, timeoutMs: 30_000 });
    result.joinMs.push(performance.now() - t0);
    return p;
  } catch {
    result.joinFailures++;
    return null;
  }
}

async function runRoom(c: RoomGen): Promise<void> {
  const peers: WeftPeer[] = [];
  const writers: { peer: WeftPeer; comp: string; k: number }[] = [];
  // Join in small batches: hundreds of simultaneous handshakes measure the handshake, not the load.
  const jobs: (() => Promise<void>)[] = [];
  for (const d of c.drafts) {
    for (let v = 0; v < c.viewers; v++) jobs.push(async () => { const p = await join(c, d); if (p) { watch(p, c); peers.push(p); } });
    for (let w = 0; w < c.writers; w++) {
      const k = c.writerOffset + w;
      jobs.push(async () => { const p = await join(c, d); if (p) { peers.push(p); writers.push({ peer: p, comp: c.components[k % c.components.length]!, k }); } });
    }
  }
  for (let i = 0; i < jobs.length; i += 10) await Promise.all(jobs.slice(i, i + 10).map((j) => j()));
  send({ type: 'ready', joined: peers.length });
  await started;
  const warmupMs = c.warmupMs ?? 0;
  measuredFrom = now() + warmupMs;
  // The measured run's own figures (loop delay, CPU, profile) start after the warm-up.
  let profiled: { stop(): Promise<void> } | undefined;
  const measure = (): void => { lag.enable(); cpuAtGo = process.cpuUsage(); profiled = profileWhile('generator'); };
  if (warmupMs > 0) setTimeout(measure, warmupMs);
  else measure();
  const until = Date.now() + warmupMs + c.durationMs;
  const path = (comp: string) => `/sections/${c.section}/components/${comp}/props/text`;
  await Promise.all(writers.map(async ({ peer, comp, k }) => {
    const gap = c.rate > 0 ? 1000 / c.rate : 0;
    let next = performance.now() + Math.random() * gap;
    for (let i = 0; !stopping && Date.now() < until; i++) {
      if (gap) { const wait = next - performance.now(); if (wait > 0) await sleep(wait); next += gap; }
      const key = `${peer.draftId}-w${k}-${i}`;
      const op = { op: 'replace' as const, path: path(comp), value: stamp(key) };
      const warm = now() < measuredFrom;
      if (c.mode === 'yjs') {
        peer.applyOps([op]);
        if (!warm) ack(0);
        if (!gap) await sleep(1);
        continue;
      }
      const t0 = performance.now();
      // A warm-up's failure still counts, under its own name: the warm-up is untimed, not unchecked.
      const fail = (code: string): void => err(warm ? `warm-up ${code}` : code);
      try {
        const r = await peer.submit([op], { opId: `op-${key}`, timeoutMs: 30_000 });
        if (!r.ok) fail(r.error?.code ?? 'refused');
        else if (warm) result.warmAckMs.push(performance.now() - t0);
        else ack(performance.now() - t0);
      } catch {
        fail('timeout');
      }
    }
  }));
  await sleep(2000); // let the last deliveries land
  endMeasure();
  await profiled?.stop();
  for (const p of peers) p.close();
}

async function runAgents(c: AgentGen): Promise<void> {
  const client = new WeftHttpClient(c.url, c.token);
  send({ type: 'ready', joined: 0 });
  await started;
  lag.enable();
  cpuAtGo = process.cpuUsage();
  const path = (comp: string) => `/sections/${c.section}/components/${comp}/props/text`;
  await Promise.all(c.drafts.flatMap((d) => Array.from({ length: c.agentsPerDraft }, async (_, a) => {
    for (let t = 0; t < c.turns && !stopping; t++) {
      const turnId = `turn-${d}-${process.pid}-${a}-${t}`;
      for (let i = 0; i < c.opsPerTurn && !stopping; i += c.opsPerRequest) {
        const ops = Array.from({ length: Math.min(c.opsPerRequest, c.opsPerTurn - i) }, (_, j) => ({ op: 'replace', path: path(`c${(a + j) % 10}`), value: `a${a}-${t}-${i + j}` }));
        const t0 = performance.now();
        try {
          await client.submit(d, { opId: `${turnId}-${i}`, turnId, ops });
          for (let j = 0; j < ops.length; j++) ack(performance.now() - t0);
        } catch (e) {
          err(e instanceof WeftError ? e.code : 'network');
        }
      }
    }
  })));
}

process.on('message', (m: ToChild) => {
  if (m.type === 'go') go();
  else if (m.type === 'stop') stopping = true;
  else if (m.type === 'config') void run(m.config);
});
const progress = setInterval(() => send({ type: 'progress', acked: result.acked, delivered }), 1000);

async function run(c: GenConfig): Promise<void> {
  try {
    if (c.role === 'room') await runRoom(c);
    else await runAgents(c);
    endMeasure();
    clearInterval(progress);
    await sendAll({ type: 'result', result });
  } catch (e) {
    clearInterval(progress);
    await sendAll({ type: 'error', message: e instanceof Error ? e.stack ?? e.message : String(e) });
  }
  // Exits only once the answer is out: with a fixed delay, the 20 s runs' results (tens of
  // thousands of latencies) were sometimes cut off, and the bench counted that process as silent.
  process.exit(0);
}
