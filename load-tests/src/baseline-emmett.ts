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
