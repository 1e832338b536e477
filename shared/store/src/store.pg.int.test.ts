import { createTestDatabase } from '@weft/testing';
import { runStoreContract } from './contract.ts';
import { EventStore } from './event-store.ts';
import { runRoomLogContract } from './room-log-contract.ts';

runStoreContract('postgres', async () => {
  const t = await createTestDatabase();
  return { db: t.db, close: () => t.drop() };
});
// Behind a pooler in transaction mode (WEFT_DB_PREPARE=0): the same contract without prepared statements.
runStoreContract('postgres, unprepared', async () => {
  const t = await createTestDatabase({ prepare: false });
  return { db: t.db, close: () => t.drop() };
});
runRoomLogContract('postgres', async () => {
  const t = await createTestDatabase();
  const store = new EventStore(t.db);
  return { log: store, createDraft: async (id) => { await store.createDraft({ id, title: '', createdBy: 'u' }); }, takeLease: async (id, node) => { await store.releaseLeases('node-a'); const l = (await store.acquireLease(id, node, `http://${node}`, 60_000))!; return { node: l.node!, epoch: l.epoch }; }, close: () => t.drop() };
});
