// The stdio door: the SDK's StdioClientTransport spawns `weft mcp` (shared/client/src/cli) with
// tsx; the CLI relays to this session's /mcp. Same tools, same pipeline, same token scopes.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpTestSession, TEST_ADMIN } from './test/session.ts';
import type { McpTestSession } from './test/session.ts';

const CLI = fileURLToPath(new URL('../../../../shared/client/src/cli/main.ts', import.meta.url));

async function spawnCli(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'weft-stdio-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', CLI, 'mcp', '--url', url, '--token', token], stderr: 'pipe' }));
  return client;
}

describe('MCP over stdio through the weft CLI', () => {
  let s: McpTestSession;
  let client: Client;
  beforeAll(async () => {
    s = await startMcpTestSession();
    await fetch(`${s.url}/v1/drafts`, {
      method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ id: 'stdio-page' }),
    });
    client = await spawnCli(s.url, await s.token('cli-bot', { 'stdio-page': ['read', 'write'] }));
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  it('lists the session\'s tools and builds a section with a repaired typo and a refusal', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['open_build_session', 'patch_draft', 'get_preview', 'import_surface']));
    const open = (await client.callTool({ name: 'open_build_session', arguments: { draftId: 'stdio-page' } })) as CallToolResult;
    const session = (open.structuredContent as { session: string }).session;
    const r = (await client.callTool({ name: 'patch_draft', arguments: { session, ops: [
      { op: 'add', path: '/sections/cta', value: { id: 'cta', kind: 'surface', catalog: 'weft@1', data: {}, components: {
        root: { id: 'root', component: 'Stack', children: ['go'] }, go: { id: 'go', component: 'Buton', props: { label: 'Start' } },
      } } },
      { op: 'add', path: '/sections/cta/components/root/children/-', value: 'missing' },
    ] } })) as CallToolResult;
    const sc = r.structuredContent as { version: number; repairs: { rule: string }[]; refused: { path: string; index: number }[] };
    expect(sc.version).toBeGreaterThan(0);
    expect(sc.repairs.map((n) => n.rule)).toContain('snapped_name');
    expect(sc.refused).toHaveLength(1);
    expect(sc.refused[0]!.index).toBe(1);
    expect(sc.refused[0]!.path).toMatch(/^\/sections\/cta\/components\/root/);
    const preview = (await client.callTool({ name: 'get_preview', arguments: { draftId: 'stdio-page' } })) as CallToolResult;
    expect((preview.structuredContent as { html: string }).html).toContain('Start');
    const res = await client.readResource({ uri: 'ui://weft/preview/stdio-page' });
    expect(res.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app' });
    // The MCP Apps View through the relay: the tool names it, the resource reads as the View.
    expect((tools.find((t) => t.name === 'patch_draft')?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri).toBe('ui://weft/preview');
    const view = await client.readResource({ uri: 'ui://weft/preview' });
    expect(view.contents[0]).toMatchObject({ uri: 'ui://weft/preview', mimeType: 'text/html;profile=mcp-app' });
    expect((view.contents[0] as { text: string }).text).toContain('ui/initialize');
  });

  it('the token\'s scopes hold through the relay', async () => {
    const r = (await client.callTool({ name: 'get_draft', arguments: { draftId: 'someone-else' } })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect((r.structuredContent as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('a bad token fails fast: the CLI exits before serving', async () => {
    await expect(spawnCli(s.url, 'wft_not-a-token')).rejects.toThrow();
  });
});
