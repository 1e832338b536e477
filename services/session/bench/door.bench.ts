// The session's CPU per op through the Yjs door, many drafts with a writer and viewers each, measured
// with clients that cost next to nothing: raw WebSockets speaking Hocuspocus' framing (auth, the
// `submit` stateless message, counting the update frames) in one child process, so the figure is
// the service's and stays readable on a shared 2-core box. The session runs as `npm start` does
// (its own process, --max-semi-space-size=64) on Postgres 15 (fsync on) and nats-server.
// Prints figures; asserts nothing.
//   npx tsx services/session/bench/door.bench.ts [--drafts 1000] [--viewers 2] [--rate 1] [--secs 8] [--warm 5]
// The load runs `warm` seconds before the measured `secs` (V8 is still optimizing the hot path
// after the joins: ~12 % of the session's CPU in the first seconds went to TurboFan).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import WebSocket from 'ws';
import { WeftHttpClient } from '@weft/client';
import { freePort, machineTicks, sampleProc, startNats, startPostgres, TICKS_PER_SECOND } from '@weft/testing';
import { childSession } from '../test/sim/child-session.ts';
import { machineLine } from './machine.ts';

const { values: args } = parseArgs({ args: process.argv.slice(2).filter((a) => a !== 'client'), options: {
  drafts: { type: 'string', default: '1000' }, viewers: { type: 'string', default: '2' }, rate: { type: 'string', default: '1' }, secs: { type: 'string', default: '8' }, warm: { type: 'string', default: '5' },
} });
const ADMIN = 'door-bench-admin';
const AUTH = 2, TOKEN = 0, AUTHENTICATED = 2, STATELESS = 5, SYNC = 0;

interface ClientConfig { url: string; token: string; drafts: string[]; viewers: number; rate: number; secs: number; warm: number }
interface ClientResult { acked: number; failed: number; ackMs: number[]; frames: number; cpuMs: number; joinMs: number }

/** One Hocuspocus frame: [document name][message type][...rest]. */
function frame(doc: string, type: number, write: (e: encoding.Encoder) => void): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, doc);
  encoding.writeVarUint(e, type);
  write(e);
  return encoding.toUint8Array(e);
}

/** The client process: (viewers + 1) sockets per draft; writers submit at `rate`. */
async function runClients(c: ClientConfig): Promise<ClientResult> {
  const wsUrl = c.url.replace(/^http/, 'ws') + '/collab';
  const r: ClientResult = { acked: 0, failed: 0, ackMs: [], frames: 0, cpuMs: 0, joinMs: 0 };
  const sent = new Map<string, number>();
  let measureFrom = Infinity;
  const writers: { ws: WebSocket; doc: string }[] = [];
  const open = (doc: string, writer: boolean): Promise<void> => new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
    ws.binaryType = 'nodebuffer';
    ws.on('error', reject);
    ws.on('open', () => ws.send(frame(doc, AUTH, (e) => { encoding.writeVarUint(e, TOKEN); encoding.writeVarString(e, c.token); })));
    ws.on('message', (data: Buffer) => {
      const d = decoding.createDecoder(data);
      decoding.readVarString(d);
      const type = decoding.readVarUint(d);
      if (type === AUTH && decoding.readVarUint(d) === AUTHENTICATED) {
        if (writer) writers.push({ ws, doc });
        resolve();
      } else if (type === SYNC) r.frames++;
      else if (type === STATELESS && writer) {
        const m = JSON.parse(decoding.readVarString(d)) as { type: string; opId: string; ok: boolean };
        const t0 = sent.get(m.opId);
        if (m.type !== 'result' || t0 === undefined) return;
        sent.delete(m.opId);
        if (t0 < measureFrom) return; // sent during the warm-up
        if (m.ok) { r.acked++; r.ackMs.push(performance.now() - t0); } else r.failed++;
      }
    });
  });
  const t0 = performance.now();
  const jobs = c.drafts.flatMap((doc) => [() => open(doc, true), ...Array.from({ length: c.viewers }, () => () => open(doc, false))]);
  for (let i = 0; i < jobs.length; i += 50) await Promise.all(jobs.slice(i, i + 50).map((j) => j()));
  r.joinMs = performance.now() - t0;
  process.send!({ type: 'joined' });
  await new Promise<void>((res) => process.once('message', () => res()));
  let cpu0 = process.cpuUsage();
  const gap = 1000 / c.rate;
  measureFrom = performance.now() + c.warm * 1000;
  const end = measureFrom + c.secs * 1000;
  setTimeout(() => { cpu0 = process.cpuUsage(); r.acked = 0; r.failed = 0; r.ackMs = []; r.frames = 0; process.send!({ type: 'measure' }); }, c.warm * 1000);
  let n = 0;
  await Promise.all(writers.map(async (w, k) => {
    let next = performance.now() + Math.random() * gap;
    for (let i = 0; next < end; i++, next += gap) {
      const wait = next - performance.now();
      if (wait > 0) await new Promise((res) => setTimeout(res, wait));
      const opId = `op-${k}-${i}-${n++}`;
      sent.set(opId, performance.now());
      w.ws.send(frame(w.doc, STATELESS, (e) => encoding.writeVarString(e, JSON.stringify({ type: 'submit', opId, ops: [{ op: 'replace', path: '/sections/s/components/c0/props/text', value: `${opId} ${'x'.repeat(24)}` }] }))));
    }
  }));
  await new Promise((res) => setTimeout(res, 2000)); // the last answers
  const cpu = process.cpuUsage(cpu0);
  r.cpuMs = (cpu.user + cpu.system) / 1000;
  r.failed += sent.size;
  return r;
}

if (process.argv[2] === 'client') {
  process.once('message', (c: ClientConfig) => {
    void runClients(c).then((r) => process.send!({ type: 'result', r }, undefined, {}, () => process.exit(0)));
  });
} else {
  const drafts = Number(args.drafts), viewers = Number(args.viewers), rate = Number(args.rate), secs = Number(args.secs);
  console.log(machineLine());
  const pg = await startPostgres({ fsync: true });
  const nats = await startNats();
  const port = await freePort();
  const session = childSession({ databaseUrl: pg.url, port, adminToken: ADMIN, env: { NATS_URL: nats.url, WEFT_SERVICES: 'session' }, nodeFlags: ['--max-semi-space-size=64', ...(process.env['DOOR_FLAGS'] ?? '').split(' ').filter(Boolean)] });
  await session.start();
  try {
    const admin = new WeftHttpClient(session.url, ADMIN);
    const ids = Array.from({ length: drafts }, (_, i) => `door-${i}`);
    const section = { id: 's', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: ['c0', 'c1'] }, c0: { id: 'c0', component: 'Heading', props: { text: 'a', level: 2 } }, c1: { id: 'c1', component: 'Text', props: { text: 'b' } } } };
    for (let i = 0; i < ids.length; i += 20) await Promise.all(ids.slice(i, i + 20).map(async (id) => { await admin.createDraft(id); await admin.submit(id, { opId: `seed-${id}`, ops: [{ op: 'add', path: '/sections/s', value: section }] }); }));
    const kid = fork(fileURLToPath(import.meta.url), ['client'], { execArgv: ['--import', 'tsx'] });
    kid.send({ url: session.url, token: ADMIN, drafts: ids, viewers, rate, secs, warm: Number(args.warm) } satisfies ClientConfig);
    await new Promise<void>((res) => kid.once('message', () => res()));
    const pid = session.proc!.pid!;
    const ticks = (): number => sampleProc(pid).cpuTicks;
    let t0 = 0, s0 = 0, m0 = machineTicks();
    kid.send('go');
    const r = await new Promise<ClientResult>((res) => kid.on('message', (m: { type: string; r?: ClientResult }) => {
      if (m.type === 'measure') { t0 = performance.now(); s0 = ticks(); m0 = machineTicks(); }
      if (m.type === 'result') res(m.r!);
    }));
    const wall = (performance.now() - t0) / 1000, s1 = ticks(), m1 = machineTicks();
    const sessionCores = (s1 - s0) / TICKS_PER_SECOND / wall;
    const q = (p: number): string => { const s = [...r.ackMs].sort((a, b) => a - b); return (s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN).toFixed(1); };
    console.log(`${drafts} drafts × (1 writer at ${rate}/s + ${viewers} viewers), ${secs} s after ${args.warm} s of warm-up: ${r.acked} acked (${(r.acked / secs).toFixed(0)}/s of ${drafts * rate} offered), ${r.failed} failed; ack p50 ${q(0.5)} ms, p99 ${q(0.99)} ms; ${r.frames} update frames received`);
    console.log(`session CPU ${sessionCores.toFixed(2)} cores = ${((sessionCores * wall * 1e6) / r.acked).toFixed(0)} µs per acked op (incl. its share of idle peers; the window includes 2 s after the last submit); clients ${(r.cpuMs / 1000 / wall).toFixed(2)} cores; machine busy ${(((m1.busy - m0.busy) / (m1.total - m0.total)) * 2).toFixed(2)} of 2`);
  } finally {
    if (process.env['DOOR_OUT']) (await import('node:fs')).writeFileSync(process.env['DOOR_OUT'], session.output());
    await session.stop();
    await nats.destroy();
    await pg.destroy();
  }
}
