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
 * `writers` streams appended at once (as Weft's drafts are one stream each), one event per append
 * with the expected stream version, for `secs` seconds after `warmupSecs` untimed ones at the same
 * pace; `gapMs` > 0 paces each stream (open loop, first append at a random offset), 0 appends
 * again as soon as the last one is acknowledged.
 */
async function appendStreams(url: string, secs: number, writers: number, gapMs: number, data: Record<string, unknown>, warmupSecs = 0): Promise<EmmettFigures> {
  const store = getPostgreSQLEventStore(url);
  // The first call migrates emmett's schema (its own tables beside ours): not timed.
  await store.appendToStream(`warm-up-${Date.now()}`, [{ type: 'OpApplied', data }]);
  const lat: number[] = [];
  let n = 0;
  let errors = 0;
  const run = Date.now();
  const measuredFrom = run + warmupSecs * 1000;
  const end = measuredFrom + secs * 1000;
  await Promise.all(Array.from({ length: writers }, async (_, c) => {
    const stream = `draft-${c}-${run}`;
    let version = 0n;
    let next = performance.now() + Math.random() * gapMs;
    while (Date.now() < end) {
      if (gapMs > 0) {
        const wait = next - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        next += gapMs;
      }
      const t0 = performance.now();
      const measured = Date.now() >= measuredFrom;
      try {
        const r = await store.appendToStream(stream, [{ type: 'OpApplied', data }], version === 0n ? { expectedStreamVersion: 'STREAM_DOES_NOT_EXIST' } : { expectedStreamVersion: version });
        version = r.nextExpectedStreamVersion;
        if (measured) {
          n++;
          lat.push(performance.now() - t0);
        }
      } catch {
        if (measured) errors++;
      }
    }
  }));
  await store.close();
  return { appendsPerSec: n / secs, lat: summarize(lat), errors };
}

/** `connections` closed-loop writers, each on its own stream. `data` is the event body. */
export function emmettAppends(url: string, secs: number, connections: number, data: Record<string, unknown>): Promise<EmmettFigures> {
  return appendStreams(url, secs, connections, 0, data);
}

/** The many-drafts shape through emmett: `streams` streams, each appended `rate` times a second (open loop, as Weft's many-drafts writers submit). */
export async function emmettOpenLoop(url: string, secs: number, streams: number, rate: number, data: Record<string, unknown>, warmupSecs = 0): Promise<EmmettFigures & { offeredPerSec: number }> {
  return { ...(await appendStreams(url, secs, streams, 1000 / rate, data, warmupSecs)), offeredPerSec: streams * rate };
}
