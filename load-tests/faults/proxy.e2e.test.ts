// The compose shape's proxy (infra/docker/Caddyfile) while Postgres is down: every session node's
// /readyz fails, so the proxy has no node to send to. Its own answer must still be the services'
// typed error (UNAVAILABLE, retry), not an empty 503, and a y-websocket client on /collab/<id>
// must sync again and send the edit it made meanwhile once the database is back.
import { join } from 'node:path';
import { WeftHttpClient } from '@weft/client';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaddy, startPostgres } from '@weft/testing';
import type { CaddyProxy, PostgresServer } from '@weft/testing';
import { ROOT, spawnLauncher } from '../src/proc.ts';
import type { ServiceProcess } from '../src/proc.ts';

const ADMIN = 'proxy-admin-token-0123456789';
const until = async (cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> => {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('the proxy while Postgres is down', () => {
  let pg: PostgresServer;
  let node: ServiceProcess;
  let proxy: CaddyProxy;
  beforeAll(async () => {
    pg = await startPostgres({ fsync: true });
    node = await spawnLauncher('session', { DATABASE_URL: pg.url, WEFT_ADMIN_TOKEN: ADMIN, WEFT_SERVICES: 'session' });
    const host = node.url.replace('http://', '');
    proxy = await startCaddy(join(ROOT, 'infra/docker/Caddyfile'), { 'session-1': host, 'session-2': host, 'session-3': host, preview: host });
  }, 120_000);
  afterAll(async () => {
    await proxy?.stop().catch(() => {});
    await node?.kill('SIGTERM').catch(() => {});
    await pg?.destroy().catch(() => {});
  });

  it('answers a typed UNAVAILABLE with Retry-After; a y-websocket client\'s edit made meanwhile lands once the database is back', async () => {
    const admin = new WeftHttpClient(proxy.url, ADMIN);
    await admin.createDraft('outage', 'Before');
    const doc = new Y.Doc();
    const yws = new WebsocketProvider(proxy.url.replace('http', 'ws') + '/collab', 'outage', doc, { params: { token: ADMIN }, WebSocketPolyfill: WebSocket as never, disableBc: true });
    try {
      await until(() => yws.synced, 10_000, 'the y-websocket client to sync');
      await pg.kill();
      // The proxy sees /readyz fail within its health interval (2 s) and its fail duration.
      let answer: Response | null = null;
      await until(async () => { answer = await fetch(`${proxy.url}/v1/drafts/outage`, { headers: { authorization: `Bearer ${ADMIN}` } }); return answer.status === 503 && answer.headers.get('content-type')?.startsWith('application/json') === true; }, 20_000, 'the proxy\'s own 503');
      expect(answer!.headers.get('retry-after')).toBe('1');
      expect(await answer!.json()).toEqual({ error: { code: 'UNAVAILABLE', message: expect.stringContaining('retry shortly') } });
      doc.getMap('meta').set('title', 'Written during the outage');
      await pg.start();
      await until(async () => (await admin.getDraft('outage').catch(() => null))?.draft.title === 'Written during the outage', 30_000, 'the outage edit to be served');
    } finally {
      yws.destroy();
    }
  }, 90_000);
});
