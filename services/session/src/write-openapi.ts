// `npm run docs:openapi`: writes docs/openapi.json, the document GET /openapi.json serves, from
// the routes of a session with the launcher's extensions (built on an in-memory PGlite, never listening).
import { writeFileSync } from 'node:fs';
import { createMemoryBus } from '@weft/bus';
import { silentLogger } from '@weft/ops';
import { EventStore, openPGlite, SessionStore, TokenStore } from '@weft/store';
import { actionsExtension } from './actions/extension.ts';
import { build } from './app.ts';
import { collabExtension } from './collab/collab.ts';
import { parseConfig } from './config.ts';
import { mcpExtension } from './mcp/extension.ts';
import { openApiDocument } from './http/openapi.ts';

const conn = await openPGlite(undefined);
const bus = createMemoryBus();
const app = build(
  { store: new EventStore(conn.db), tokens: new TokenStore(conn.db), sessions: new SessionStore(conn.db), bus, log: silentLogger },
  parseConfig({}, { port: 0, adminToken: 'docs' }), [collabExtension(), mcpExtension(), actionsExtension()],
);
writeFileSync(new URL('../../../docs/openapi.json', import.meta.url), `${JSON.stringify(openApiDocument(app.router.routes()), null, 2)}\n`);
await app.close();
await bus.close();
await conn.close();
console.log('wrote docs/openapi.json');
