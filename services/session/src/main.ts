import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { build } from './app.ts';
import type { App, Extension } from './app.ts';
import type { SessionConfig } from './config.ts';
import type { Deps } from './context.ts';

/** Starts the session service on an HTTP server; resolves once it listens. */
export async function listen(deps: Deps, config: SessionConfig, extensions: Extension[] = []): Promise<{ app: App; server: Server; url: string; close(): Promise<void> }> {
  const app = build(deps, config, extensions);
  const server = createServer({ keepAliveTimeout: 65_000 }, app.handle);
  server.on('upgrade', app.upgrade);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  return {
    app, server, url,
    async close() {
      await app.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
