// A bare Hocuspocus relay (no hooks, no persistence): the baseline the committed path is compared
// to in fanout.bench.ts. Run as a child: `node --import tsx relay-server.ts <port>`.
import { Server } from '@hocuspocus/server';

const port = Number(process.argv[2]);
const server = new Server({ port, address: '127.0.0.1', quiet: true, stopOnSignals: true });
await server.listen();
console.log(`relay listening on ${port}`);
