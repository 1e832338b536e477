import { isDeepStrictEqual } from 'node:util';
import * as Y from 'yjs';
import { WeftPeer } from '@weft/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSectionOps, startTestSession } from './helpers.ts';
import { plainClient } from './plain-client.ts';
import type { TestSession } from './helpers.ts';


const titleMap = (doc: Y.Doc) => ((doc.getMap('sections').get('hero') as Y.Map<unknown>).get('components') as Y.Map<Y.Map<unknown>>).get('title')!;
const until = async (f: () => boolean | Promise<boolean>, ms = 5000) => {
  const t0 = Date.now();
  while (!(await f())) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('live collaboration over Hocuspocus', () => {
  let s: TestSession;
  beforeAll(async () => {
    s = await startTestSession({ opsPerSecond: 10_000 });
    await s.admin.createDraft('live', 'Live');
    await s.admin.submit('live', { opId: 'seed', ops: addSectionOps('hero') });
  });
  afterAll(async () => s.close());

  it('a plain Yjs client edits a prop: committed to the log, seen by others; an invalid edit is reverted for everyone and it stays connected', async () => {
    const writer = await s.as('plain-writer', { live: ['write'] });
    const a = await plainClient(s.url, 'live', writer.token);
    const b = await plainClient(s.url, 'live', (await s.as('watcher', { live: ['read'] })).token);
    // Everything b ever sees for the heading level.
    const levelsSeen: unknown[] = [];
    b.doc.on('update', () => {
      const props = titleMap(b.doc)?.get('props') as Record<string, unknown> | undefined;
      if (props) levelsSeen.push(props['level']);
    });

    const before = (await s.admin.getDraft('live')).version;
    titleMap(a.doc).set('props', { ...(titleMap(a.doc).get('props') as object), text: 'From plain Yjs' });
    await until(() => (titleMap(b.doc).get('props') as Record<string, unknown>)['text'] === 'From plain Yjs');
    const logged = await s.store.readSteps('live', { after: before });
    expect(logged).toHaveLength(1);
    expect(logged[0]!.ops).toEqual([{ op: 'replace', path: '/sections/hero/components/title/props', value: expect.objectContaining({ text: 'From plain Yjs' }) }]);
    expect(logged[0]!.yUpdate).not.toBeNull();

    // Invalid: a heading level that is not an integer.
    titleMap(a.doc).set('props', { ...(titleMap(a.doc).get('props') as object), level: 'huge' });
    await until(() => a.stateless.some((p) => p.includes('"refused"')));
    await until(() => (titleMap(a.doc).get('props') as Record<string, unknown>)['level'] === 1);
    const refusal = JSON.parse(a.stateless.find((p) => p.includes('"refused"'))!);
    expect(refusal.refused[0]).toMatchObject({ code: 'VALIDATION_FAILED', rule: 'invalid_props' });
    expect(levelsSeen).not.toContain('huge');
    expect((await s.store.readSteps('live', { after: before }))).toHaveLength(1);

    // Still connected: its next valid edit lands.
    titleMap(a.doc).set('props', { ...(titleMap(a.doc).get('props') as object), text: 'Still here' });
    await until(() => (titleMap(b.doc).get('props') as Record<string, unknown>)['text'] === 'Still here');
    const served = await s.admin.getDraft('live');
    expect(served.draft.sections['hero']!.components['title']!.props!['text']).toBe('Still here');
    a.close();
    b.close();
  });

  it('a cycle made through Yjs is refused; the JSON, the log and every peer agree afterwards', async () => {
    const w = await s.as('cycler', { live: ['write'] });
    const a = await WeftPeer.join({ url: s.url, draftId: 'live', token: w.token });
    const b = await WeftPeer.join({ url: s.url, draftId: 'live', token: w.token });
    a.applyOps([{ op: 'add', path: '/sections/hero/components/box', value: { id: 'box', component: 'Card', children: [] } }, { op: 'add', path: '/sections/hero/components/root/children/-', value: 'box' }]);
    await until(() => b.draft().sections['hero']?.components['box'] !== undefined);
    // box under itself: a cycle.
    a.applyOps([{ op: 'add', path: '/sections/hero/components/box/children/-', value: 'box' }]);
    await until(() => a.refusals.length > 0);
    expect(['cycle', 'double_parent']).toContain(a.refusals[0]!.refused[0]!.rule);
    await until(() => isDeepStrictEqual(a.draft(), b.draft()));
    const served = await s.admin.getDraft('live');
    expect(a.draft()).toEqual(served.draft);
    expect(b.draft()).toEqual(served.draft);
    a.close();
    b.close();
  });

  for (const order of ['add-first', 'remove-first'] as const) it(`two peers moving A into B and B into A at once (${order}): exactly one move wins, the other is told, all agree`, async () => {
    await s.admin.submit('live', { opId: `boxes-${order}`, ops: [
      { op: 'add', path: `/sections/hero/components/box-a-${order}`, value: { id: `box-a-${order}`, component: 'Stack', children: [] } },
      { op: 'add', path: `/sections/hero/components/box-b-${order}`, value: { id: `box-b-${order}`, component: 'Stack', children: [] } },
      { op: 'add', path: '/sections/hero/components/root/children/-', value: `box-a-${order}` },
      { op: 'add', path: '/sections/hero/components/root/children/-', value: `box-b-${order}` },
    ] });
    const a = await WeftPeer.join({ url: s.url, draftId: 'live', token: (await s.as(`mover-a-${order}`, { live: ['write'] })).token });
    const b = await WeftPeer.join({ url: s.url, draftId: 'live', token: (await s.as(`mover-b-${order}`, { live: ['write'] })).token });
    const move = (p: WeftPeer, id: string, to: string) => {
      const root = p.draft().sections['hero']!.components['root']!.children!;
      // One Yjs transaction: a move, in either order, is never a double parent.
      const add = { op: 'add' as const, path: `/sections/hero/components/${to}/children/-`, value: id };
      const remove = { op: 'remove' as const, path: `/sections/hero/components/root/children/${root.indexOf(id)}` };
      p.applyOps(order === 'add-first' ? [add, remove] : [remove, add]);
    };
    move(a, `box-a-${order}`, `box-b-${order}`);
    move(b, `box-b-${order}`, `box-a-${order}`);
    await until(() => a.refusals.length + b.refusals.length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(a.refusals.length + b.refusals.length).toBe(1);
    const served = (await s.admin.getDraft('live')).draft;
    const c = served.sections['hero']!.components;
    expect((c[`box-a-${order}`]!.children ?? []).length + (c[`box-b-${order}`]!.children ?? []).length).toBe(1);
    await until(() => isDeepStrictEqual(a.draft(), served) && isDeepStrictEqual(b.draft(), served));
    a.close();
    b.close();
  });

  it('stateless submits get a typed answer', async () => {
    const w = await s.as('stateless', { live: ['write'] });
    const p = await WeftPeer.join({ url: s.url, draftId: 'live', token: w.token });
    const ok = await p.submit([{ op: 'replace', path: '/title', value: 'Via WS' }]);
    expect(ok).toMatchObject({ type: 'result', ok: true });
    const bad = await p.submit([{ op: 'replace', path: '/sections/nope/catalog', value: 'x' }]);
    expect(bad.ok).toBe(true);
    expect(bad.refused[0]).toMatchObject({ code: 'VALIDATION_FAILED', rule: 'missing_section' });
    await until(() => p.draft().title === 'Via WS');
    p.close();
  });

  it('read-only tokens connect read-only: their edits reach no one and nothing is logged', async () => {
    const r = await s.as('ro', { live: ['read'] });
    const w = await s.as('rw', { live: ['write'] });
    const ro = await WeftPeer.join({ url: s.url, draftId: 'live', token: r.token });
    const other = await WeftPeer.join({ url: s.url, draftId: 'live', token: w.token });
    const before = (await s.admin.getDraft('live')).version;
    ro.applyOps([{ op: 'replace', path: '/title', value: 'Sneaky' }]);
    ro.setPresence({ name: 'ro' });
    await new Promise((r) => setTimeout(r, 300));
    expect(other.draft().title).not.toBe('Sneaky');
    expect((await s.admin.getDraft('live')).version).toBe(before);
    expect(other.peers().some((p) => p.presence?.name === 'ro')).toBe(false);
    ro.close();
    other.close();
  });

  it('a plain provider with a read-only token that edits anyway is told FORBIDDEN and its document shows the draft again; nothing is logged', async () => {
    const ro = await plainClient(s.url, 'live', (await s.as('ro-plain', { live: ['read'] })).token);
    try {
      const before = await s.admin.getDraft('live');
      ro.doc.getMap('meta').set('title', 'Reader wrote this');
      await until(() => ro.stateless.some((m) => m.includes('"refused"')));
      const msg = JSON.parse(ro.stateless.find((m) => m.includes('"refused"'))!) as { code: string; message: string };
      expect(msg.code).toBe('FORBIDDEN');
      expect(msg.message).toContain('read-only');
      // Before: the reader's document kept "Reader wrote this" for good, and no one told it why.
      await until(() => ro.doc.getMap('meta').get('title') === before.draft.title);
      const after = await s.admin.getDraft('live');
      expect([after.version, after.draft.title]).toEqual([before.version, before.draft.title]);
    } finally {
      ro.close();
    }
  });

  const servedContains = async (text: string): Promise<void> => {
    const t0 = Date.now();
    while (!JSON.stringify((await s.admin.getDraft('live')).draft).includes(text)) {
      if (Date.now() - t0 > 5000) throw new Error(`the served draft never contained ${text}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('writing with another actor\'s Yjs client id is refused as forged (4400); the owner reconnecting with its own id sends its offline edit and it commits', async () => {
    const owner = await plainClient(s.url, 'live', (await s.as('id-owner', { live: ['write'] })).token);
    titleMap(owner.doc).set('props', { ...(titleMap(owner.doc).get('props') as object), text: 'Owner online' });
    await servedContains('Owner online');

    const forger = await plainClient(s.url, 'live', (await s.as('id-forger', { live: ['write'] })).token);
    const closed = new Promise<number>((r) => forger.provider.on('close', ({ event }: { event: { code: number } }) => r(event.code)));
    forger.doc.clientID = owner.doc.clientID; // its next struct continues the owner's clock
    titleMap(forger.doc).set('props', { ...(titleMap(forger.doc).get('props') as object), text: 'Forged' });
    expect(await closed).toBe(4400);
    forger.close();

    // The owner drops its socket, edits offline, comes back on a new socket with the same id.
    const ws = owner.provider.configuration.websocketProvider as unknown as { connect(): Promise<unknown>; disconnect(): void; status: string };
    ws.disconnect();
    await until(() => ws.status === 'disconnected');
    titleMap(owner.doc).set('props', { ...(titleMap(owner.doc).get('props') as object), text: 'Written offline' });
    const before = (await s.admin.getDraft('live')).version;
    await ws.connect();
    await servedContains('Written offline');
    const logged = await s.store.readSteps('live', { after: before });
    expect(logged.map((x) => x.ops[0]?.path)).toEqual(['/sections/hero/components/title/props']);
    const served = (await s.admin.getDraft('live')).draft;
    expect(JSON.stringify(served)).not.toContain('Forged');
    owner.close();
  });

  it('a malformed update closes only that connection; the server stays up', async () => {
    const w = await s.as('bad', { live: ['write'] });
    const bad = await WeftPeer.join({ url: s.url, draftId: 'live', token: w.token });
    const good = await WeftPeer.join({ url: s.url, draftId: 'live', token: w.token });
    const closed = new Promise<number>((r) => bad.provider.on('close', ({ event }: { event: { code: number } }) => r(event.code)));
    // A sync update message (type 0/2) whose payload is garbage.
    const enc = [0, 2, 5, 0xff, 0xff, 0xff, 0xff, 0xff];
    const name = new TextEncoder().encode('live');
    (bad.provider.configuration.websocketProvider as unknown as { send(m: Uint8Array): void }).send(new Uint8Array([name.length, ...name, ...enc]));
    expect(await closed).toBe(4400);
    const ok = await good.submit([{ op: 'replace', path: '/title', value: 'Fine' }]);
    expect(ok.ok).toBe(true);
    bad.close();
    good.close();
  });

  it('a frame Hocuspocus cannot read (a cut sync message, awareness that is not JSON, an unknown sync step) closes the socket with 4400, not only the document: the plain provider reconnects and its next edit commits', async () => {
    const w = await s.as('unreadable', { live: ['write'] });
    const name = new TextEncoder().encode('live');
    const frames: Record<string, number[]> = {
      'cut sync message': [0, 2],
      'awareness that is not JSON': [1, 8, 1, 5, 9, 4, ...new TextEncoder().encode('{bad')],
      'unknown sync step': [0, 77, 0],
    };
    for (const [what, body] of Object.entries(frames)) {
      const p = await plainClient(s.url, 'live', w.token);
      try {
        const closed = new Promise<number>((r) => p.socket.on('close', ({ event }: { event: { code: number } }) => r(event.code)));
        (p.socket as unknown as { webSocket: { send(m: Uint8Array): void } }).webSocket.send(new Uint8Array([name.length, ...name, ...body]));
        expect([what, await closed]).toEqual([what, 4400]);
        // Before: the document alone was closed (1000), the socket stayed "connected", and this edit never left.
        await until(() => p.provider.isSynced);
        p.doc.getMap('meta').set('title', `After ${what}`);
        await until(async () => (await s.admin.getDraft('live')).draft.title === `After ${what}`);
      } finally {
        p.close();
      }
    }
  });
});

