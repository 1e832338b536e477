// Baseline from the ecosystem: emmett's PostgreSQL event store (event-driven-io), appending the
// same rows Weft appends — one event per append, optimistic concurrency on the stream version —
// on the same Postgres, so its figure sits beside Weft's and raw inserts in one run.
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { summarize } from './stats.ts';
import type { Summary } from './stats.ts';

export interface EmmettFigures {
  appendsPerSec: number;
  lat: Summary;
  errors: number;
}

/**
 * `connections` concurrent writers, each appending to its own stream (as Weft's drafts are one
 * stream each) with the expected stream version, for `secs` seconds. `data` is the event body.
 */
export async function emmettAppends(url: string, secs: number, connections: number, data: Record<string, unknown>): Promise<EmmettFigures> {
  const store = getPostgreSQLEventStore(url);
  // The first call migrates emmett's schema (its own tables beside ours): not timed.
  await store.appendToStream('warm-up', [{ type: 'OpApplied', data }]);
  const lat: number[] = [];
  let n = 0;
  let errors = 0;
  const end = Date.now() + secs * 1000;
  await Promise.all(Array.from({ length: connections }, async (_, c) => {
    const stream = `draft-${c}-${Date.now()}`;
    let version = 0n;
    while (Date.now() < end) {
      const t0 = performance.now();
      try {
        const r = await store.appendToStream(stream, [{ type: 'OpApplied', data }], version === 0n ? { expectedStreamVersion: 'STREAM_DOES_NOT_EXIST' } : { expectedStreamVersion: version });
        version = r.nextExpectedStreamVersion;
        n++;
        lat.push(performance.now() - t0);
      } catch {
        errors++;
      }
    }
  }));
  await store.close();
  return { appendsPerSec: n / secs, lat: summarize(lat), errors };
}

/**
 * The many-drafts shape through emmett: `streams` streams, each appended `rate` times a second on
 * its own schedule (open loop, as Weft's many-drafts writers submit), for `secs` seconds.
 */
export async function emmettOpenLoop(url: string, secs: number, streams: number, rate: number, data: Record<string, unknown>): Promise<EmmettFigures & { offeredPerSec: number }> {
  const store = getPostgreSQLEventStore(url);
  await store.appendToStream('warm-up-open', [{ type: 'OpApplied', data }]);
  const lat: number[] = [];
  let n = 0;
  let errors = 0;
  const gap = 1000 / rate;
  const end = Date.now() + secs * 1000;
  const run = Date.now();
  await Promise.all(Array.from({ length: streams }, async (_, c) => {
    const stream = `many-${c}-${run}`;
    let version = 0n;
    let next = performance.now() + Math.random() * gap;
    while (Date.now() < end) {
      const wait = next - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      next += gap;
      const t0 = performance.now();
      try {
        const r = await store.appendToStream(stream, [{ type: 'OpApplied', data }], version === 0n ? { expectedStreamVersion: 'STREAM_DOES_NOT_EXIST' } : { expectedStreamVersion: version });
        version = r.nextExpectedStreamVersion;
        n++;
        lat.push(performance.now() - t0);
      } catch {
        errors++;
      }
    }
  }));
  await store.close();
  return { appendsPerSec: n / secs, lat: summarize(lat), errors, offeredPerSec: streams * rate };
}
