import { MemoryLog } from './memory-log.ts';
import { runRoomLogContract } from './room-log-contract.ts';

runRoomLogContract('memory', async () => {
  const log = new MemoryLog();
  return {
    log, createDraft: async (id) => { log.createDraft(id); },
    takeLease: async (id, node) => { const epoch = (log.leases.get(id)?.epoch ?? 0) + 1; log.leases.set(id, { node, epoch }); return { node, epoch }; }, 
    close: async () => {},
  };
});
