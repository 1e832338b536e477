// Observable activity per draft (migration 000005): append one entry and keep the newest
// `ActivityLimits.keep`, list them. One Kysely implementation for Postgres and the embedded
// PGlite alike (both are Postgres), checked by the same contract on both.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { ActivityLimits } from '@weft/core';
import type { Activity, ActivityKind, ActivityStatus } from '@weft/core';
import type { DB } from './schema.ts';
import { int } from './rows.ts';

export interface NewActivity {
  kind: ActivityKind;
  status: ActivityStatus;
  label: string;
  detail?: string;
  actor: string;
  at: number;
}

interface Row { seq: string | number; kind: string; status: string; label: string; detail: string | null; actor: string; at: string | number }

const toActivity = (r: Row): Activity => ({
  id: String(int(r.seq)), kind: r.kind as ActivityKind, status: r.status as ActivityStatus, label: r.label,
  ...(r.detail === null ? {} : { detail: r.detail }), at: int(r.at), actor: r.actor,
});

export class ActivityStore {
  readonly db: Kysely<DB>;
  constructor(db: Kysely<DB>) { this.db = db; }

  /**
   * Appends one entry and drops the draft's entries beyond the newest `keep`, in one statement:
   * the DELETE sees the table as it was before the INSERT (one snapshot), so it keeps keep-1 old
   * entries beside the new one. null when the draft does not exist.
   */
  async append(draftId: string, a: NewActivity, keep: number = ActivityLimits.keep): Promise<Activity | null> {
    const r = await sql<Row>`
      WITH ins AS (
        INSERT INTO activity (draft_id, kind, status, label, detail, actor, at)
        SELECT ${draftId}, ${a.kind}, ${a.status}, ${a.label}, ${a.detail ?? null}, ${a.actor}, ${a.at}
        WHERE EXISTS (SELECT 1 FROM drafts WHERE id = ${draftId})
        RETURNING seq, kind, status, label, detail, actor, at
      ), trimmed AS (
        DELETE FROM activity WHERE draft_id = ${draftId} AND EXISTS (SELECT 1 FROM ins) AND seq <= (
          SELECT seq FROM activity WHERE draft_id = ${draftId} ORDER BY seq DESC OFFSET ${keep - 1} LIMIT 1
        )
      )
      SELECT * FROM ins`.execute(this.db);
    const row = r.rows[0];
    return row === undefined ? null : toActivity(row);
  }

  /** The draft's entries, oldest first (at most `keep`). */
  async list(draftId: string): Promise<Activity[]> {
    const rows = await this.db.selectFrom('activity').select(['seq', 'kind', 'status', 'label', 'detail', 'actor', 'at'])
      .where('draft_id', '=', draftId).orderBy('seq', 'desc').limit(ActivityLimits.keep).execute();
    return rows.reverse().map((r) => toActivity(r as Row));
  }
}
