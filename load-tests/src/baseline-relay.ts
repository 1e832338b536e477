// Baseline: a bare Hocuspocus relay (no auth, no validation, no persistence), its own process.
// Run: node --import tsx load-tests/src/baseline-relay.ts <port>
import { Server } from '@hocuspocus/server';

const port = Number(process.argv[2] ?? 0);
const server = new Server({ port, address: '127.0.0.1', quiet: true, stopOnSignals: true } as never);
await server.listen();
console.log(`relay listening on ${server.address.port}`);
process.send?.({ type: 'ready', port: server.address.port });
