// What a peer's update writes and what it builds on, decoded once for the door's checks. In our
// protocol a peer's update only builds on what the server sent it or what the peer wrote itself
// (already judged, in order), so missing parents mean the peer holds another lineage (an older
// epoch): applied, such structs would wait forever and the log could not rebuild the doc.
import * as Y from 'yjs';

export interface UpdateParts {
  /** Client id → the end clock of its structs in the update. */
  readonly to: Map<number, number>;
  readonly structs: ReturnType<typeof Y.decodeUpdate>['structs'];
  readonly ds: ReturnType<typeof Y.decodeUpdate>['ds'];
}

/** Decodes every struct of `update` without touching a doc; throws on malformed bytes. */
export function readUpdate(update: Uint8Array): UpdateParts {
  const { structs, ds } = Y.decodeUpdate(update);
  const to = new Map<number, number>();
  for (const s of structs) {
    if (s instanceof Y.Skip) continue; // a gap in a merged update, not content
    to.set(s.id.client, Math.max(to.get(s.id.client) ?? 0, s.id.clock + s.length));
  }
  return { to, structs, ds };
}

/**
 * True when a struct of the update refers to an id, or its deletions to a range, neither in
 * `known` (a state vector) nor in the update itself.
 */
export function hasMissingParents(u: UpdateParts, known: Map<number, number>): boolean {
  const own = new Map<number, [number, number][]>();
  for (const s of u.structs) {
    const runs = own.get(s.id.client) ?? [];
    runs.push([s.id.clock, s.id.clock + s.length]);
    own.set(s.id.client, runs);
  }
  const seen = (id: Y.ID | null): boolean => {
    if (id === null) return true;
    if (id.clock < (known.get(id.client) ?? 0)) return true;
    return (own.get(id.client) ?? []).some(([a, b]) => id.clock >= a && id.clock < b);
  };
  for (const s of u.structs) {
    if (!(s instanceof Y.Item)) continue;
    if (!seen(s.origin) || !seen(s.rightOrigin)) return true;
    if (s.parent instanceof Y.ID && !seen(s.parent)) return true;
  }
  for (const [client, ranges] of u.ds.clients) {
    for (const { clock, len } of ranges) if (!seen(Y.createID(client, clock)) || !seen(Y.createID(client, clock + len - 1))) return true;
  }
  return false;
}
