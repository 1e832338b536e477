// Yjs epochs (compaction): once a draft's Yjs history outweighs its content, the session starts a
// new epoch from the draft as committed; SDK peers reload into it, peers holding an old epoch's doc
// are closed with DOC_EPOCH_CHANGED and can never merge it back; a restart loads the new epoch's
// base plus its tail.
import * as Y from 'yjs';
import { jsonEqual } from '@weft/core';
import type { Json } from '@weft/core';
import { WeftPeer } from '@weft/client';
import { yDocToDraft } from '@weft/ydoc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collabExtension } from '../src/collab/collab.ts';
import { addSectionOps, startTestSession } from './helpers.ts';
import type { TestSession } from './helpers.ts';
import { plainClient } from './plain-client.ts';

const until = async (f: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> => {
  const t0 = Date.now();
  while (!(await f())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('Yjs epochs: compaction without duplicated content', () => {
  let s: TestSession;
  beforeAll(async () => {
    s = await startTestSession({ opsPerSecond: 100_000 }, undefined, () => [collabExtension({ compactAfterStructs: 200, compactQuietMs: 150 })]);
    await s.admin.createDraft('ep', 'Epochs');
    await s.admin.submit('ep', { opId: 'seed', ops: addSectionOps('hero') });
  });
  afterAll(async () => s.close());

  const served = async () => (await s.admin.getDraft('ep')).draft as unknown as Json;
  const epoch = async () => (await s.store.getDraft('ep'))!.epoch;

  it('history past the threshold starts a new epoch; SDK peers reload into it and keep editing; an old doc is refused, never merged', async () => {
    const writer = await s.as('ep-writer', { ep: ['write'] });
    const peer = await WeftPeer.join({ url: s.url, draftId: 'ep', token: writer.token });
    let reloadedDoc: Y.Doc | null = null;
    peer.onReload((d) => { reloadedDoc = d; });

    // A plain Yjs client (no SDK): it keeps its old doc and must be turned away, not merged.
    const plain = await plainClient(s.url, 'ep', writer.token);
    const plainDoc = plain.doc;
    const closes = plain.closes;

    expect(await epoch()).toBe(0);
    // Edits spread over several keys (a title, a heading, data values): their tombstones do not
    // merge, so the doc's structs grow with every one.
    const churn = async (tag: string): Promise<void> => {
      for (let i = 0; i < 120; i++) {
        await s.admin.submit('ep', { opId: `${tag}${i}`, ops: [
          { op: 'replace', path: '/sections/hero/components/title/props/text', value: `Heading, take ${i}` },
          { op: 'replace', path: '/title', value: `Page, take ${i}` },
          { op: 'add', path: `/sections/hero/data/k${i % 5}`, value: i },
        ] });
      }
    };
    await churn('t');
    await until(async () => (await epoch()) === 1, 'epoch 1');
    await until(() => peer.reloads >= 1 && reloadedDoc !== null, 'the SDK peer to reload');
    await until(async () => jsonEqual(peer.draft() as unknown as Json, await served()), 'the reloaded peer to equal the server');
    expect(peer.doc).toBe(reloadedDoc);

    // The new doc holds the draft, not its history: a fraction of the old doc's structs (each one
    // an object in every peer's and the server's memory).
    const structs = (d: Y.Doc): number => [...d.store.clients.values()].reduce((a, list) => a + list.length, 0);
    expect(structs(peer.doc) * 4).toBeLessThan(structs(plainDoc));

    // The reloaded peer edits through Yjs as before: committed and logged in the new epoch.
    const before = (await s.admin.getDraft('ep')).version;
    peer.applyOps([{ op: 'replace', path: '/title', value: 'After the epoch' }]);
    await until(async () => (await s.admin.getDraft('ep')).draft.title === 'After the epoch', 'the post-epoch edit to commit');
    expect((await s.store.readSteps('ep', { after: before })).map((x) => x.ops[0]?.path)).toEqual(['/title']);

    // The plain client was closed with DOC_EPOCH_CHANGED and its old lineage never came back:
    // a fresh peer, the server and the log agree, with one heading (no duplicated content).
    await until(() => closes.includes(4409), 'the old-epoch client to be closed with 4409');
    plainDoc.getMap('meta').set('title', 'From the old epoch');
    await new Promise((r) => setTimeout(r, 300));
    const check = await WeftPeer.join({ url: s.url, draftId: 'ep', token: writer.token });
    expect(check.draft()).toEqual(await served());
    expect((await served() as { title: string }).title).toBe('After the epoch');
    expect(Object.keys((check.draft().sections['hero'] as { components: object }).components)).toEqual(['root', 'title']);
    check.close();

    // And again: every epoch's lineage is watched, so history never piles up.
    await churn('u');
    await until(async () => (await epoch()) === 2, 'epoch 2');
    await until(() => peer.reloads >= 2, 'the SDK peer to reload again');
    await until(async () => jsonEqual(peer.draft() as unknown as Json, await served()), 'the peer to equal the server in epoch 2');
    plain.close();
    peer.close();
  });

  it('after a restart the draft loads from the new epoch\'s base plus its tail', async () => {
    const want = await served();
    const e = await epoch();
    expect(e).toBeGreaterThanOrEqual(1);
    // The log alone: the epoch's base snapshot + the stored bytes of every later step.
    const head = (await s.store.getDraft('ep'))!.headVersion;
    const base = await s.store.latestYSnapshot('ep', e, head);
    expect(base?.yState).toBeTruthy();
    const doc = new Y.Doc();
    Y.applyUpdate(doc, base!.yState!);
    for (const st of await s.store.readSteps('ep', { after: base!.version })) Y.applyUpdate(doc, st.yUpdate!);
    expect(doc.store.pendingStructs).toBeNull();
    expect(yDocToDraft(doc, 'ep')).toEqual(want);

    await s.restart();
    const reader = await s.as('ep-reader', { ep: ['read'] });
    const peer = await WeftPeer.join({ url: s.url, draftId: 'ep', token: reader.token });
    expect(peer.draft()).toEqual(want);
    peer.close();
  });
});
