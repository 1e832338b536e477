import { createTestDatabase } from '@weft/testing';
import { runStoreContract } from './contract.ts';

runStoreContract('postgres', async () => {
  const t = await createTestDatabase();
  return { db: t.db, close: () => t.drop() };
});
