// An MCP client to a Weft session's /mcp endpoint (streamable HTTP, bearer token).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function connectRemoteMcp(baseUrl: string, token: string, name = 'weft-cli'): Promise<Client> {
  const client = new Client({ name, version: '0.1.0' });
  const url = new URL('/mcp', baseUrl.replace(/\/$/, '') + '/');
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}
