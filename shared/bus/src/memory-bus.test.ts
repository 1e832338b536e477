import { createMemoryBus } from './memory-bus.ts';
import { busContract } from './contract.ts';

busContract('memory', async () => createMemoryBus({ onHandlerError: () => {} }));
