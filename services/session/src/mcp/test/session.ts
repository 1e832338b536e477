// Test helper: a real session service (Postgres test database) with the MCP extension mounted.
import { createMemoryBus } from '@weft/bus';
import { EventStore, SessionStore, TokenStore } from '@weft/store';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import type { App } from '../../app.ts';
import { parseConfig } from '../../config.ts';
import type { SessionConfig } from '../../config.ts';
import { silentLogger } from '@weft/ops';
import { listen } from '../../main.ts';
import { mcpExtension } from '../extension.ts';

export const TEST_ADMIN = 'mcp-test-admin-token';

export interface McpTestSession {
  url: string;
  app: App;
  /** Mints a token for a new actor through the admin API. */
  token(actor: string, scopes: Record<string, ('read' | 'write')[]>, kind?: 'human' | 'agent'): Promise<string>;
  close(): Promise<void>;
}

export async function startMcpTestSession(overrides: Partial<SessionConfig> = {}): Promise<McpTestSession> {
  const db: TestDatabase = await createTestDatabase();
  const bus = createMemoryBus();
  const config = parseConfig({}, { port: 0, adminToken: TEST_ADMIN, ...overrides });
  const running = await listen(
    { store: new EventStore(db.db), tokens: new TokenStore(db.db), sessions: new SessionStore(db.db), bus, log: silentLogger },
    config, [mcpExtension()],
  );
  return {
    url: running.url,
    app: running.app,
    async token(actor, scopes, kind = 'agent') {
      const res = await fetch(`${running.url}/v1/tokens`, {
        method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ actor: { id: actor, kind }, scopes }),
      });
      if (!res.ok) throw new Error(`mint failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { token: string }).token;
    },
    async close() {
      await running.close().catch(() => {});
      await bus.close();
      await db.drop();
    },
  };
}
