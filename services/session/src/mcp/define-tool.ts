// registerTool with the argument types inferred from the zod shape (one zod copy, 4.6.7, shared
// with the SDK), so every tool's handler is typed from its own input schema; and the tools/call
// handler that runs them (`answerToolCalls`). The SDK's own answers a bad argument with a bare
// text ("MCP error -32602: Input validation error: … at session") and looks tools up through the
// prototype (`__proto__` was "disabled"); ours answers like every other refusal of the door:
// `{error:{code,message,path}}` with isError, the path a JSON Pointer into the arguments.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { formatPointer } from '@weft/core';
import { z } from 'zod';

type Shape = Record<string, z.ZodType>;
interface Tool { schema: z.ZodType; run(args: unknown): Promise<CallToolResult> }

const registries = new WeakMap<McpServer, Map<string, Tool>>();

export function defineTool<S extends Shape>(
  server: McpServer,
  name: string,
  config: { description: string; inputSchema: S; _meta?: Record<string, unknown> },
  cb: (args: z.infer<z.ZodObject<S>>) => Promise<CallToolResult>,
): void {
  server.registerTool(name, config, ((args: z.infer<z.ZodObject<S>>) => cb(args)) as never);
  remember(server, name, { schema: z.object(config.inputSchema), run: (args) => cb(args as z.infer<z.ZodObject<S>>) });
}

/** A tool whose arguments are one object schema of its own (its JSON Schema is advertised as is). */
export function defineObjectTool(
  server: McpServer,
  name: string,
  config: { description: string; inputSchema: z.ZodObject },
  cb: (args: Record<string, unknown>) => Promise<CallToolResult>,
): void {
  server.registerTool(name, config, ((args: Record<string, unknown>) => cb(args)) as never);
  remember(server, name, { schema: config.inputSchema, run: (args) => cb(args as Record<string, unknown>) });
}

function remember(server: McpServer, name: string, tool: Tool): void {
  let tools = registries.get(server);
  if (!tools) registries.set(server, (tools = new Map()));
  tools.set(name, tool);
}

/** Replaces the SDK's tools/call handler with one over the tools defined above (call after the last one). */
export function answerToolCalls(server: McpServer): void {
  const tools = registries.get(server) ?? new Map<string, Tool>();
  server.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const name = request.params.name;
    const tool = tools.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    const parsed = tool.schema.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = formatPointer(issue.path.map(String));
      const error = { code: 'BAD_REQUEST', message: `${path || 'arguments'}: ${issue.message}. ${name} takes the arguments its inputSchema names (tools/list); fix this one and call again.`, path };
      return { isError: true, content: [{ type: 'text', text: `BAD_REQUEST: ${error.message}\n${JSON.stringify({ error })}` }], structuredContent: { error } };
    }
    try {
      return await tool.run(parsed.data);
    } catch (e) {
      // As the SDK did: an unexpected failure is a tool error with its message, not a JSON-RPC error.
      return { isError: true, content: [{ type: 'text', text: e instanceof Error ? e.message : String(e) }] };
    }
  });
}
