// Build sessions and agent turns (bookkeeping; the op log stays the source of truth for counts).
import { sql } from 'kysely';
import type { Kysely, Selectable } from 'kysely';
import type { Json } from '@weft/core';
import type { DB, SessionsTable, TurnsTable } from './schema.ts';
import type { SessionRecord, TurnRecord } from './types.ts';

const toSession = (r: Selectable<SessionsTable>): SessionRecord => ({
  id: r.id, draftId: r.draft_id, actorId: r.actor_id, openedAt: r.opened_at, lastSeenAt: r.last_seen_at, closedAt: r.closed_at,
});
const toTurn = (r: Selectable<TurnsTable>): TurnRecord => ({
  id: r.id, draftId: r.draft_id, sessionId: r.session_id, actorId: r.actor_id, startedAt: r.started_at,
  finishedAt: r.finished_at, opCount: r.op_count, summary: r.summary,
});

export class SessionStore {
  readonly db: Kysely<DB>;
  constructor(db: Kysely<DB>) { this.db = db; }

  async openSession(s: { id: string; draftId: string; actorId: string }): Promise<SessionRecord> {
    const row = await this.db.insertInto('sessions').values({ id: s.id, draft_id: s.draftId, actor_id: s.actorId }).returningAll().executeTakeFirstOrThrow();
    return toSession(row);
  }
  async getSession(id: string): Promise<SessionRecord | null> {
    const row = await this.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : toSession(row);
  }
  /** Marks activity; false when the session is unknown or already closed. */
  async touchSession(id: string): Promise<boolean> {
    const r = await this.db.updateTable('sessions').set({ last_seen_at: sql<Date>`now()` }).where('id', '=', id).where('closed_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
  /** false when it was not open. */
  async closeSession(id: string): Promise<boolean> {
    const r = await this.db.updateTable('sessions').set({ closed_at: sql<Date>`now()` }).where('id', '=', id).where('closed_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
  /** Closes sessions idle longer than idleMs; returns their ids. */
  async closeIdleSessions(idleMs: number): Promise<string[]> {
    const rows = await this.db.updateTable('sessions').set({ closed_at: sql<Date>`now()` })
      .where('closed_at', 'is', null)
      .where('last_seen_at', '<', sql<Date>`now() - make_interval(secs => ${idleMs / 1000})`)
      .returning('id').execute();
    return rows.map((r) => r.id);
  }
  async openSessions(draftId: string): Promise<SessionRecord[]> {
    const rows = await this.db.selectFrom('sessions').selectAll().where('draft_id', '=', draftId).where('closed_at', 'is', null).orderBy('opened_at').execute();
    return rows.map(toSession);
  }

  async openTurn(t: { id: string; draftId: string; sessionId: string | null; actorId: string }): Promise<TurnRecord> {
    const row = await this.db.insertInto('turns').values({ id: t.id, draft_id: t.draftId, session_id: t.sessionId, actor_id: t.actorId }).returningAll().executeTakeFirstOrThrow();
    return toTurn(row);
  }
  async getTurn(id: string): Promise<TurnRecord | null> {
    const row = await this.db.selectFrom('turns').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : toTurn(row);
  }
  /** Records the final op count and summary; false when unknown or already finished. */
  async finishTurn(id: string, f: { opCount: number; summary: Json | null }): Promise<boolean> {
    const r = await this.db.updateTable('turns').set({ finished_at: sql<Date>`now()`, op_count: f.opCount, summary: f.summary })
      .where('id', '=', id).where('finished_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
