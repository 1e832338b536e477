// Webhook dispatch on a throwaway Postgres 15 (fsync on), one all-drafts endpoint on a local
// receiver answering 204: `npx tsx services/webhooks/bench/dispatch.bench.ts [steps] [concurrency]`
// Prints how long the log's steps take to arrive after the last commit (fan-out + signed POSTs),
// deliveries/s, and the attempts' latency from the delivery log. The box is shared: figures are
// relative.
import { createServer } from 'node:http';
import { migrateToLatest } from '@weft/migrations';
import { silentLogger } from '@weft/ops';
import { connectPostgres, EventStore, WebhookStore } from '@weft/store';
import { startPostgres } from '@weft/testing';
import { sql } from 'kysely';
import { build } from '../src/app.ts';

const STEPS = Number(process.argv[2] ?? 2000);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const pg = await startPostgres();
const conn = connectPostgres(pg.url, { max: 20 });
let received = 0;
const server = createServer((req, res) => { req.resume(); req.on('end', () => { received++; res.writeHead(204).end(); }); });
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const port = (server.address() as { port: number }).port;
try {
  await migrateToLatest(conn.db);
  const store = new EventStore(conn.db);
  const hooks = new WebhookStore(conn.db);
  await hooks.createEndpoint({ url: `http://127.0.0.1:${port}/in`, draftId: null, eventTypes: ['draft.version.committed'] });
  const DRAFTS = 20;
  for (let d = 0; d < DRAFTS; d++) await store.createDraft({ id: `d${d}`, title: '', createdBy: 'bench' });
  const config = { allowPrivate: true, timeoutMs: 5000, maxAttempts: 3, backoffBaseMs: 100, backoffMaxMs: 1000, pollMs: 20, concurrency: CONCURRENCY, retentionDays: 30 };
  const heads = new Array<number>(DRAFTS).fill(0);
  let next = 0;
  /** STEPS single-op steps, the drafts committing in parallel (one writer per draft, as rooms do). */
  const commit = async (n: number): Promise<void> => {
    const end = next + n;
    await Promise.all(Array.from({ length: DRAFTS }, async (_, d) => {
      for (let i = next + d; i < end; i += DRAFTS) {
        const r = await store.append(`d${d}`, heads[d]!, [{ opId: `op-${i}`, bodyHash: 'h', actor: 'bench', actorKind: 'agent', ops: [{ op: 'replace', path: '/title', value: `t${i}` }], inverse: [], notes: [], refused: [] }]);
        if (!r.ok) throw new Error(JSON.stringify(r.error));
        heads[d]!++;
      }
    }));
    next = end;
  };
  const until = async (n: number): Promise<void> => {
    for (let i = 0; received < n; i++) {
      if (i > 12_000) throw new Error(`only ${received}/${n} arrived in 120 s`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  // Live: the dispatcher runs while the steps commit.
  let dispatcher = build({ store: hooks, log: silentLogger }, config);
  await dispatcher.run();
  const t0 = performance.now();
  await commit(STEPS);
  const tCommitted = performance.now();
  await until(STEPS);
  const tLive = performance.now();
  await dispatcher.stop();

  // Backlog: the steps committed while no dispatcher ran (downtime), then one starts.
  await commit(STEPS);
  dispatcher = build({ store: hooks, log: silentLogger }, config);
  const t1 = performance.now();
  await dispatcher.run();
  await until(2 * STEPS);
  const tBacklog = performance.now();
  await dispatcher.stop();
  const { rows } = await sql<{ p50: number; p99: number; attempts: string }>`
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY (a->>'ms')::int) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY (a->>'ms')::int) AS p99, count(*) AS attempts
    FROM webhook_deliveries, jsonb_array_elements(attempt_log) a`.execute(conn.db);
  const s = rows[0]!;
  console.log(`${STEPS} single-op steps over ${DRAFTS} drafts, one all-drafts endpoint, concurrency ${CONCURRENCY}`);
  console.log(`  live:    commits took ${(tCommitted - t0).toFixed(0)} ms (${(STEPS / ((tCommitted - t0) / 1000)).toFixed(0)} steps/s); the last delivery arrived ${(tLive - tCommitted).toFixed(0)} ms after the last commit`);
  console.log(`  backlog: ${STEPS} deliveries drained in ${(tBacklog - t1).toFixed(0)} ms = ${(STEPS / ((tBacklog - t1) / 1000)).toFixed(0)} deliveries/s (fan-out + claim + signed POST + record)`);
  console.log(`  attempts: ${s.attempts} for ${2 * STEPS} deliveries; attempt latency p50 ${s.p50} ms, p99 ${Math.round(s.p99)} ms`);
} finally {
  server.close();
  await conn.close();
  await pg.destroy();
}
