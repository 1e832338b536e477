// Agent runs and their transcripts (migrations/src/2026_12_01_000006_runs.ts). The session's run
// door writes here; the Build chat reads a draft's newest runs with their events after a reload.
import { sql } from 'kysely';
import type { Kysely, Selectable } from 'kysely';
import type { Json } from '@weft/core';
import type { AgUiEvent, RunScope, RunStatus, RunView, RunWithEvents } from '@weft/protocol';
import type { DB, RunsTable } from './schema.ts';

const toRun = (r: Selectable<RunsTable>): RunView => ({
  runId: r.id, draftId: r.draft_id, actor: r.actor, status: r.status, brief: r.brief,
  scope: (r.scope as RunScope | null) ?? null, model: r.model, startedAt: new Date(r.started_at).toISOString(),
  finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null, result: r.result,
  error: (r.error as RunView['error']) ?? null, cancelRequested: r.cancel_requested,
});

export class RunStore {
  readonly db: Kysely<DB>;
  constructor(db: Kysely<DB>) { this.db = db; }

  /** false when the draft already has a run with this id. */
  async create(r: { draftId: string; runId: string; actor: string; brief: string; scope: RunScope | null; model: string | null }): Promise<RunView | null> {
    const row = await this.db.insertInto('runs')
      .values({ draft_id: r.draftId, id: r.runId, actor: r.actor, brief: r.brief, scope: r.scope as Json | null, model: r.model })
      .onConflict((c) => c.columns(['draft_id', 'id']).doNothing())
      .returningAll().executeTakeFirst();
    return row === undefined ? null : toRun(row);
  }

  async get(draftId: string, runId: string): Promise<RunView | null> {
    const row = await this.db.selectFrom('runs').selectAll().where('draft_id', '=', draftId).where('id', '=', runId).executeTakeFirst();
    return row === undefined ? null : toRun(row);
  }

  /** Events in order, each with its place in the run. */
  async append(draftId: string, runId: string, events: readonly { seq: number; event: AgUiEvent }[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.insertInto('run_events')
      .values(events.map((e) => ({ draft_id: draftId, run_id: runId, seq: e.seq, event: e.event as unknown as Json })))
      .execute();
  }

  async events(draftId: string, runId: string): Promise<AgUiEvent[]> {
    const rows = await this.db.selectFrom('run_events').select('event').where('draft_id', '=', draftId).where('run_id', '=', runId).orderBy('seq').execute();
    return rows.map((r) => r.event as unknown as AgUiEvent);
  }

  /** Ends a running run; false when it had ended already. */
  async finish(draftId: string, runId: string, f: { status: Exclude<RunStatus, 'running'>; result?: Json | null; error?: { code: string; message: string } | null }): Promise<boolean> {
    const r = await this.db.updateTable('runs')
      .set({ status: f.status, finished_at: sql<Date>`now()`, result: f.result ?? null, error: (f.error ?? null) as Json | null })
      .where('draft_id', '=', draftId).where('id', '=', runId).where('status', '=', 'running').executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async requestCancel(draftId: string, runId: string): Promise<boolean> {
    const r = await this.db.updateTable('runs').set({ cancel_requested: true })
      .where('draft_id', '=', draftId).where('id', '=', runId).where('status', '=', 'running').executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** The draft's newest runs (newest first) with their transcripts. */
  async recent(draftId: string, limit: number): Promise<RunWithEvents[]> {
    const runs = (await this.db.selectFrom('runs').selectAll().where('draft_id', '=', draftId).orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit).execute()).map(toRun);
    if (runs.length === 0) return [];
    const rows = await this.db.selectFrom('run_events').select(['run_id', 'event']).where('draft_id', '=', draftId)
      .where('run_id', 'in', runs.map((r) => r.runId)).orderBy('run_id').orderBy('seq').execute();
    const by = new Map<string, AgUiEvent[]>();
    for (const r of rows) {
      let list = by.get(r.run_id);
      if (!list) by.set(r.run_id, (list = []));
      list.push(r.event as unknown as AgUiEvent);
    }
    return runs.map((r) => ({ ...r, events: by.get(r.runId) ?? [] }));
  }

  /** Runs still marked running (their agent's process ended with them: a restart). */
  async running(limit = 1000): Promise<RunView[]> {
    const rows = await this.db.selectFrom('runs').selectAll().where('status', '=', 'running').limit(limit).execute();
    return rows.map(toRun);
  }

  /** The next free place in a run's transcript. */
  async nextSeq(draftId: string, runId: string): Promise<number> {
    const r = await this.db.selectFrom('run_events').select(sql<number>`coalesce(max(seq), 0)`.as('m')).where('draft_id', '=', draftId).where('run_id', '=', runId).executeTakeFirst();
    return Number(r?.m ?? 0) + 1;
  }
}
