// `npm run cluster -w @weft/load-tests`: Weft on three session nodes on this machine, with a
// throwaway Postgres 15 and nats-server (started like the test harness starts them), the preview
// and the checkpointer. Any node takes any request; Ctrl-C stops everything and removes the data.
import { randomBytes } from 'node:crypto';
import { startNats, startPostgres } from '@weft/testing';
import { freePort, spawnLauncher } from '../src/proc.ts';
import type { ServiceProcess } from '../src/proc.ts';

const admin = process.env['WEFT_ADMIN_TOKEN'] ?? 'wft_admin_local_cluster';
const pg = await startPostgres({ fsync: true });
const nats = await startNats();
// One ticket key for every process: the preview signs its pages' tickets, the nodes take them on
// reader actions.
const env = { DATABASE_URL: pg.url, NATS_URL: nats.url, WEFT_ADMIN_TOKEN: admin, WEFT_PREVIEW_SECRET: randomBytes(32).toString('hex') };
const procs: ServiceProcess[] = [];
const ports = [await freePort(), await freePort(), await freePort()];
const previewPort = await freePort();
// The Build view is served by the preview (its own origin) and calls node-0: the nodes allow it.
const previewOrigin = `http://127.0.0.1:${previewPort}`;
for (let i = 0; i < 3; i++) {
  procs.push(await spawnLauncher(`node-${i}`, { ...env, WEFT_SERVICES: 'session', WEFT_NODE_ID: `node-${i}`, WEFT_NODE_URL: `http://127.0.0.1:${ports[i]}`, WEFT_CORS_ORIGINS: previewOrigin }, ports[i]));
}
procs.push(await spawnLauncher('preview', { ...env, WEFT_SERVICES: 'preview', WEFT_SESSION_URL: procs[0]!.url }, previewPort));
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
