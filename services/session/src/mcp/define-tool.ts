// registerTool with our zod (4.3.6, pinned in this package) while the SDK's types name the
// hoisted zod (4.6.7): the shapes are the same at run time (both zod 4 `_zod` schemas), so we
// keep the argument types from our copy and hand the SDK the shape as its own type.
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
  const register = server.registerTool.bind(server) as unknown as (
    name: string, config: { description: string; inputSchema: unknown; _meta?: Record<string, unknown> }, cb: (args: unknown) => Promise<CallToolResult>,
  ) => unknown;
  register(name, config, (args) => cb(args as z.infer<z.ZodObject<S>>));
}
