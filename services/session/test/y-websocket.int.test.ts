// The Yjs door for y-websocket clients (`/collab/<draft id>`), walked with the real `y-websocket`
// WebsocketProvider — no code of ours on the client side — beside a plain HocuspocusProvider.
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collabExtension } from '../src/collab/collab.ts';
import { ADMIN, addSectionOps, startTestSession } from './helpers.ts';
import { plainClient, QuietWebSocket } from './plain-client.ts';
import type { TestSession } from './helpers.ts';

const until = async (what: string, f: () => boolean | Promise<boolean>, ms = 5000): Promise<void> => {
  const t0 = Date.now();
  while (!(await f())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

interface YwsClient { doc: Y.Doc; provider: WebsocketProvider; closes: number[]; closed: Promise<{ code: number; reason: string }> }

/** A y-websocket client as its README has it: `new WebsocketProvider(serverUrl, room, doc, { params })`. */
function yws(url: string, draftId: string, token: string | null, socket: new (url: string, protocols?: string | string[]) => WebSocket = QuietWebSocket): YwsClient {
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(url.replace('http', 'ws') + '/collab', draftId, doc, {
    params: token === null ? {} : { token }, WebSocketPolyfill: socket as never, disableBc: true,
  });
  const closes: number[] = [];
  provider.on('connection-close', (e) => { if (e) closes.push(e.code); });
  const closed = new Promise<{ code: number; reason: string }>((r) => provider.on('closed', (e) => r(e)));
  return { doc, provider, closes, closed };
}

const synced = (c: YwsClient): Promise<void> => new Promise((r) => (c.provider.synced ? r() : c.provider.once('sync', (s: boolean) => s && r())));
const heading = (doc: Y.Doc, section: string): Y.Map<unknown> | undefined =>
  ((doc.getMap('sections').get(section) as Y.Map<unknown> | undefined)?.get('components') as Y.Map<Y.Map<unknown>> | undefined)?.get('title');
const headingText = (doc: Y.Doc, section: string): unknown => (heading(doc, section)?.get('props') as Record<string, unknown> | undefined)?.['text'];

describe('y-websocket clients at /collab/<draft id>', () => {
  let s: TestSession;
  beforeAll(async () => { s = await startTestSession({ opsPerSecond: 10_000 }); });
  afterAll(async () => s.close());

  it('from an empty draft: a y-websocket client and a Hocuspocus client build together, every edit committed and seen by both', async () => {
    await s.admin.createDraft('yws', 'Empty');
    const created = (await s.admin.getDraft('yws')).version;
    const writer = await s.as('yws-writer', { yws: ['write'] });
    const a = yws(s.url, 'yws', writer.token);
    await synced(a);
    const b = await plainClient(s.url, 'yws', (await s.as('hp-writer', { yws: ['write'] })).token);
    try {
      // The y-websocket client renames the draft: logged as a step, served over HTTP, seen by b.
      a.doc.getMap('meta').set('title', 'Built over y-websocket');
      await until('the title served', async () => (await s.admin.getDraft('yws')).draft.title === 'Built over y-websocket');
      await until('the title at b', () => b.doc.getMap('meta').get('title') === 'Built over y-websocket');

      // An HTTP write reaches it; then it edits inside what that wrote.
      await s.admin.submit('yws', { opId: 'hero', ops: addSectionOps('hero') });
      await until('the section at a', () => headingText(a.doc, 'hero') === 'Hello');
      heading(a.doc, 'hero')!.set('props', { ...(heading(a.doc, 'hero')!.get('props') as object), text: 'From y-websocket' });
      await until('the heading served', async () => (await s.admin.getDraft('yws')).draft.sections['hero']?.components['title']?.props?.['text'] === 'From y-websocket');
      await until('the heading at b', () => headingText(b.doc, 'hero') === 'From y-websocket');

      // b's edit reaches a.
      heading(b.doc, 'hero')!.set('props', { ...(heading(b.doc, 'hero')!.get('props') as object), text: 'From Hocuspocus' });
      await until('b\'s heading at a', () => headingText(a.doc, 'hero') === 'From Hocuspocus');
      const served = await s.admin.getDraft('yws');
      expect(served.version - created).toBe(4); // title, section, a's edit, b's edit: one step each
      expect(a.closes).toEqual([]);
    } finally {
      a.provider.destroy();
      b.close();
    }
  });

  it('the layout docs/api.md gives: a section built in one Yjs transaction on an empty draft is committed as one step', async () => {
    await s.admin.createDraft('yws-layout', 'Layout');
    const created = (await s.admin.getDraft('yws-layout')).version;
    const a = yws(s.url, 'yws-layout', (await s.as('yws-layout', { 'yws-layout': ['write'] })).token);
    try {
      await synced(a);
      // As in docs/api.md "The Y.Doc".
      a.doc.transact(() => {
        const component = (type: string, props: object, children?: string[]) => {
          const c = new Y.Map<unknown>();
          c.set('component', type);
          c.set('props', props);
          if (children) c.set('children', Y.Array.from(children));
          return c;
        };
        const components = new Y.Map<unknown>();
        components.set('root', component('Stack', {}, ['title']));
        components.set('title', component('Heading', { text: 'Hello from Yjs', level: 1 }));
        const section = new Y.Map<unknown>();
        section.set('kind', 'surface');
        section.set('catalog', 'weft@1');
        section.set('components', components);
        section.set('data', new Y.Map());
        a.doc.getMap('sections').set('intro', section);
        a.doc.getArray('order').push(['intro']);
      });
      await until('the section served', async () => (await s.admin.getDraft('yws-layout')).version > created);
      const served = await s.admin.getDraft('yws-layout');
      expect(served.version).toBe(created + 1);
      expect(served.draft.order).toEqual(['intro']);
      expect(served.draft.sections['intro']).toMatchObject({ kind: 'surface', catalog: 'weft@1', components: { root: { component: 'Stack', children: ['title'] }, title: { component: 'Heading', props: { text: 'Hello from Yjs', level: 1 } } } });
    } finally {
      a.provider.destroy();
    }
  });

  it('an invalid edit is reverted in its document and logs nothing; the client stays connected and its next edit lands', async () => {
    await s.admin.createDraft('yws-bad', 'Bad');
    await s.admin.submit('yws-bad', { opId: 'hero', ops: addSectionOps('hero') });
    const a = yws(s.url, 'yws-bad', (await s.as('yws-bad', { 'yws-bad': ['write'] })).token);
    try {
      await synced(a);
      const before = (await s.admin.getDraft('yws-bad')).version;
      heading(a.doc, 'hero')!.set('props', { ...(heading(a.doc, 'hero')!.get('props') as object), level: 'huge' });
      await until('the level reverted', () => (heading(a.doc, 'hero')!.get('props') as Record<string, unknown>)['level'] === 1);
      expect((await s.admin.getDraft('yws-bad')).version).toBe(before);
      heading(a.doc, 'hero')!.set('props', { ...(heading(a.doc, 'hero')!.get('props') as object), text: 'Still here' });
      await until('the next edit served', async () => (await s.admin.getDraft('yws-bad')).draft.sections['hero']?.components['title']?.props?.['text'] === 'Still here');
      expect(a.closes).toEqual([]);
    } finally {
      a.provider.destroy();
    }
  });

  it('a read-only token syncs, its edit is undone in its own document, nothing is logged', async () => {
    await s.admin.createDraft('yws-ro', 'Read me');
    const created = (await s.admin.getDraft('yws-ro')).version;
    const ro = yws(s.url, 'yws-ro', (await s.as('yws-reader', { 'yws-ro': ['read'] })).token);
    try {
      await synced(ro);
      expect(ro.doc.getMap('meta').get('title')).toBe('Read me');
      ro.doc.getMap('meta').set('title', 'Reader wrote this');
      await until('the title restored', () => ro.doc.getMap('meta').get('title') === 'Read me');
      const after = await s.admin.getDraft('yws-ro');
      expect([after.version, after.draft.title]).toEqual([created, 'Read me']);
    } finally {
      ro.provider.destroy();
    }
  });

  it('presence crosses both protocols, stamped with who the token is', async () => {
    await s.admin.createDraft('yws-presence', 'Presence');
    const a = yws(s.url, 'yws-presence', (await s.as('ann', { 'yws-presence': ['write'] })).token);
    const b = await plainClient(s.url, 'yws-presence', (await s.as('bob', { 'yws-presence': ['write'] })).token);
    try {
      await synced(a);
      a.provider.awareness.setLocalStateField('name', 'Ann over y-websocket');
      b.provider.setAwarenessField('name', 'Bob over Hocuspocus');
      const states = (aw: { getStates(): Map<number, Record<string, unknown>> }) => [...aw.getStates().values()];
      await until('Ann at b', () => states(b.provider.awareness!).some((x) => x['name'] === 'Ann over y-websocket'));
      await until('Bob at a', () => states(a.provider.awareness).some((x) => x['name'] === 'Bob over Hocuspocus'));
      expect(states(b.provider.awareness!).find((x) => x['name'] === 'Ann over y-websocket')!['user']).toMatchObject({ id: 'ann' });
    } finally {
      a.provider.destroy();
      b.close();
    }
  });

  it('refusals close with our codes, and y-websocket stops retrying: no token or a bad one 4401, a draft it cannot see 4404', async () => {
    await s.admin.createDraft('yws-auth', 'Auth');
    const other = await s.as('elsewhere', { 'some-other-draft': ['write'] });
    const cases: [string, string, string | null, number][] = [
      ['no token', 'yws-auth', null, 4401],
      ['a bad token', 'yws-auth', 'not-a-token', 4401],
      ['no such draft', 'nope', (await s.as('all', { '*': ['read'] })).token, 4404],
      ['another draft\'s token', 'yws-auth', other.token, 4404],
    ];
    for (const [what, id, token, code] of cases) {
      const c = yws(s.url, id, token);
      try {
        const closed = await c.closed;
        expect({ what, code: closed.code }).toEqual({ what, code });
        expect(c.provider.shouldConnect).toBe(false);
        expect(c.provider.synced).toBe(false);
      } finally {
        c.provider.destroy();
      }
    }
  });

  it('a token revoked while the client is connected: closed with 4401 within 2 s, and y-websocket does not come back', async () => {
    await s.admin.createDraft('yws-revoke', 'Revoke');
    const minted = await s.admin.mintToken({ actor: { id: 'yws-soon-revoked', kind: 'human' }, scopes: { 'yws-revoke': ['write'] } });
    const c = yws(s.url, 'yws-revoke', minted.token);
    try {
      await synced(c);
      const t0 = Date.now();
      expect((await fetch(`${s.url}/v1/tokens/${minted.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN}` } })).status).toBe(200);
      expect((await c.closed).code).toBe(4401);
      expect(Date.now() - t0).toBeLessThan(2600);
      const v = (await s.admin.getDraft('yws-revoke')).version;
      c.doc.getMap('meta').set('title', 'from a revoked token');
      await new Promise((r) => setTimeout(r, 300));
      expect((await s.admin.getDraft('yws-revoke')).version).toBe(v);
      expect(c.provider.wsconnected).toBe(false);
    } finally {
      c.provider.destroy();
    }
  });

  it('the token as Authorization: Bearer (a client that can set headers) authenticates like ?token=', async () => {
    await s.admin.createDraft('yws-bearer', 'Bearer');
    const token = (await s.as('yws-bearer', { 'yws-bearer': ['read'] })).token;
    class BearerWebSocket extends QuietWebSocket {
      constructor(url: string, protocols?: string | string[]) { super(url, protocols, { headers: { authorization: `Bearer ${token}` } }); }
    }
    const c = yws(s.url, 'yws-bearer', null, BearerWebSocket);
    try {
      await Promise.race([synced(c), c.closed.then((e) => { throw new Error(`closed with ${e.code}`); })]);
      expect(c.doc.getMap('meta').get('title')).toBe('Bearer');
      expect(c.closes).toEqual([]);
    } finally {
      c.provider.destroy();
    }
  });

  it('a frame y-websocket does not send (a Hocuspocus stateless message) closes the socket with 4400; the server stays up', async () => {
    await s.admin.createDraft('yws-odd', 'Odd');
    const token = (await s.as('odd', { 'yws-odd': ['write'] })).token;
    const raw = new WebSocket(`${s.url.replace('http', 'ws')}/collab/yws-odd?token=${token}`);
    const closed = new Promise<number>((r) => raw.on('close', (code) => r(code)));
    raw.on('open', () => raw.send(new Uint8Array([5, 2, 0x7b, 0x7d]))); // type 5 "{}"
    expect(await closed).toBe(4400);
    const ok = yws(s.url, 'yws-odd', token);
    await synced(ok);
    ok.provider.destroy();
  });
});

describe('y-websocket clients across a Yjs epoch', () => {
  let s: TestSession;
  beforeAll(async () => { s = await startTestSession({ opsPerSecond: 100_000 }, undefined, () => [collabExtension({ compactAfterStructs: 200, compactQuietMs: 150 })]); });
  afterAll(async () => s.close());

  it('a new epoch closes the client with 4409 and y-websocket stops (its old doc is never merged); a fresh doc syncs the draft as committed', async () => {
    await s.admin.createDraft('yws-ep', 'Epochs');
    await s.admin.submit('yws-ep', { opId: 'seed', ops: addSectionOps('hero') });
    const token = (await s.as('yws-ep', { 'yws-ep': ['write'] })).token;
    const old = yws(s.url, 'yws-ep', token);
    await synced(old);
    for (let i = 0; i < 120; i++) {
      await s.admin.submit('yws-ep', { opId: `t${i}`, ops: [
        { op: 'replace', path: '/sections/hero/components/title/props/text', value: `Heading, take ${i}` },
        { op: 'replace', path: '/title', value: `Page, take ${i}` },
      ] });
    }
    const closed = await old.closed;
    expect(closed.code).toBe(4409);
    old.provider.destroy();
    const fresh = yws(s.url, 'yws-ep', token);
    try {
      await synced(fresh);
      expect(headingText(fresh.doc, 'hero')).toBe('Heading, take 119');
      heading(fresh.doc, 'hero')!.set('props', { ...(heading(fresh.doc, 'hero')!.get('props') as object), text: 'After the epoch' });
      await until('the edit served', async () => (await s.admin.getDraft('yws-ep')).draft.sections['hero']?.components['title']?.props?.['text'] === 'After the epoch');
    } finally {
      fresh.provider.destroy();
    }
  });
});
