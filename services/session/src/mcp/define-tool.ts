// registerTool with the argument types inferred from the zod shape (one zod copy, 4.6.7, shared
// with the SDK), so every tool's handler is typed from its own input schema.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

type Shape = Record<string, z.ZodType>;

export function defineTool<S extends Shape>(
  server: McpServer,
  name: string,
  config: { description: string; inputSchema: S; _meta?: Record<string, unknown> },
  cb: (args: z.infer<z.ZodObject<S>>) => Promise<CallToolResult>,
): void {
  server.registerTool(name, config, ((args: z.infer<z.ZodObject<S>>) => cb(args)) as never);
}
