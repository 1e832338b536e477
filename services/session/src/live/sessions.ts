import { randomUUID } from 'node:crypto';
import type { SessionStore } from '@weft/store';
import { WeftError } from '../commands/errors.ts';
import type { Principal } from '../commands/principal.ts';

interface Open { id: string; draftId: string; actorId: string; lastSeen: number; touched: number; turns: Set<string> }

/** How often an active session's last-seen time is written (the idle close after a restart reads it). */
const TOUCH_MS = 60_000;

/**
 * Build sessions: opened by an actor on a draft, touched by every write, closed explicitly or
 * after `idleMs` without activity (RFC: 30 minutes). Closing finishes the session's open turns.
 */
export class SessionManager {
  private readonly open = new Map<string, Open>();
  private readonly store: SessionStore;
  private readonly now: () => number;
  private readonly idleMs: number;
  private readonly onClose: (draftId: string, turnIds: string[]) => void;

  constructor(store: SessionStore, now: () => number, idleMs: number, onClose: (draftId: string, turnIds: string[]) => void) {
    this.store = store;
    this.now = now;
    this.idleMs = idleMs;
    this.onClose = onClose;
  }

  async openSession(draftId: string, p: Principal): Promise<string> {
    const id = `s-${randomUUID()}`;
    await this.store.openSession({ id, draftId, actorId: p.actor.id });
    this.open.set(id, { id, draftId, actorId: p.actor.id, lastSeen: this.now(), touched: this.now(), turns: new Set() });
    return id;
  }

  /** The session must be open, on this draft, the caller's own, and not idle past the limit. */
  async guard(sessionId: string, draftId: string, p: Principal, turnId?: string | null): Promise<void> {
    const closed = (): WeftError => new WeftError('SESSION_CLOSED', `Session ${sessionId} is closed (or unknown); open a new one (HTTP: POST /v1/drafts/${draftId}/sessions; MCP: open_build_session).`, { path: '/sessionId' });
    let s = this.open.get(sessionId);
    if (!s) {
      // Not in this process's memory (a restart, another node): the store is the truth, and its
      // last-seen time says whether the session idled out meanwhile.
      const rec = await this.store.getSession(sessionId);
      if (!rec || rec.closedAt) throw closed();
      if (this.now() - rec.lastSeenAt.getTime() > this.idleMs) {
        await this.store.closeSession(sessionId);
        throw closed();
      }
      s = { id: rec.id, draftId: rec.draftId, actorId: rec.actorId, lastSeen: this.now(), touched: this.now(), turns: new Set() };
      this.open.set(sessionId, s);
    }
    if (s.draftId !== draftId || (s.actorId !== p.actor.id && !p.admin)) throw new WeftError('FORBIDDEN', 'This session belongs to another actor or draft.');
    s.lastSeen = this.now();
    if (s.lastSeen - s.touched > TOUCH_MS) {
      s.touched = s.lastSeen;
      void this.store.touchSession(sessionId).catch(() => {}); // best effort: it only delays an idle close
    }
    if (turnId) s.turns.add(turnId);
  }

  /** Only the session's own actor (or an admin) closes it, whether or not it is in memory. */
  async close(sessionId: string, p: Principal | null): Promise<boolean> {
    let s = this.open.get(sessionId);
    if (!s && p) {
      const rec = await this.store.getSession(sessionId);
      if (!rec || rec.closedAt) return false;
      s = { id: rec.id, draftId: rec.draftId, actorId: rec.actorId, lastSeen: rec.lastSeenAt.getTime(), touched: 0, turns: new Set() };
    }
    if (s && p && s.actorId !== p.actor.id && !p.admin) throw new WeftError('FORBIDDEN', 'This session belongs to another actor.');
    if (!s) return false;
    this.open.delete(sessionId);
    await this.store.closeSession(sessionId);
    this.onClose(s.draftId, [...s.turns]);
    return true;
  }

  /** Closes sessions idle for longer than the limit — in memory, and in the store (after a restart); returns how many. */
  async sweep(): Promise<number> {
    const now = this.now();
    const idle = [...this.open.values()].filter((s) => now - s.lastSeen > this.idleMs);
    for (const s of idle) await this.close(s.id, null);
    const stale = (await this.store.closeIdleSessions(this.idleMs)).filter((id) => !this.open.has(id));
    return idle.length + stale.length;
  }

  get count(): number {
    return this.open.size;
  }
}
