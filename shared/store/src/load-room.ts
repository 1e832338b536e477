// A room's cold load in one round trip (PERFORMANCE.md B7): the draft's head and epoch, the newest
// snapshot of that epoch carrying a Yjs state (the base of both the JSON mirror and the Yjs
// lineage), and every step after it — the tail rendered as one JSON text by Postgres.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Json, Op } from '@weft/core';
import type { DB } from './schema.ts';
import type { DraftMeta } from './types.ts';
import { bytes, int } from './rows.ts';

export interface RoomLoad {
  meta: DraftMeta;
  /** The base: a snapshot of the current epoch with its Yjs state; null = the empty draft and genesis at 0. */
  base: { version: number; doc: Json; yState: Uint8Array } | null;
  /** Steps after the base up to the head, in version order. */
  tail: { version: number; ops: Op[]; yUpdate: Uint8Array | null }[];
}

export async function loadRoom(db: Kysely<DB>, draftId: string): Promise<RoomLoad | null> {
  const { rows } = await sql<{
    id: string; title: string; created_by: string; created_at: Date; head_version: string | number; epoch: number;
    snap_version: string | number | null; snap_doc: string | null; snap_y: Uint8Array | null; tail: string;
  }>`
    WITH d AS (SELECT * FROM drafts WHERE id = ${draftId}),
    s AS (
      SELECT s.version, s.doc, s.y_state FROM snapshots s, d
      WHERE s.draft_id = d.id AND s.epoch = d.epoch AND s.y_state IS NOT NULL AND s.version <= d.head_version
      ORDER BY s.version DESC LIMIT 1
    )
    SELECT d.id, d.title, d.created_by, d.created_at, d.head_version, d.epoch,
      s.version AS snap_version, s.doc::text AS snap_doc, s.y_state AS snap_y,
      (SELECT coalesce(json_agg(json_build_array(e.version, e.ops, encode(e.y_update, 'base64')) ORDER BY e.version), '[]'::json)::text
         FROM events e WHERE e.draft_id = d.id AND e.version > coalesce(s.version, 0) AND e.version <= d.head_version) AS tail
    FROM d LEFT JOIN s ON true`.execute(db);
  const r = rows[0];
  if (r === undefined) return null;
  const meta: DraftMeta = { id: r.id, title: r.title, createdBy: r.created_by, createdAt: r.created_at, headVersion: int(r.head_version), epoch: r.epoch };
  const y = bytes(r.snap_y);
  const base = r.snap_version !== null && r.snap_doc !== null && y !== null ? { version: int(r.snap_version), doc: JSON.parse(r.snap_doc) as Json, yState: y } : null;
  const tail = (JSON.parse(r.tail) as [number | string, Op[], string | null][]).map(([version, ops, y64]) => ({
    version: int(version), ops, yUpdate: y64 === null ? null : new Uint8Array(Buffer.from(y64, 'base64')),
  }));
  return { meta, base, tail };
}
