#!/usr/bin/env node
// `npm test`: typecheck, then both vitest projects (unit + int). The int project's global setup
// starts Postgres and nats-server itself, so this works on a fresh clone with no services running.
// Output streams through; the exit code is the first failure's.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
  NPM_CONFIG_UPDATE_NOTIFIER: 'false',
};

/** Extra args after `npm test --` go to vitest (e.g. a path or `--project unit`). */
const vitestArgs = process.argv.slice(2);

const steps = [
  ['typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['dependency rule', process.execPath, [join(root, 'infra', 'scripts', 'check-deps.mjs')]],
  ['tests', 'npx', ['vitest', 'run', ...vitestArgs]],
];

for (const [name, cmd, args] of steps) {
  console.log(`\n▶ ${name}: ${[cmd === process.execPath ? 'node' : cmd, ...args].join(' ')}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (r.error !== undefined) {
    console.error(`✗ ${name}: ${r.error.message}`);
    process.exit(1);
  }
  if (r.status !== 0) {
    console.error(`✗ ${name} failed (exit ${r.status ?? r.signal}) after ${secs}s`);
    process.exit(r.status ?? 1);
  }
  console.log(`✓ ${name} (${secs}s)`);
}
