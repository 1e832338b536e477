// A real local HTTP receiver for webhook tests: records every request (raw body and headers) and
// answers per path with a script the test sets (e.g. 500, 500, then 204).
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';

export interface Received { path: string; headers: IncomingHttpHeaders; body: string; status: number }

export interface Receiver {
  url: string;
  received: Received[];
  /** Answers for `path`, in order; the last one repeats. `headers` go with every answer of that path. */
  script(path: string, statuses: number[], headers?: Record<string, string>): void;
  /** Resolves when `pred` holds for the received list (polled; throws after `ms`). */
  until(pred: (r: Received[]) => boolean, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const scripts = new Map<string, number[]>();
  const extra = new Map<string, Record<string, string>>();
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const script = scripts.get(path) ?? [204];
      const status = script.length > 1 ? script.shift()! : script[0]!;
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status, { 'content-type': 'text/plain', ...(extra.get(path) ?? {}) });
      res.end(status >= 300 ? 'try later' : '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script: (path, statuses, headers) => { scripts.set(path, [...statuses]); if (headers) extra.set(path, headers); },
    async until(pred, ms = 30_000) {
      for (let t = 0; !pred(received); t += 50) {
        if (t > ms) throw new Error(`receiver: condition not met in ${ms} ms; got ${received.map((r) => `${r.path} ${r.headers['webhook-id']} → ${r.status}`).join('; ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
