// Several session nodes, side by side in one run (3 session processes on one Postgres 15 with fsync
// on and one nats-server): the cost of forwarding (a write through a non-owner vs through the
// owner), fan-out to an SSE viewer on a non-owner vs on the owner, and takeover after kill -9 of the
// owner. Prints figures; asserts nothing.
//   npx tsx load-tests/bench/cluster.ts [--writes 300] [--kills 5]
import { parseArgs } from 'node:util';
import { WeftHttpClient } from '@weft/client';
import { startNats, startPostgres } from '@weft/testing';
import postgres from 'postgres';
import { machine } from '../src/machine.ts';
import { freePort, spawnLauncher } from '../src/proc.ts';
import type { ServiceProcess } from '../src/proc.ts';
import { summarize } from '../src/stats.ts';
import { seedDraft, TEXT_PATH } from '../faults/driver.ts';

const { values: args } = parseArgs({ options: { writes: { type: 'string', default: '300' }, kills: { type: 'string', default: '5' } } });
const WRITES = Number(args.writes);
const KILLS = Number(args.kills);
const ADMIN = 'bench-cluster-admin';
const LEASE_MS = 2000;
const fmt = (s: { p50: number; p99: number; max: number }): string => `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;

console.log(`machine: ${JSON.stringify(machine())}`);
const pg = await startPostgres({ fsync: true });
const nats = await startNats();
const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
const env = { DATABASE_URL: pg.url, NATS_URL: nats.url, WEFT_ADMIN_TOKEN: ADMIN, WEFT_OPS_PER_SECOND: '1000000', WEFT_OPS_PER_TURN: '1000000', WEFT_LEASE_MS: String(LEASE_MS) };
const ports = [await freePort(), await freePort(), await freePort()];
const start = (i: number): Promise<ServiceProcess> => spawnLauncher(`node-${i}`, { ...env, WEFT_SERVICES: 'session', WEFT_NODE_ID: `node-${i}`, WEFT_NODE_URL: `http://127.0.0.1:${ports[i]}` }, ports[i]);
const nodes: ServiceProcess[] = [];
for (let i = 0; i < 3; i++) nodes.push(await start(i));
const http = (i: number): WeftHttpClient => new WeftHttpClient(nodes[i]!.url, ADMIN);
const ownerOf = async (id: string): Promise<number> => Number((await sql<{ owner_node: string }[]>`SELECT owner_node FROM drafts WHERE id = ${id}`)[0]!.owner_node.slice(5));

// 1. Forwarding: one closed-loop writer, alternating owner / non-owner, same draft.
await seedDraft(http(0), 'fwd');
const owner = await ownerOf('fwd');
const other = (owner + 1) % 3;
const direct: number[] = [];
const forwarded: number[] = [];
for (let i = 0; i < WRITES; i++) {
  for (const [node, into] of [[owner, direct], [other, forwarded]] as const) {
    const t0 = performance.now();
    await http(node).submit('fwd', { opId: `f-${node}-${i}`, ops: [{ op: 'replace', path: TEXT_PATH, value: `v${i}` }] });
    into.push(performance.now() - t0);
  }
}
const d = summarize(direct.slice(20));
const f = summarize(forwarded.slice(20));
console.log(`write through the owner:     ${fmt(d)}`);
console.log(`write through a non-owner:   ${fmt(f)}  (forwarding adds p50 ${(f.p50 - d.p50).toFixed(1)} ms, p99 ${(f.p99 - d.p99).toFixed(1)} ms)`);

// 2. Fan-out: submit → STATE_DELTA on an SSE viewer of the owner (its room) and of a non-owner
// (its follower view, fed by the bus). A frame may arrive before the ack: times are kept per
// version and matched once every write is done.
async function viewer(node: number, id: string, on: (version: number) => void): Promise<AbortController> {
  const ctrl = new AbortController();
  const res = await fetch(`${nodes[node]!.url}/v1/drafts/${id}/stream`, { headers: { authorization: `Bearer ${ADMIN}` }, signal: ctrl.signal });
  void (async () => {
    const reader = res.body!.getReader();
    let buf = '';
    for (;;) {
      const r = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (r.done) return;
      buf += Buffer.from(r.value).toString();
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const m = /^id: (\d+)$/m.exec(frame);
        if (m && frame.includes('event: STATE_DELTA')) on(Number(m[1]));
      }
    }
  })();
  return ctrl;
}
const sent = new Map<number, number>();
const gotOwner = new Map<number, number>();
const gotOther = new Map<number, number>();
const v1 = await viewer(owner, 'fwd', (v) => { if (!gotOwner.has(v)) gotOwner.set(v, performance.now()); });
const v2 = await viewer(other, 'fwd', (v) => { if (!gotOther.has(v)) gotOther.set(v, performance.now()); });
await new Promise((r) => setTimeout(r, 300));
for (let i = 0; i < WRITES; i++) {
  const t0 = performance.now();
  const r = await http(owner).submit('fwd', { opId: `fan-${i}`, ops: [{ op: 'replace', path: TEXT_PATH, value: `fan${i}` }] });
  sent.set(r.version, t0);
  await new Promise((res) => setTimeout(res, 5));
}
await new Promise((r) => setTimeout(r, 500));
v1.abort();
v2.abort();
const lat = (got: Map<number, number>): number[] => [...sent].filter(([v]) => got.has(v)).map(([v, t0]) => got.get(v)! - t0);
const atOwner = lat(gotOwner);
const atOther = lat(gotOther);
console.log(`fan-out to an SSE viewer on the owner:     ${fmt(summarize(atOwner))} (${atOwner.length} of ${WRITES}), from the submit`);
console.log(`fan-out to an SSE viewer on a non-owner:   ${fmt(summarize(atOther))} (${atOther.length} of ${WRITES}, its follower view over NATS)`);

// 3. Takeover after kill -9 of the owner: until a write through another node is acked.
const takeover: number[] = [];
for (let k = 0; k < KILLS; k++) {
  const id = `tk-${k}`;
  await seedDraft(http(k % 3), id);
  const o = await ownerOf(id);
  const survivor = (o + 1) % 3;
  await nodes[o]!.kill('SIGKILL');
  const t0 = performance.now();
  for (let attempt = 0; ; attempt++) {
    try {
      await http(survivor).submit(id, { opId: `tk-${k}-w`, ops: [{ op: 'replace', path: TEXT_PATH, value: 'after' }] });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  takeover.push(performance.now() - t0);
  nodes[o] = await start(o);
}
const t = summarize(takeover);
console.log(`takeover after kill -9 of the owner (lease ${LEASE_MS} ms): p50 ${t.p50.toFixed(0)} ms, max ${t.max.toFixed(0)} ms over ${KILLS} kills`);

for (const n of nodes) await n.kill('SIGTERM');
await sql.end();
await nats.destroy();
await pg.destroy();
