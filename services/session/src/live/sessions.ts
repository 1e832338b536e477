import { randomUUID } from 'node:crypto';
import type { SessionStore } from '@weft/store';
import { WeftError } from '../commands/errors.ts';
import type { Principal } from '../commands/principal.ts';

interface Open { id: string; draftId: string; actorId: string; lastSeen: number; turns: Set<string> }

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
    this.open.set(id, { id, draftId, actorId: p.actor.id, lastSeen: this.now(), turns: new Set() });
    return id;
  }

  /** The session must be open, on this draft, and the caller's own. */
  async guard(sessionId: string, draftId: string, p: Principal, turnId?: string | null): Promise<void> {
    let s = this.open.get(sessionId);
    if (!s) {
      const rec = await this.store.getSession(sessionId);
      if (!rec || rec.closedAt) throw new WeftError('SESSION_CLOSED', `Session ${sessionId} is closed (or unknown); open a new one with POST /v1/drafts/${draftId}/sessions.`);
      s = { id: rec.id, draftId: rec.draftId, actorId: rec.actorId, lastSeen: this.now(), turns: new Set() };
      this.open.set(sessionId, s);
    }
    if (s.draftId !== draftId || (s.actorId !== p.actor.id && !p.admin)) throw new WeftError('FORBIDDEN', 'This session belongs to another actor or draft.');
    s.lastSeen = this.now();
    if (turnId) s.turns.add(turnId);
  }

  async close(sessionId: string, p: Principal | null): Promise<boolean> {
    const s = this.open.get(sessionId);
    if (s && p && s.actorId !== p.actor.id && !p.admin) throw new WeftError('FORBIDDEN', 'This session belongs to another actor.');
    this.open.delete(sessionId);
    await this.store.closeSession(sessionId);
    if (s) this.onClose(s.draftId, [...s.turns]);
    return s !== undefined;
  }

  /** Closes sessions idle for longer than the limit; returns how many. */
  async sweep(): Promise<number> {
    const now = this.now();
    const idle = [...this.open.values()].filter((s) => now - s.lastSeen > this.idleMs);
    for (const s of idle) await this.close(s.id, null);
    return idle.length;
  }

  get count(): number {
    return this.open.size;
  }
}
