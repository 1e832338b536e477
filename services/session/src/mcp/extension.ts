// MCP over streamable HTTP at /mcp, as a session extension. Stateless: each POST authenticates
// its bearer token (as every HTTP route does) and gets its own server and transport.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Extension } from '../app.ts';
import { WeftError } from '../commands/errors.ts';
import { FORWARDED_BY, forwardHttp } from '../cluster/forward.ts';
import { readJson } from '../http/respond.ts';
import { draftOfCall } from './call-draft.ts';
import { z } from 'zod';

const JsonRpcError = z.object({ jsonrpc: z.literal('2.0'), error: z.looseObject({ code: z.int(), message: z.string() }), id: z.union([z.string(), z.number(), z.null()]) });
import { createWeftMcpServer } from './server.ts';

export const MCP_PATH = '/mcp';

export function mcpExtension(): Extension {
  return {
    name: 'mcp',
    register({ ctx, router }) {
      router.on('POST', MCP_PATH, async ({ req, res }) => {
        const principal = await ctx.auth.fromHeader(req.headers.authorization);
        let body: unknown;
        try {
          body = await readJson(req, ctx.config.maxBodyBytes);
        } catch (e) {
          if (!(e instanceof WeftError) || e.code !== 'MALFORMED_JSON') throw e;
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${e.message}` }, id: null }));
          return;
        }
        // Several nodes: a tool call on a draft runs on its owner (one sequencer, its sessions and
        // turns), with the caller's own token; this node relays the answer.
        const draftId = ctx.ownership && !req.headers[FORWARDED_BY] ? draftOfCall(body) : null;
        if (ctx.ownership && draftId !== null) {
          const owner = await ctx.ownership.resolve(draftId);
          if (owner && !owner.self) {
            forwardHttp(req, res, owner.url, Buffer.from(JSON.stringify(body)), ctx.ownership.node.id);
            ctx.metrics.mcpRequests.inc();
            return;
          }
        }
        const server = createWeftMcpServer(ctx, principal);
        // No sessionIdGenerator: stateless mode. JSON replies: no tool here streams progress.
        const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
        res.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
        ctx.metrics.mcpRequests.inc();
      }, {
        summary: 'MCP over streamable HTTP (stateless)', tags: ['mcp'], access: 'bearer',
        description: 'JSON-RPC 2.0 messages of the Model Context Protocol; answers are JSON (`enableJsonResponse`). Tools: docs/api.md, "MCP".',
        responses: {
          200: { description: 'The JSON-RPC response(s).', media: { 'application/json': null } },
          202: { description: 'A notification or response, accepted.' },
          400: { description: 'Not a JSON-RPC message (a JSON-RPC error from the MCP SDK).', schema: JsonRpcError },
          406: { description: 'The Accept header must list application/json and text/event-stream.', schema: JsonRpcError },
          415: { description: 'The body must be application/json.', schema: JsonRpcError },
        },
      });
      // Stateless mode: no server-initiated stream and no session to delete. The MCP spec's answer
      // is 405 (a client then knows there is no SSE stream; a 400 is reported as a failure).
      for (const method of ['GET', 'DELETE'] as const) {
        router.on(method, MCP_PATH, async ({ req, res }) => {
          await ctx.auth.fromHeader(req.headers.authorization);
          res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `${method} ${MCP_PATH} is not supported: this MCP endpoint is stateless (no server stream, no session); POST JSON-RPC messages.` }, id: null }));
        }, {
          summary: 'Not supported (stateless MCP): 405', tags: ['mcp'], access: 'bearer',
          responses: { 405: { description: 'No server-initiated stream and no session here (Allow: POST).', schema: JsonRpcError } },
        });
      }
    },
  };
}
