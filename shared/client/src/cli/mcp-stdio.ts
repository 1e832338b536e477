// `weft mcp`: an MCP server on stdio that forwards to the session's /mcp door. The tools run in
// the session (one definition, the same pipeline, scopes from the same token); this side only
// relays tools and the ui:// preview resources. Local MCP hosts (Claude Desktop, IDEs) spawn it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { connectRemoteMcp } from './remote-mcp.ts';

/** A local MCP server relaying every request to `remote`. */
export function createRelayServer(remote: Client): Server {
  const server = new Server({ name: 'weft', version: '0.1.0' }, { capabilities: { tools: {}, resources: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (req) => remote.listTools(req.params));
  server.setRequestHandler(CallToolRequestSchema, async (req) => remote.callTool(req.params) as Promise<never>);
  server.setRequestHandler(ListResourcesRequestSchema, (req) => remote.listResources(req.params));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (req) => remote.listResourceTemplates(req.params));
  server.setRequestHandler(ReadResourceRequestSchema, (req) => remote.readResource(req.params));
  return server;
}

/** Runs until stdin closes. The remote connection is checked first so a bad token fails fast. */
export async function serveMcpStdio(opts: { url: string; token: string }, transport: Transport = new StdioServerTransport()): Promise<void> {
  const remote = await connectRemoteMcp(opts.url, opts.token, 'weft-cli-relay');
  await remote.listTools();
  const server = createRelayServer(remote);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
  await remote.close();
}
