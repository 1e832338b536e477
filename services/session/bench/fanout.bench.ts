// Submit-to-all-viewers latency: one writer's Yjs edit (the draft title) until every viewer has it,
// through the committed path (the session service: validated, committed to Postgres with fsync on,
// then broadcast) and through a bare Hocuspocus relay of the same updates, side by side in one run.
// Viewers live in ≥ 2 child processes so the load generator is not the bottleneck. Prints figures,
// asserts nothing. Run: node --import tsx services/session/bench/fanout.bench.ts [edits]
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { WeftHttpClient, WeftPeer } from '@weft/client';
import { freePort, startPostgres } from '@weft/testing';
import { applyOpsToYDoc, draftToYDoc } from '@weft/ydoc';
import type { Draft } from '@weft/core';
import { percentile, sleep } from '../../../shared/testing/src/sim/index.ts';
import { childSession } from '../test/sim/child-session.ts';
import { machineLine } from './machine.ts';

const EDITS = Number(process.argv[2] ?? 300);
const VIEWERS = [10, 50, 200];
const here = (f: string): string => fileURLToPath(new URL(f, import.meta.url));
const ADMIN = 'bench-admin';

interface Figures { perEdit: number[]; perDelivery: number[]; lost: number }

async function spawnViewers(kind: 'weft' | 'relay', url: string, draftId: string, token: string, n: number, onRow: (v: number, seq: number, ns: bigint) => void): Promise<ChildProcess[]> {
  const procs = Math.max(2, Math.ceil(n / 50));
  const kids: ChildProcess[] = [];
  for (let p = 0; p < procs; p++) {
    const count = Math.floor(n / procs) + (p < n % procs ? 1 : 0);
    const base = kids.reduce((a, _k, i) => a + Math.floor(n / procs) + (i < n % procs ? 1 : 0), 0);
    const child = fork(here('./viewers.ts'), [JSON.stringify({ kind, url, draftId, token, count })], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = new Promise<void>((r) => child.on('message', (m: { type: string; rows?: [number, number, string][] }) => {
      if (m.type === 'ready') r();
      else if (m.type === 'seen') for (const [v, seq, ns] of m.rows!) onRow(base + v, seq, BigInt(ns));
    }));
    kids.push(child);
    await ready;
  }
  return kids;
}

async function measure(kind: 'weft' | 'relay', n: number, url: string, draftId: string, viewerToken: string, edit: (title: string) => void): Promise<Figures> {
  const arrivals = new Map<number, bigint[]>();
  const kids = await spawnViewers(kind, url, draftId, viewerToken, n, (_v, seq, ns) => {
    const a = arrivals.get(seq) ?? [];
    a.push(ns);
    arrivals.set(seq, a);
  });
  const f: Figures = { perEdit: [], perDelivery: [], lost: 0 };
  const warmup = 20;
  for (let i = 0; i < EDITS + warmup; i++) {
    const t0 = process.hrtime.bigint();
    edit(`seq-${i}`);
    const deadline = Date.now() + 5000;
    while ((arrivals.get(i)?.length ?? 0) < n && Date.now() < deadline) await sleep(1);
    const got = arrivals.get(i) ?? [];
    if (i >= warmup) {
      if (got.length < n) f.lost++;
      const ms = got.map((t) => Number(t - t0) / 1e6);
      f.perDelivery.push(...ms);
      if (got.length === n) f.perEdit.push(Math.max(...ms));
    }
    await sleep(5);
  }
  for (const k of kids) k.send({ type: 'exit' });
  await Promise.all(kids.map((k) => new Promise((r) => k.once('exit', r))));
  return f;
}

const fmt = (xs: number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  return ['p50', 'p99', 'p99.9', 'max'].map((p, i) => `${p} ${percentile(s, [50, 99, 99.9, 100][i]!).toFixed(2)}`).join('  ');
};
const p = (xs: number[], q: number): number => percentile([...xs].sort((a, b) => a - b), q);

console.log(machineLine());
console.log(`fanout: ${EDITS} title edits per run (after 20 warm-up), viewers in ≥ 2 child processes; ms from the writer's edit to each viewer`);
const pg = await startPostgres({ fsync: true });
const svc = childSession({ databaseUrl: pg.url, port: await freePort(), adminToken: ADMIN });
await svc.start();
const relayPort = await freePort();
const relay = spawn(process.execPath, ['--import', 'tsx', here('./relay-server.ts'), String(relayPort)], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise<void>((r) => relay.stdout!.on('data', (b: Buffer) => b.toString().includes('listening') && r()));
const admin = new WeftHttpClient(svc.url, ADMIN);
const hero = { id: 'hero', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: ['title'] }, title: { id: 'title', component: 'Heading', props: { text: 'Hi', level: 1 } } } };

try {
  for (const n of VIEWERS) {
    const id = `fan-${n}`;
    await admin.createDraft(id, 'Fanout');
    await admin.submit(id, { opId: 'seed', ops: [{ op: 'add', path: '/sections/hero', value: hero }] });
    const w = await admin.mintToken({ actor: { id: `writer-${n}`, kind: 'human' }, scopes: { [id]: ['write'] } });
    const rd = await admin.mintToken({ actor: { id: `viewers-${n}`, kind: 'human' }, scopes: { [id]: ['read'] } });
    const writer = await WeftPeer.join({ url: svc.url, draftId: id, token: w.token });
    const weft = await measure('weft', n, svc.url, id, rd.token, (title) => writer.applyOps([{ op: 'replace', path: '/title', value: title }]));
    writer.close();

    // The relay gets the same draft as a Y.Doc and the same title updates.
    const doc = new Y.Doc();
    draftToYDoc((await admin.getDraft(id)).draft as Draft, doc);
    const socket = new HocuspocusProviderWebsocket({ url: `ws://127.0.0.1:${relayPort}`, WebSocketPolyfill: WebSocket, delay: 50, minDelay: 50 } as never);
    const provider = new HocuspocusProvider({ websocketProvider: socket, name: id, document: doc, token: 'x' });
    const synced = new Promise<void>((r) => provider.on('synced', ({ state }: { state: boolean }) => state && r()));
    provider.attach();
    await synced;
    const plain = await measure('relay', n, `ws://127.0.0.1:${relayPort}`, id, 'x', (title) => applyOpsToYDoc(doc, [{ op: 'replace', path: '/title', value: title }]));
    provider.destroy();
    socket.destroy();

    console.log(`\n${n} viewers`);
    console.log(`  committed, all viewers have it : ${fmt(weft.perEdit)}  (lost ${weft.lost})`);
    console.log(`  relay,     all viewers have it : ${fmt(plain.perEdit)}  (lost ${plain.lost})`);
    console.log(`  committed, per delivery        : ${fmt(weft.perDelivery)}`);
    console.log(`  relay,     per delivery        : ${fmt(plain.perDelivery)}`);
    console.log(`  ratio committed/relay (all viewers): p50 ×${(p(weft.perEdit, 50) / p(plain.perEdit, 50)).toFixed(1)}  p99 ×${(p(weft.perEdit, 99) / p(plain.perEdit, 99)).toFixed(1)}`);
  }
} finally {
  relay.kill('SIGTERM');
  await svc.stop();
  await pg.destroy();
}
