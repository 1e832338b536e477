import { openPGlite } from './pglite.ts';
import { runStoreContract } from './contract.ts';

// In memory; one instance per file (2–4 s, ~750 MB).
runStoreContract('pglite', () => openPGlite(undefined));
