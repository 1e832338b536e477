import { MemoryLog } from './memory-log.ts';
import { runRoomLogContract } from './room-log-contract.ts';

runRoomLogContract('memory', async () => {
  const log = new MemoryLog();
  return { log, createDraft: async (id) => { log.createDraft(id); }, close: async () => {} };
});
