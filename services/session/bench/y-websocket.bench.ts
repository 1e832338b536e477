// The y-websocket door (/collab/<id>) beside the Hocuspocus door (/collab), side by side in one
// run: the same drafts, each with one writer and one viewer of the door's own client library
// (y-websocket's WebsocketProvider; HocuspocusProvider, a socket each), the writer editing a heading
// `rate` times a second. Printed per door: edits the viewers saw, writer → viewer latency, and the
// session's CPU per edit; then the y-websocket door's ratios to the Hocuspocus door (medians of the
// rounds). Rounds alternate the doors so neither always runs second, after one untimed round of
// each. The clients share this process (and the two cores) with the bench, the same for both
// doors. Prints figures; asserts nothing.
//   npx tsx services/session/bench/y-websocket.bench.ts [--drafts 100] [--rate 2] [--secs 6] [--rounds 3]
import { parseArgs } from 'node:util';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { WeftHttpClient } from '@weft/client';
import { freePort, sampleProc, startPostgres, TICKS_PER_SECOND } from '@weft/testing';
import { addSectionOps } from '../test/helpers.ts';
import { childSession } from '../test/sim/child-session.ts';
import { machineLine } from './machine.ts';

const { values: args } = parseArgs({ options: {
  drafts: { type: 'string', default: '100' }, rate: { type: 'string', default: '2' }, secs: { type: 'string', default: '6' }, rounds: { type: 'string', default: '3' },
} });
const DRAFTS = Number(args.drafts);
const RATE = Number(args.rate);
const SECS = Number(args.secs);
const ROUNDS = Number(args.rounds);
const ADMIN = 'y-websocket-bench-admin';
type Door = 'hocuspocus' | 'y-websocket';

interface Peer { doc: Y.Doc; synced(): boolean; destroy(): void }

function join(door: Door, url: string, draftId: string): Peer {
  const doc = new Y.Doc();
  if (door === 'y-websocket') {
    const p = new WebsocketProvider(url.replace('http', 'ws') + '/collab', draftId, doc, { params: { token: ADMIN }, WebSocketPolyfill: WebSocket as never, disableBc: true });
    return { doc, synced: () => p.synced, destroy: () => p.destroy() };
  }
  const socket = new HocuspocusProviderWebsocket({ url: url.replace('http', 'ws') + '/collab', WebSocketPolyfill: WebSocket } as never);
  const p = new HocuspocusProvider({ websocketProvider: socket, name: draftId, document: doc, token: ADMIN });
  p.attach();
  return { doc, synced: () => p.isSynced, destroy: () => { p.destroy(); socket.destroy(); } };
}

const title = (doc: Y.Doc): Y.Map<unknown> | undefined =>
  ((doc.getMap('sections').get('hero') as Y.Map<unknown> | undefined)?.get('components') as Y.Map<Y.Map<unknown>> | undefined)?.get('title');
const pct = (xs: number[], p: number): number => xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

interface Figures { sent: number; seen: number; p50: number; p99: number; cpuUsPerEdit: number }

async function round(door: Door, url: string, pid: number, tag: string): Promise<Figures> {
  const pairs = Array.from({ length: DRAFTS }, (_, i) => ({ writer: join(door, url, `d${i}`), viewer: join(door, url, `d${i}`) }));
  const t0 = Date.now();
  while (!pairs.every((p) => p.writer.synced() && p.viewer.synced() && title(p.writer.doc) && title(p.viewer.doc))) {
    if (Date.now() - t0 > 60_000) throw new Error(`${door}: not every peer synced within 60 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  /** Edits in flight: when each was made, and whether it counts (made while measuring). */
  const sentAt = new Map<string, { at: number; counted: boolean }>();
  const lat: number[] = [];
  let measuring = false;
  for (const { viewer } of pairs) {
    viewer.doc.on('update', () => {
      const text = (title(viewer.doc)?.get('props') as Record<string, unknown> | undefined)?.['text'];
      const sent = typeof text === 'string' ? sentAt.get(text) : undefined;
      if (sent === undefined) return;
      sentAt.delete(text as string);
      if (sent.counted) lat.push(performance.now() - sent.at);
    });
  }
  let seq = 0;
  let sent = 0;
  const edit = (w: Peer): void => {
    const t = title(w.doc);
    if (!t) return;
    const text = `${tag}-${seq++}`;
    sentAt.set(text, { at: performance.now(), counted: measuring });
    if (measuring) sent++;
    t.set('props', { ...(t.get('props') as object), text });
  };
  // Each writer on its own phase, so the edits spread over the second.
  const timers = pairs.map(({ writer }, i) => setTimeout(() => { edit(writer); timers[i] = setInterval(() => edit(writer), 1000 / RATE) as never; }, (i * 1000) / RATE / DRAFTS));
  await new Promise((r) => setTimeout(r, 2000)); // warm
  measuring = true;
  const c0 = sampleProc(pid);
  await new Promise((r) => setTimeout(r, SECS * 1000));
  const c1 = sampleProc(pid);
  measuring = false;
  for (const t of timers) { clearTimeout(t); clearInterval(t); }
  await new Promise((r) => setTimeout(r, 1000)); // the last edits arrive (counted only if sent while measuring)
  for (const p of pairs) { p.writer.destroy(); p.viewer.destroy(); }
  const cpuMs = ((c1.cpuTicks - c0.cpuTicks) * 1000) / TICKS_PER_SECOND;
  return { sent, seen: lat.length, p50: pct(lat, 0.5), p99: pct(lat, 0.99), cpuUsPerEdit: (cpuMs * 1000) / Math.max(1, sent) };
}

// y-websocket adds a process 'exit' listener per provider; hundreds here are expected.
process.setMaxListeners(0);
console.log(machineLine());
const pg = await startPostgres({ fsync: true });
// The session alone (no preview or checkpointer in its process), as on a node of its own.
const session = childSession({ databaseUrl: pg.url, port: await freePort(), adminToken: ADMIN, env: { WEFT_SERVICES: 'session' }, nodeFlags: ['--max-semi-space-size=64'] });
try {
  await session.start();
  const admin = new WeftHttpClient(session.url, ADMIN);
  for (let i = 0; i < DRAFTS; i++) {
    await admin.createDraft(`d${i}`, `Draft ${i}`);
    await admin.submit(`d${i}`, { opId: `seed-${i}`, ops: addSectionOps('hero') as never });
  }
  console.log(`${DRAFTS} drafts × (1 writer + 1 viewer), ${RATE} edits/s per writer, ${SECS} s measured per round, ${ROUNDS} rounds per door`);
  // One untimed round of each door first: the session's hot paths are still being compiled.
  for (const door of ['hocuspocus', 'y-websocket'] as const) await round(door, session.url, session.proc!.pid!, `${door}-warm`);
  const all: Record<Door, Figures[]> = { hocuspocus: [], 'y-websocket': [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order: Door[] = r % 2 === 0 ? ['hocuspocus', 'y-websocket'] : ['y-websocket', 'hocuspocus'];
    for (const door of order) {
      const f = await round(door, session.url, session.proc!.pid!, `${door}-${r}`);
      all[door].push(f);
      console.log(`  round ${r + 1} ${door.padEnd(11)} seen ${f.seen}/${f.sent}, writer → viewer p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, session ${f.cpuUsPerEdit.toFixed(0)} µs CPU per edit`);
    }
  }
  const median = (door: Door, k: keyof Figures): number => pct(all[door].map((f) => f[k]), 0.5);
  const ratio = (k: keyof Figures): string => (median('y-websocket', k) / median('hocuspocus', k)).toFixed(2);
  console.log(`y-websocket / Hocuspocus (medians of the rounds): p50 ${ratio('p50')}×, p99 ${ratio('p99')}×, session CPU per edit ${ratio('cpuUsPerEdit')}×`);
  console.log(machineLine());
} finally {
  await session.stop();
  await pg.destroy();
}
