// An admin's delete: the draft and everything of it (log, snapshots, sessions, turns, agent runs, activity) in one
// transaction. The drafts row is locked first, so an append racing the delete either lands before
// it (and is deleted with the rest) or finds no row (NOT_FOUND); none is left orphaned.
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

/** True when the draft existed and is gone now. */
export async function deleteDraft(db: Kysely<DB>, draftId: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('drafts').select('id').where('id', '=', draftId).forUpdate().executeTakeFirst();
    if (row === undefined) return false;
    await tx.deleteFrom('run_events').where('draft_id', '=', draftId).execute();
    await tx.deleteFrom('runs').where('draft_id', '=', draftId).execute();
    await tx.deleteFrom('activity').where('draft_id', '=', draftId).execute();
    await tx.deleteFrom('turns').where('draft_id', '=', draftId).execute();
    await tx.deleteFrom('sessions').where('draft_id', '=', draftId).execute();
    await tx.deleteFrom('snapshots').where('draft_id', '=', draftId).execute();
    await tx.deleteFrom('outbox_cursors').where('draft_id', '=', draftId).execute();
    await tx.deleteFrom('events').where('draft_id', '=', draftId).execute();
    await tx.deleteFrom('drafts').where('id', '=', draftId).execute();
    return true;
  });
}
