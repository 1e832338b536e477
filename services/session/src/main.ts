import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { accessLog, logUpgrade } from '@weft/ops';
import { build } from './app.ts';
import type { App, Extension } from './app.ts';
import type { SessionConfig } from './config.ts';
import type { Deps } from './context.ts';

/** Starts the session service on an HTTP server; resolves once it listens. */
/** `before`: other handlers mounted on the same server (the preview pages in the launcher); true = handled. */
export async function listen(deps: Deps, config: SessionConfig, extensions: Extension[] = [], before?: (req: IncomingMessage, res: ServerResponse) => boolean): Promise<{ app: App; server: Server; url: string; close(): Promise<void> }> {
  const app = build(deps, config, extensions);
  // Every request of this server (the session's and `before`'s) gets a request id and an access line.
  const access = accessLog(app.ctx.log);
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    access(req, res);
    if (!before?.(req, res)) app.handle(req, res);
  });
  server.on('upgrade', (req, socket, head) => {
    logUpgrade(app.ctx.log, req);
    app.upgrade(req, socket, head);
  });
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
