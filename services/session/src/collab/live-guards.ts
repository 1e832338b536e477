// What keeps an open /collab connection honest after it was let in: awareness within bounds and
// in its own slots, and a principal that is still valid (revocation, expiry).
import type { Connection } from '@hocuspocus/server';
import type { DraftDoc } from './draft-doc.ts';

/** Awareness states one connection may hold (a browser tab has one; a few for tools). */
export const MAX_AWARENESS_STATES = 4;
/** Bytes of one awareness state as JSON (a name, a colour, a cursor, a selection). */
export const MAX_AWARENESS_BYTES = 4096;
/** Awareness updates per second per connection (cursors move at ~30/s at most; the provider throttles). */
export const MAX_AWARENESS_PER_SECOND = 40;

interface Rate { windowStart: number; count: number }

/**
 * Filters an incoming awareness update in place (`states` is what Hocuspocus will apply and
 * relay). A state is dropped when its client id is owned by another actor (no overwriting someone
 * else's slot: the Yjs client id belongs to whoever announced or wrote with it first), when it is
 * too large, past the per-connection count, or past the rate. A write connection's announced
 * client ids become its actor's, so a later writer cannot squat them (see `DraftDoc.owners`).
 */
export class AwarenessPolicy {
  private readonly rates = new WeakMap<Connection, Rate>();
  private readonly slots = new WeakMap<Connection, Set<number>>();

  filter(conn: Connection, actorId: string, dd: DraftDoc | undefined, states: Map<number, Record<string, unknown>>, now: number): number {
    let dropped = 0;
    const rate = this.rates.get(conn) ?? { windowStart: now, count: 0 };
    if (now - rate.windowStart >= 1000) { rate.windowStart = now; rate.count = 0; }
    rate.count++;
    this.rates.set(conn, rate);
    if (rate.count > MAX_AWARENESS_PER_SECOND) {
      dropped = states.size;
      states.clear();
      return dropped;
    }
    const mine = this.slots.get(conn) ?? new Set<number>();
    this.slots.set(conn, mine);
    for (const [clientId, state] of [...states]) {
      const owner = dd?.owners.get(clientId);
      const tooMany = !mine.has(clientId) && mine.size >= MAX_AWARENESS_STATES;
      // A removal (null state) is always small; anything else is measured as JSON.
      const tooBig = state !== null && JSON.stringify(state).length > MAX_AWARENESS_BYTES;
      if ((owner !== undefined && owner !== actorId) || tooMany || tooBig) {
        states.delete(clientId);
        dropped++;
        continue;
      }
      mine.add(clientId);
      if (dd && owner === undefined) dd.owners.set(clientId, actorId);
    }
    return dropped;
  }
}
