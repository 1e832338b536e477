// The MCP door's public pieces; the session's src/index.ts should re-export these.
export { mcpExtension, MCP_PATH } from './extension.ts';
export { createWeftMcpServer, PREVIEW_URI, MCP_APP_MIME } from './server.ts';
export { formatSessionHandle, parseSessionHandle } from './session-handle.ts';
