// Op-to-pixels latency (issue 5): an op sent over HTTP → the text visible in the live preview in
// headless Chromium, committed path on a real Postgres 15 (fsync on). Prints figures; asserts nothing.
// Run: npx tsx load-tests/bench/pixels.ts [ops=60] [paced-ms=400]  (npm start's launcher as its own process)
// Paced slower than the page's 4 updates/s so each op is measured on its own; a burst is measured
// too (ops closer than 250 ms are coalesced by design: latest wins).
import { cpus, loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { WeftHttpClient } from '@weft/client';
import { startPostgres } from '@weft/testing';
import { spawnLauncher } from '../src/proc.ts';

const CHROMIUM_LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
};

const N = Number(process.argv[2] ?? 60);
const PACE = Number(process.argv[3] ?? 400);
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const f1 = (n: number): string => n.toFixed(1);

console.log(`machine: ${cpus()[0]?.model} ×${cpus().length}, load ${loadavg().map(f1).join(' ')}, node ${process.version}`);
const pg = await startPostgres();
const ADMIN = 'pixels-admin';
const svc = await spawnLauncher('pixels', { DATABASE_URL: pg.url, WEFT_ADMIN_TOKEN: ADMIN, WEFT_OPS_PER_SECOND: '1000000' });
const url = svc.url;
const api = new WeftHttpClient(url, ADMIN);
await api.createDraft('px', 'Pixels');
await api.submit('px', { opId: 'seed', ops: [{ op: 'add', path: '/sections/hero', value: { id: 'hero', kind: 'surface', catalog: 'weft@1', data: {},
  components: { root: { id: 'root', component: 'Stack', children: ['title'] }, title: { id: 'title', component: 'Heading', props: { text: 'start', level: 1 } } } } }] });
const ticket = (await (await fetch(`${url}/preview/px/ticket`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } })).json()) as { url: string };
const browser = await chromium.launch(CHROMIUM_LAUNCH);
const page = await browser.newPage();
await page.goto(url + ticket.url);
await page.waitForSelector('[data-component-id="title"]');

async function one(i: number): Promise<number> {
  const text = `edit-${i}`;
  const seen = page.waitForFunction((t) => document.querySelector('[data-component-id="title"]')?.textContent === t, text, { polling: 'raf', timeout: 10_000 });
  const t0 = performance.now();
  await api.submit('px', { opId: `px-${i}`, ops: [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: text }] });
  await seen;
  return performance.now() - t0;
}

for (let i = 0; i < 5; i++) await one(-1 - i); // warm-up
const lat: number[] = [];
for (let i = 0; i < N; i++) {
  lat.push(await one(i));
  await new Promise((r) => setTimeout(r, PACE));
}
console.log(`op → pixels (HTTP submit, COMMIT, bus, section re-render, fetch + morph, paint), ${N} ops paced ${PACE} ms: p50 ${f1(pct(lat, 50))} ms, p99 ${f1(pct(lat, 99))} ms, max ${f1(Math.max(...lat))} ms`);

await browser.close();
await svc.kill('SIGTERM');
await pg.destroy();
