#!/usr/bin/env node
// Prints how long `npm start`'s launcher takes to listen, from source (tsx) and from the build
// (plain node on dist/, run `npm run build` first), on a fresh embedded data directory each time.
// A script that prints figures, not a test: `node infra/scripts/startup-bench.mjs [runs]`.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const runs = Number(process.argv[2] ?? 3);
if (!existsSync(join(root, 'dist/launcher.js'))) throw new Error('run `npm run build` first');

function once(args) {
  const data = mkdtempSync(join(tmpdir(), 'weft-startup-'));
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, { cwd: root, env: { ...process.env, PORT: '0', WEFT_DATA_DIR: data, WEFT_ADMIN_TOKEN: 'bench', DATABASE_URL: '', NATS_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const guard = setTimeout(() => { p.kill('SIGKILL'); reject(new Error(`no start in 120 s:\n${out}`)); }, 120_000);
    p.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Weft is running at')) {
        const ms = performance.now() - t0;
        clearTimeout(guard);
        p.once('exit', () => { rmSync(data, { recursive: true, force: true }); resolve(ms); });
        p.kill('SIGTERM');
      }
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), ${runs} runs each, fresh PGlite each run`);
for (const [name, args] of [['tsx (npm start)', ['--import', 'tsx', 'services/launcher/src/start.ts']], ['built (node dist/launcher.js)', ['dist/launcher.js']]]) {
  const ms = [];
  for (let i = 0; i < runs; i++) ms.push(await once(args));
  console.log(`${name.padEnd(30)} median ${median(ms).toFixed(0)} ms to listen (runs: ${ms.map((x) => x.toFixed(0)).join(', ')})`);
}
