import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { err, ok } from './result.ts';
import type { Result } from '@weft/core';
import type { DB } from './schema.ts';
import type { DraftMeta } from './types.ts';
import { int, pgCode, toDraftMeta } from './rows.ts';

export async function createDraft(db: Kysely<DB>, d: { id: string; title: string; createdBy: string }): Promise<Result<DraftMeta, 'exists'>> {
  try {
    const row = await db.insertInto('drafts').values({ id: d.id, title: d.title, created_by: d.createdBy })
      .onConflict((oc) => oc.column('id').doNothing())
      .returningAll().executeTakeFirst();
    return row === undefined ? err('exists') : ok(toDraftMeta(row));
  } catch (e) {
    if (pgCode(e) === '23505') return err('exists');
    throw e;
  }
}

export async function getDraft(db: Kysely<DB>, id: string): Promise<DraftMeta | null> {
  const row = await db.selectFrom('drafts').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? null : toDraftMeta(row);
}

/** Head versions of these drafts, in one query (drafts that do not exist are absent). */
export async function headVersions(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('drafts').select(['id', 'head_version']).where('id', '=', sql<string>`ANY(${[...ids]}::text[])`).execute();
  return new Map(rows.map((r) => [r.id, int(r.head_version)]));
}

/** Newest first. */
export async function listDrafts(db: Kysely<DB>, opts: { limit?: number } = {}): Promise<DraftMeta[]> {
  const rows = await db.selectFrom('drafts').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(opts.limit ?? 1000).execute();
  return rows.map(toDraftMeta);
}
