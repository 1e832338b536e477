// Whether an update builds on structs a doc has never seen. In our protocol a peer's update only
// builds on what the server sent it or what the peer wrote itself (already judged, in order), so
// missing parents mean the peer holds another lineage (an older epoch): applying it would leave
// structs pending forever, and logging it would leave the log unable to rebuild the doc.
import * as Y from 'yjs';

/**
 * True when a struct of `update` refers to an id, or its deletions to a range, neither in `known`
 * (a state vector) nor in the update itself.
 */
export function hasMissingParents(update: Uint8Array, known: Map<number, number>): boolean {
  const { structs, ds } = Y.decodeUpdate(update);
  const own = new Map<number, [number, number][]>();
  for (const s of structs) {
    const runs = own.get(s.id.client) ?? [];
    runs.push([s.id.clock, s.id.clock + s.length]);
    own.set(s.id.client, runs);
  }
  const seen = (id: Y.ID | null): boolean => {
    if (id === null) return true;
    if (id.clock < (known.get(id.client) ?? 0)) return true;
    return (own.get(id.client) ?? []).some(([a, b]) => id.clock >= a && id.clock < b);
  };
  for (const s of structs) {
    if (!(s instanceof Y.Item)) continue;
    if (!seen(s.origin) || !seen(s.rightOrigin)) return true;
    if (s.parent instanceof Y.ID && !seen(s.parent)) return true;
  }
  for (const [client, ranges] of ds.clients) {
    for (const { clock, len } of ranges) if (!seen(Y.createID(client, clock)) || !seen(Y.createID(client, clock + len - 1))) return true;
  }
  return false;
}
