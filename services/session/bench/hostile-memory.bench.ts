// Memory bounds under hostile clients (issue: hard to break), measured and printed: idle SSE
// streams resuming a large history from Last-Event-ID 0 without reading, one connection planting
// awareness states, and /collab sockets that never authenticate. Heap and RSS of this process (the
// session) after GC, before and after each attack. Prints figures; asserts nothing.
//   node --expose-gc --import tsx services/session/bench/hostile-memory.bench.ts
import { request } from 'node:http';
import WebSocket from 'ws';
import * as Y from 'yjs';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as encoding from 'lib0/encoding';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { createMemoryBus } from '@weft/bus';
import { migrateToLatest } from '@weft/migrations';
import { connectPostgres, EventStore, SessionStore, TokenStore } from '@weft/store';
import { startPostgres } from '@weft/testing';
import { collabExtension } from '../src/collab/collab.ts';
import { parseConfig } from '../src/config.ts';
import { silentLogger } from '@weft/ops';
import { listen } from '../src/main.ts';
import { machineLine } from './machine.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc --import tsx');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mem = async (): Promise<{ heap: number; rss: number }> => {
  for (let i = 0; i < 3; i++) { gc!(); await sleep(30); }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
};
const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
const ADMIN = 'hostile-admin';

console.log(machineLine());
const pg = await startPostgres();
const conn = connectPostgres(pg.url, { max: 10 });
await migrateToLatest(conn.db);
const store = new EventStore(conn.db);
const s = await listen({ store, tokens: new TokenStore(conn.db), sessions: new SessionStore(conn.db), bus: createMemoryBus(), log: silentLogger },
  parseConfig({}, { port: 0, adminToken: ADMIN, opsPerSecond: 1e9, opsPerTurn: 1e9 }), [collabExtension({ authDeadlineMs: 2000 })]);
const auth = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
await fetch(`${s.url}/v1/drafts`, { method: 'POST', headers: auth, body: JSON.stringify({ id: 'big' }) });
const section = { id: 'hero', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: ['t'] }, t: { id: 't', component: 'Text', props: { text: 'x' } } } };
await fetch(`${s.url}/v1/drafts/big/ops`, { method: 'POST', headers: auth, body: JSON.stringify({ opId: 'seed', ops: [{ op: 'add', path: '/sections/hero', value: section }] }) });
// ~14 MB of history: 700 steps of 20 KB text each.
const filler = 'lorem ipsum '.repeat(1700);
for (let i = 0; i < 700; i++) {
  await fetch(`${s.url}/v1/drafts/big/ops`, { method: 'POST', headers: auth, body: JSON.stringify({ opId: `h-${i}`, ops: [{ op: 'replace', path: '/sections/hero/components/t/props/text', value: `${i} ${filler}` }] }) });
}
console.log('history: 700 steps × ~20 KB');

// 1. 12 SSE streams resuming from 0 that never read.
let base = await mem();
const streams = Array.from({ length: 12 }, () => {
  const req = request(`${s.url}/v1/drafts/big/stream`, { headers: { authorization: `Bearer ${ADMIN}`, 'last-event-id': '0' } }, (res) => res.pause());
  req.end();
  return req;
});
await sleep(4000);
let after = await mem();
console.log(`12 idle SSE streams resuming from Last-Event-ID 0 (never reading): heap +${mb(after.heap - base.heap)}, rss +${mb(after.rss - base.rss)} (bound: 4 MB of unread frames per stream, then it is dropped)`);
for (const r of streams) r.destroy();
await sleep(500);

// 2. One connection planting 1,000 awareness states, 100 times a second for 5 s.
const wsUrl = s.url.replace('http', 'ws') + '/collab';
const doc = new Y.Doc();
const socket = new HocuspocusProviderWebsocket({ url: wsUrl, WebSocketPolyfill: WebSocket, delay: 50, minDelay: 50 } as never);
const provider = new HocuspocusProvider({ websocketProvider: socket, name: 'big', document: doc, token: ADMIN });
const synced = new Promise<void>((r) => provider.on('synced', ({ state }: { state: boolean }) => state && r()));
provider.attach();
await synced;
const viewerDoc = new Y.Doc();
const viewerSocket = new HocuspocusProviderWebsocket({ url: wsUrl, WebSocketPolyfill: WebSocket, delay: 50, minDelay: 50 } as never);
const viewer = new HocuspocusProvider({ websocketProvider: viewerSocket, name: 'big', document: viewerDoc, token: ADMIN });
viewer.attach();
await sleep(500);
base = await mem();
const fake = new awarenessProtocol.Awareness(new Y.Doc());
const ids = Array.from({ length: 1000 }, (_, i) => 500_000 + i);
for (let round = 0; round < 500; round++) {
  const states = new Map<number, Record<string, unknown>>(ids.map((id) => [id, { user: { name: `bot ${id}` }, pad: 'x'.repeat(200) }]));
  for (const id of ids) fake.meta.set(id, { clock: round + 1, lastUpdated: Date.now() });
  const enc = encoding.createEncoder();
  encoding.writeVarString(enc, 'big');
  encoding.writeVarUint(enc, 1);
  encoding.writeVarUint8Array(enc, awarenessProtocol.encodeAwarenessUpdate(fake, ids, states));
  socket.send(encoding.toUint8Array(enc));
  await sleep(10);
}
await sleep(500);
after = await mem();
console.log(`one connection sending 1,000 awareness states 100×/s for 5 s: the viewer holds ${viewer.awareness!.getStates().size} states; heap +${mb(after.heap - base.heap)}, rss +${mb(after.rss - base.rss)}`);
provider.destroy();
socket.destroy();
viewer.destroy();
viewerSocket.destroy();

// 3. 2,000 sockets that never authenticate (the attacker runs in this process too: heap is the
// session's plus the attacker's sockets).
base = await mem();
const raw: WebSocket[] = [];
let opened = 0;
let closed = 0;
let peak = 0;
for (let i = 0; i < 2000; i++) {
  const ws = new WebSocket(wsUrl);
  ws.on('error', () => {});
  ws.on('open', () => { opened++; peak = Math.max(peak, opened - closed); });
  ws.on('close', () => { closed++; });
  raw.push(ws);
}
const t0 = Date.now();
while (closed < 2000 && Date.now() - t0 < 30_000) await sleep(200);
after = await mem();
console.log(`2,000 /collab sockets that never authenticate: at most ${peak} open at once; ${2000 - closed} still open ${((Date.now() - t0) / 1000).toFixed(1)} s later (deadline 2 s); heap +${mb(after.heap - base.heap)} once they are closed`);
for (const w of raw) w.terminate();

await s.close();
await conn.close();
await pg.destroy();
