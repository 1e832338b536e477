// Runs generator processes with one config each, waits for all to join, starts them together,
// prints a progress line, and merges their results.
import { join } from 'node:path';
import { setPriority } from 'node:os';
import { ROOT, spawnTs } from '../proc.ts';
import type { GenConfig, GenResult, ToChild, ToParent } from './messages.ts';

export interface PoolRun { results: GenResult[]; joined: number; startedAt: number; endedAt: number }

export async function runGenerators(configs: GenConfig[], opts: { label: string; onTick?: () => string; maxMs: number; /** called when every generator joined, as they are told to go (after the warm-up, if any), with their pids */ onStart?: (pids: number[]) => void }): Promise<PoolRun> {
  // With a warm-up (RoomGen.warmupMs), the measured run, and so onStart, begins that long after the go.
  const warmupMs = Math.max(0, ...configs.map((c) => (c.role === 'room' ? c.warmupMs ?? 0 : 0)));
  const kids = configs.map((config) => {
    const child = spawnTs(join(ROOT, 'load-tests/src/gen/worker.ts'));
    // GEN_NICE=10: the generators stand in for remote clients; niced, they yield the shared cores to
    // the services under test (their own event-loop delay, printed, then shows what they paid).
    if (process.env['GEN_NICE'] && child.pid) setPriority(child.pid, Number(process.env['GEN_NICE']));
    const k = { child, config, ready: false, joined: 0, acked: 0, delivered: 0, result: null as GenResult | null, error: '' };
    child.on('message', (m: ToParent) => {
      if (m.type === 'ready') { k.ready = true; k.joined = m.joined; }
      else if (m.type === 'progress') { k.acked = m.acked; k.delivered = m.delivered; }
      else if (m.type === 'result') k.result = m.result;
      else k.error = m.message;
    });
    child.send({ type: 'config', config } satisfies ToChild);
    return k;
  });
  const t0 = Date.now();
  const tick = (): void => {
    const acked = kids.reduce((s, k) => s + k.acked, 0);
    const delivered = kids.reduce((s, k) => s + k.delivered, 0);
    process.stdout.write(`\r[${opts.label}] ${((Date.now() - t0) / 1000).toFixed(0)}s joined ${kids.reduce((s, k) => s + k.joined, 0)} acked ${acked} delivered ${delivered} ${opts.onTick?.() ?? ''}     `);
  };
  const timer = setInterval(tick, 1000);
  try {
    while (!kids.every((k) => k.ready || k.error || k.child.exitCode !== null)) {
      if (Date.now() - t0 > opts.maxMs) throw new Error(`${opts.label}: generators did not join within ${opts.maxMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const pids = kids.map((k) => k.child.pid ?? 0);
    if (!warmupMs) opts.onStart?.(pids);
    for (const k of kids) if (k.child.connected) k.child.send({ type: 'go' } satisfies ToChild);
    if (warmupMs) {
      await new Promise((r) => setTimeout(r, warmupMs));
      opts.onStart?.(pids);
    }
    const startedAt = Date.now();
    const stopAt = startedAt + opts.maxMs;
    while (!kids.every((k) => k.result || k.error || k.child.exitCode !== null)) {
      if (Date.now() > stopAt) for (const k of kids) if (k.child.connected) k.child.send({ type: 'stop' } satisfies ToChild);
      if (Date.now() > stopAt + 30_000) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    tick();
    process.stdout.write('\n');
    for (const k of kids) if (!k.result && !k.error) k.error = `exited (code ${k.child.exitCode ?? 'none'}) without a result: its ops are missing from the figures`;
    for (const k of kids) if (k.error) console.error(`[${opts.label}] generator failed: ${k.error}`);
    return { results: kids.flatMap((k) => (k.result ? [k.result] : [])), joined: kids.reduce((s, k) => s + k.joined, 0), startedAt, endedAt: Date.now() };
  } finally {
    clearInterval(timer);
    for (const k of kids) if (k.child.exitCode === null) k.child.kill('SIGKILL');
  }
}

/** Submit → all viewers: per op key, the latest arrival over every process. */
export function allViewersLatency(results: readonly GenResult[]): number[] {
  const max = new Map<string, number>();
  for (const r of results) for (const [k, v] of Object.entries(r.maxByKey)) max.set(k, Math.max(max.get(k) ?? -Infinity, v));
  return [...max.values()];
}
