// MCP over streamable HTTP at /mcp, as a session extension. Stateless: each POST authenticates
// its bearer token (as every HTTP route does) and gets its own server and transport.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Extension } from '../app.ts';
import { WeftError } from '../commands/errors.ts';
import { createWeftMcpServer } from './server.ts';

export const MCP_PATH = '/mcp';

export function mcpExtension(): Extension {
  return {
    name: 'mcp',
    register({ ctx, router }) {
      router.on('POST', MCP_PATH, async ({ req, res }) => {
        const principal = await ctx.auth.fromHeader(req.headers.authorization);
        const server = createWeftMcpServer(ctx, principal);
        // No sessionIdGenerator: stateless mode. JSON replies: no tool here streams progress.
        const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
        res.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res);
        ctx.metrics.mcpRequests.inc();
      });
      // Stateless mode: no server-initiated stream and no session to delete.
      for (const method of ['GET', 'DELETE'] as const) {
        router.on(method, MCP_PATH, async ({ req }) => {
          await ctx.auth.fromHeader(req.headers.authorization);
          throw new WeftError('BAD_REQUEST', `${method} ${MCP_PATH} is not supported: this MCP endpoint is stateless; POST JSON-RPC messages.`);
        });
      }
    },
  };
}
