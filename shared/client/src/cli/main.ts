#!/usr/bin/env -S node --import tsx
// `weft` entry: reads argv and WEFT_URL / WEFT_TOKEN once, then runs one command.
// Run from the repo: `npx tsx shared/client/src/cli/main.ts <command> …`.
import { WeftError, WeftHttpClient } from '../http-client.ts';
import { USAGE, parseArgs } from './args.ts';
import type { Command } from './args.ts';
import { serveMcpStdio } from './mcp-stdio.ts';
import { connectRemoteMcp } from './remote-mcp.ts';

async function run(c: Command): Promise<void> {
  const out = (v: unknown): void => void process.stdout.write(typeof v === 'string' ? `${v}\n` : `${JSON.stringify(v, null, 2)}\n`);
  switch (c.cmd) {
    case 'help':
      return out(USAGE);
    case 'mcp':
      return serveMcpStdio({ url: c.url, token: c.token });
    case 'catalog': {
      const remote = await connectRemoteMcp(c.url, c.token);
      try {
        const r = await remote.callTool({ name: 'get_catalog', arguments: {} });
        const prompt = (r.structuredContent as { prompt?: unknown } | undefined)?.prompt;
        return out(typeof prompt === 'string' ? prompt : r.content);
      } finally {
        await remote.close();
      }
    }
    case 'token': {
      const http = new WeftHttpClient(c.url, c.token);
      return out(await http.mintToken({ actor: { id: c.actor, kind: c.kind }, scopes: c.scopes, ...(c.ttl === undefined ? {} : { ttlSeconds: c.ttl }) }));
    }
    case 'draft-create':
      return out(await new WeftHttpClient(c.url, c.token).createDraft(c.id, c.title || undefined));
    case 'draft-get':
      return out(await new WeftHttpClient(c.url, c.token).getDraft(c.id, c.version));
  }
}

const parsed = parseArgs(process.argv.slice(2), { url: process.env['WEFT_URL'], token: process.env['WEFT_TOKEN'] });
if (!parsed.ok) {
  process.stderr.write(`${parsed.message}\n\n${USAGE}\n`);
  process.exit(2);
}
run(parsed.command).catch((e: unknown) => {
  process.stderr.write(e instanceof WeftError ? `${e.code}: ${e.payload.message}\n` : `${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
