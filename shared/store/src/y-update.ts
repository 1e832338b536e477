import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

/** Fills a committed step's Yjs update after the fact; true when the step exists. */
export async function setYUpdate(db: Kysely<DB>, draftId: string, version: number, update: Uint8Array): Promise<boolean> {
  const r = await db.updateTable('events').set({ y_update: update }).where('draft_id', '=', draftId).where('version', '=', version).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
