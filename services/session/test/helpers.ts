import { createMemoryBus } from '@weft/bus';
import type { Bus } from '@weft/bus';
import { WeftHttpClient } from '@weft/client';
import { EventStore, SessionStore, TokenStore } from '@weft/store';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { listen } from '../src/main.ts';
import { parseConfig } from '../src/config.ts';
import type { SessionConfig } from '../src/config.ts';
import { silentLogger } from '@weft/ops';
import type { App, Extension } from '../src/app.ts';
import { collabExtension } from '../src/collab/collab.ts';
import { actionsExtension } from '../src/actions/extension.ts';

export const ADMIN = 'test-admin-token';

export interface TestSession {
  url: string;
  admin: WeftHttpClient;
  app: App;
  db: TestDatabase;
  store: EventStore;
  bus: Bus;
  /** A client for a new actor with the given scopes. */
  as(actor: string, scopes: Record<string, ('read' | 'write')[]>, kind?: 'human' | 'agent'): Promise<WeftHttpClient>;
  /** Stops the HTTP server (the database stays for restart()). */
  stop(): Promise<void>;
  /** A fresh service process-equivalent on the same database: rooms reload from the log. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The Yjs door plus reader actions that take view tickets this way (the launcher passes the preview's check). */
export const withReaderActions = (verifyTicket: (ticket: string, draftId: string) => boolean) => (): Extension[] => [collabExtension(), actionsExtension({ verifyTicket })];

/** `now`: the service's clock (Deps.now), for tests that must not depend on how fast the machine is. */
export async function startTestSession(overrides: Partial<SessionConfig> = {}, db?: TestDatabase, extensions: () => Extension[] = () => [collabExtension()], now?: () => number): Promise<TestSession> {
  const tdb = db ?? (await createTestDatabase());
  const config = parseConfig({}, { port: 0, adminToken: ADMIN, ...overrides });
  const bus = createMemoryBus();
  const mk = () => {
    const store = new EventStore(tdb.db);
    return listen({ store, tokens: new TokenStore(tdb.db), sessions: new SessionStore(tdb.db), bus, log: silentLogger, ...(now ? { now } : {}) }, config, extensions());
  };
  let running = await mk();
  const t: TestSession = {
    url: running.url,
    admin: new WeftHttpClient(running.url, ADMIN),
    app: running.app,
    db: tdb,
    store: running.app.ctx.store,
    bus,
    async as(actor, scopes, kind = 'human') {
      const { token } = await t.admin.mintToken({ actor: { id: actor, kind }, scopes });
      return new WeftHttpClient(t.url, token);
    },
    async stop() {
      await running.close();
    },
    async restart() {
      await running.close();
      running = await mk();
      t.url = running.url;
      t.app = running.app;
      t.store = running.app.ctx.store;
      t.admin = new WeftHttpClient(running.url, ADMIN);
    },
    async close() {
      await running.close().catch(() => {});
      await bus.close();
      await tdb.drop();
    },
  };
  return t;
}

/** A minimal valid surface section with a root Stack and a heading. */
export function heroSection(id = 'hero'): Record<string, unknown> {
  return {
    id, kind: 'surface', catalog: 'weft@1',
    components: {
      root: { id: 'root', component: 'Stack', children: ['title'] },
      title: { id: 'title', component: 'Heading', props: { text: 'Hello', level: 1 } },
    },
    data: {},
  };
}

/** Adds a section; the pipeline appends it to the page order (a reported repair). */
export function addSectionOps(id = 'hero'): unknown[] {
  return [{ op: 'add', path: `/sections/${id}`, value: heroSection(id) }];
}
