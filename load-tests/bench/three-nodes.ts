// `npm run cluster -w @weft/load-tests`: Weft on three session nodes on this machine, with a
// throwaway Postgres 15 and nats-server (started like the test harness starts them), the preview
// and the checkpointer. Any node takes any request; Ctrl-C stops everything and removes the data.
import { startNats, startPostgres } from '@weft/testing';
import { freePort, spawnLauncher } from '../src/proc.ts';
import type { ServiceProcess } from '../src/proc.ts';

const admin = process.env['WEFT_ADMIN_TOKEN'] ?? 'wft_admin_local_cluster';
const pg = await startPostgres({ fsync: true });
const nats = await startNats();
const env = { DATABASE_URL: pg.url, NATS_URL: nats.url, WEFT_ADMIN_TOKEN: admin };
const procs: ServiceProcess[] = [];
const ports = [await freePort(), await freePort(), await freePort()];
for (let i = 0; i < 3; i++) {
  procs.push(await spawnLauncher(`node-${i}`, { ...env, WEFT_SERVICES: 'session', WEFT_NODE_ID: `node-${i}`, WEFT_NODE_URL: `http://127.0.0.1:${ports[i]}` }, ports[i]));
}
procs.push(await spawnLauncher('preview', { ...env, WEFT_SERVICES: 'preview', WEFT_SESSION_URL: procs[0]!.url }));
procs.push(await spawnLauncher('checkpointer', { ...env, WEFT_SERVICES: 'checkpointer' }));
console.log(`
  Weft on three session nodes (any of them takes any request):
${procs.slice(0, 3).map((p) => `    ${p.name}: ${p.url}`).join('\n')}
  preview: ${procs[3]!.url}/build/<draft>     checkpointer: ${procs[4]!.url}
  Postgres ${pg.url}   NATS ${nats.url}   admin token: ${admin}
  Ctrl-C stops everything.
`);
const stop = async (): Promise<void> => {
  for (const p of procs) await p.kill('SIGTERM').catch(() => {});
  await nats.destroy().catch(() => {});
  await pg.destroy().catch(() => {});
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
