// The live doors against hostile clients (issue: hard to break): what a peer writes outside the
// mapped draft is refused and reverted; revoked tokens stop being served on open streams and
// sockets; sockets that never authenticate are closed; awareness stays within bounds and in its
// own slots; sessions and rate limits hold per actor and across a restart.
import WebSocket from 'ws';
import * as Y from 'yjs';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as encoding from 'lib0/encoding';
import { WeftError, WeftHttpClient, WeftPeer } from '@weft/client';
import { Lineage, yDocToDraft } from '@weft/ydoc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collabExtension } from '../src/collab/collab.ts';
import { MAX_AWARENESS_STATES } from '../src/collab/live-guards.ts';
import { addSectionOps, ADMIN, startTestSession } from './helpers.ts';
import { plainClient as join } from './plain-client.ts';

const plainClient = (url: string, draftId: string, token: string) => join(url, draftId, token, { reconnect: false });
import type { TestSession } from './helpers.ts';


const until = async (f: () => boolean | Promise<boolean>, what: string, ms = 8000): Promise<void> => {
  const t0 = Date.now();
  while (!(await f())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A draft's SSE stream read into `text` as it arrives; `ended` resolves when the server ends it. */
async function openStream(url: string, draftId: string, token: string): Promise<{ text: string; ended: Promise<void>; abort(): void }> {
  const ctrl = new AbortController();
  const res = await fetch(`${url}/v1/drafts/${draftId}/stream`, { headers: { authorization: `Bearer ${token}` }, signal: ctrl.signal });
  const out = { text: '', ended: Promise.resolve(), abort: () => ctrl.abort() };
  out.ended = (async () => {
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      out.text += Buffer.from(value).toString();
    }
  })();
  return out;
}

describe('live doors against hostile clients', () => {
  let s: TestSession;
  beforeAll(async () => {
    s = await startTestSession({ opsPerSecond: 10_000 }, undefined, () => [collabExtension({ authDeadlineMs: 400 })]);
    await s.admin.createDraft('live', 'Live');
    await s.admin.submit('live', { opId: 'seed', ops: addSectionOps('hero') });
  });
  afterAll(async () => s.close());

  it('a Yjs key outside the mapped draft (400 KB of meta junk) is refused and reverted; nothing is kept; the sender stays connected', async () => {
    const w = await s.as('junk-writer', { live: ['write'] });
    const a = await plainClient(s.url, 'live', w.token);
    const before = await s.admin.getDraft('live');
    a.doc.getMap('meta').set('junk', 'x'.repeat(400_000));
    await until(() => a.stateless.some((m) => m.includes('"refused"')), 'the refusal');
    const msg = JSON.parse(a.stateless.find((m) => m.includes('"refused"'))!) as { code: string; kind: string; refused: { path: string; rule: string }[] };
    expect(msg).toMatchObject({ code: 'VALIDATION_FAILED', kind: 'emission' });
    expect(msg.refused[0]).toMatchObject({ path: '/junk', rule: 'path_not_found', kind: 'emission' });
    await until(() => a.doc.getMap('meta').get('junk') === undefined, 'the revert on the sender');
    expect((await s.admin.getDraft('live')).version).toBe(before.version);
    // Nobody else gets the junk, now or after a reload; and the sender's next valid edit lands.
    const fresh = await plainClient(s.url, 'live', (await s.as('junk-watch', { live: ['read'] })).token);
    expect(fresh.doc.getMap('meta').get('junk')).toBeUndefined();
    expect(Y.encodeStateAsUpdate(fresh.doc).length).toBeLessThan(100_000);
    a.doc.getMap('meta').set('title', 'After the junk');
    await until(async () => (await s.admin.getDraft('live')).draft.title === 'After the junk', 'the valid edit');
    a.close();
    fresh.close();
  });

  it('a revoked token stops being served within 2 s: the SSE stream ends with RUN_ERROR, the socket closes with 4401', async () => {
    const minted = await s.admin.mintToken({ actor: { id: 'soon-revoked', kind: 'human' }, scopes: { live: ['write'] } });
    const stream = await openStream(s.url, 'live', minted.token);
    const peer = await plainClient(s.url, 'live', minted.token);
    // Peers on other tokens, re-checked in the same batch, keep being served.
    const others = await Promise.all(['stays-1', 'stays-2'].map(async (id) => plainClient(s.url, 'live', (await s.as(id, { live: ['write'] })).token)));
    await until(() => stream.text.includes('STATE_SNAPSHOT'), 'the snapshot');
    const t0 = Date.now();
    const del = await fetch(`${s.url}/v1/tokens/${minted.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN}` } });
    expect(del.status).toBe(200);
    await until(() => stream.text.includes('RUN_ERROR') && peer.closes.includes(4401), 'the stream and the socket to end', 5000);
    expect(Date.now() - t0).toBeLessThan(2600);
    expect(stream.text).toContain('"code":"UNAUTHORIZED"');
    await stream.ended;
    // Nothing more is committed through the closed socket.
    const v = (await s.admin.getDraft('live')).version;
    peer.doc.getMap('meta').set('title', 'from a revoked token');
    await new Promise((r) => setTimeout(r, 300));
    expect((await s.admin.getDraft('live')).version).toBe(v);
    for (const o of others) expect(o.closes).toEqual([]);
    others[0]!.doc.getMap('meta').set('title', 'from a live token');
    await until(async () => (await s.admin.getDraft('live')).draft.title === 'from a live token', 'a live token still writes');
    for (const o of others) o.close();
    peer.close();
    stream.abort();
  });

  it('a deleted draft stops being served within 2 s: its sockets close with 4404, its SSE streams end with RUN_ERROR NOT_FOUND; the id created again starts empty', async () => {
    await s.admin.createDraft('doomed', 'Doomed');
    await s.admin.submit('doomed', { opId: 'doomed-seed', ops: addSectionOps('hero') });
    const w = await s.as('doomed-writer', { doomed: ['write'] });
    const stream = await openStream(s.url, 'doomed', w.token);
    const peer = await plainClient(s.url, 'doomed', w.token);
    const sdk = await WeftPeer.join({ url: s.url, draftId: 'doomed', token: w.token, WebSocket });
    const bystander = await plainClient(s.url, 'live', (await s.as('bystander', { live: ['write'] })).token);
    await until(() => stream.text.includes('STATE_SNAPSHOT'), 'the snapshot');
    const t0 = Date.now();
    const del = await fetch(`${s.url}/v1/drafts/doomed`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN}` } });
    expect(del.status).toBe(200);
    await until(() => stream.text.includes('RUN_ERROR') && peer.closes.includes(4404), 'the stream and the socket to end', 5000);
    expect(Date.now() - t0).toBeLessThan(2600);
    expect(stream.text).toContain('"code":"NOT_FOUND"');
    await stream.ended;
    expect(bystander.closes).toEqual([]); // other drafts' peers are untouched
    // The SDK's peer is ended for good, not left reconnecting: it says why, and a submit fails at once.
    await until(() => sdk.ended !== null, 'the SDK peer to end');
    expect(sdk.ended).toEqual({ code: 'NOT_FOUND', closeCode: 4404 });
    await expect(sdk.submit([{ op: 'replace', path: '/title', value: 'too late' }])).rejects.toThrow(/^NOT_FOUND/);
    // Joining the deleted draft is refused as quickly.
    const j0 = Date.now();
    await expect(WeftPeer.join({ url: s.url, draftId: 'doomed', token: w.token, WebSocket, timeoutMs: 10_000 })).rejects.toThrow(/NOT_FOUND|authentication failed/);
    expect(Date.now() - j0).toBeLessThan(3000);
    // Created again: from empty, and a new peer sees none of the old content.
    await s.admin.createDraft('doomed', 'Doomed again');
    const again = await plainClient(s.url, 'doomed', w.token);
    expect(yDocToDraft(again.doc, 'doomed').sections).toEqual({});
    const recreated = await s.admin.getDraft('doomed');
    expect(recreated.version).toBe(1); // its one step: the title it was created with
    expect(recreated.draft).toMatchObject({ title: 'Doomed again', order: [], sections: {} });
    again.close();
    peer.close();
    bystander.close();
    stream.abort();
  });

  it('a socket that never authenticates is closed after the deadline', async () => {
    const ws = new WebSocket(s.url.replace('http', 'ws') + '/collab');
    const code = await new Promise<number>((resolve) => ws.on('close', (c) => resolve(c)));
    expect(code).toBe(4408); // a timeout, which a client may retry (4401 ends an SDK peer for good)
  });

  it('awareness: one connection cannot plant hundreds of states nor take another client\'s slot', async () => {
    const alice = await plainClient(s.url, 'live', (await s.as('alice', { live: ['write'] })).token);
    alice.provider.setAwarenessField('user', { name: 'Alice' });
    const viewer = await plainClient(s.url, 'live', (await s.as('viewer', { live: ['write'] })).token);
    await until(() => viewer.provider.awareness!.getStates().has(alice.doc.clientID), 'alice present');
    const mallory = await plainClient(s.url, 'live', (await s.as('mallory', { live: ['write'] })).token);
    // A hand-made awareness update: 300 states, one of them in Alice's slot.
    const fake = new awarenessProtocol.Awareness(new Y.Doc());
    const ids = [alice.doc.clientID, ...Array.from({ length: 300 }, (_, i) => 900_000 + i)];
    const states = new Map<number, unknown>(ids.map((id) => [id, { user: { name: id === alice.doc.clientID ? 'Not Alice' : `bot ${id}` } }]));
    for (const id of ids) fake.meta.set(id, { clock: 100, lastUpdated: Date.now() });
    const update = awarenessProtocol.encodeAwarenessUpdate(fake, ids, states as Map<number, Record<string, unknown>>);
    const enc = encoding.createEncoder();
    encoding.writeVarString(enc, 'live');
    encoding.writeVarUint(enc, 1); // Hocuspocus MessageType.Awareness
    encoding.writeVarUint8Array(enc, update);
    mallory.socket.send(encoding.toUint8Array(enc));
    await new Promise((r) => setTimeout(r, 500));
    const seen = viewer.provider.awareness!.getStates();
    const planted = [...seen.keys()].filter((id) => id >= 900_000 && id <= 900_300);
    expect(planted.length).toBeLessThanOrEqual(MAX_AWARENESS_STATES);
    expect((seen.get(alice.doc.clientID) as { user?: { name?: string } }).user?.name).toBe('Alice');
    alice.close();
    viewer.close();
    mallory.close();
  });

  it('awareness is relayed as sent: only the peers\' own client ids (no state of the server\'s making), and a removal reaches the others', async () => {
    await s.admin.createDraft('aw', 'Awareness'); // a draft of its own: no other test's peers in its awareness
    const a = await plainClient(s.url, 'aw', (await s.as('aw-a', { aw: ['write'] })).token);
    const b = await plainClient(s.url, 'aw', (await s.as('aw-b', { aw: ['write'] })).token);
    a.provider.setAwarenessField('user', { name: 'A' });
    b.provider.setAwarenessField('user', { name: 'B' });
    for (let i = 0; i < 5; i++) a.provider.setAwarenessField('cursor', { x: i }); // several updates, as a moving cursor sends
    await until(() => (b.provider.awareness!.getStates().get(a.doc.clientID) as { cursor?: { x: number } } | undefined)?.cursor?.x === 4, 'a\'s last cursor at b');
    const ids = [...b.provider.awareness!.getStates().keys()].sort();
    expect(ids).toEqual([a.doc.clientID, b.doc.clientID].sort());
    // A's provider announces its removal (null state): b drops A at once, not after a timeout.
    awarenessProtocol.removeAwarenessStates(a.provider.awareness!, [a.doc.clientID], 'test');
    await until(() => !b.provider.awareness!.getStates().has(a.doc.clientID), 'a\'s removal at b', 3000);
    a.close();
    b.close();
  });

  it('a client id announced by one actor cannot be written with by another while its owner is away', async () => {
    const victim = await plainClient(s.url, 'live', (await s.as('victim', { live: ['write'] })).token);
    victim.provider.setAwarenessField('user', { name: 'Victim' });
    const attacker = await plainClient(s.url, 'live', (await s.as('attacker', { live: ['write'] })).token);
    await until(() => attacker.provider.awareness!.getStates().has(victim.doc.clientID), 'the victim announced');
    const victimId = victim.doc.clientID;
    victim.close();
    const before = (await s.admin.getDraft('live')).version;
    // The attacker writes under the victim's client id.
    const forged = new Y.Doc();
    Y.applyUpdate(forged, Y.encodeStateAsUpdate(attacker.doc));
    forged.clientID = victimId;
    const sv = Y.encodeStateVector(forged);
    forged.getMap('meta').set('title', 'squatted');
    const bytes = Y.encodeStateAsUpdate(forged, sv);
    Y.applyUpdate(attacker.doc, bytes);
    await until(() => attacker.closes.includes(4400), 'the forged write to be refused');
    expect((await s.admin.getDraft('live')).version).toBe(before);
    attacker.close();
  });

  it('an old opId replayed with another body is refused without a reload; the Yjs lineage stays exactly what the log rebuilds', async () => {
    await s.admin.submit('live', { opId: 'kept-op', ops: [{ op: 'replace', path: '/title', value: 'kept' }] });
    await s.restart(); // recent opIds are forgotten: only the append can tell
    const peer = await plainClient(s.url, 'live', (await s.as('replay-watch', { live: ['read'] })).token);
    const [reuse, fresh] = await Promise.allSettled([
      s.admin.submit('live', { opId: 'kept-op', ops: [{ op: 'replace', path: '/title', value: 'hijack' }] }),
      s.admin.submit('live', { opId: 'beside-it', ops: [{ op: 'replace', path: '/title', value: 'beside' }] }),
    ]);
    expect(reuse.status === 'rejected' && (reuse.reason as WeftError).code).toBe('IDEMPOTENCY_CONFLICT');
    expect(fresh.status).toBe('fulfilled');
    await until(() => peer.doc.getMap('meta').get('title') === 'beside', 'the peer to see the step beside it');
    const served = (await s.admin.getDraft('live')).draft;
    expect(served.title).toBe('beside');
    const loaded = (await s.store.loadRoom('live'))!;
    const lineage = Lineage.open('live', loaded.meta.epoch, loaded.base);
    lineage.advance(loaded.tail);
    expect(lineage.chained).toBe(true);
    expect(yDocToDraft(lineage.doc, 'live')).toEqual(served);
    expect(yDocToDraft(peer.doc, 'live')).toEqual(served);
    peer.close();
  });

  it('sessions: a read token cannot open one; after a restart only its actor can close it; rate limits are per actor, not per session', async () => {
    const reader = await s.as('sess-reader', { live: ['read'] });
    const denied = await fetch(`${s.url}/v1/drafts/live/sessions`, { method: 'POST', headers: { authorization: `Bearer ${reader.token}` } });
    expect(denied.status).toBe(403);
    const owner = await s.as('sess-owner', { live: ['write'] });
    const other = await s.as('sess-other', { live: ['write'] });
    const open = await (await fetch(`${s.url}/v1/drafts/live/sessions`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` } })).json() as { sessionId: string };
    await s.restart();
    const tokenOf = (c: WeftHttpClient): string => c.token;
    const close = (t: string) => fetch(`${s.url}/v1/sessions/${open.sessionId}`, { method: 'DELETE', headers: { authorization: `Bearer ${t}` } });
    expect((await close(tokenOf(other))).status).toBe(403);
    const again = new WeftHttpClient(s.url, tokenOf(owner));
    await again.submit('live', { opId: 'sess-still-open', sessionId: open.sessionId, ops: [{ op: 'replace', path: '/title', value: 'still open' }] });
    expect((await close(tokenOf(owner))).status).toBe(200);
  });
});
