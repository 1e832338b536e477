// The checkpointer behind the real session service (HTTP writes, turns, the session's Yjs loader).
// Test-only import of services/session: its test harness. The session's rooms load their Yjs
// lineage with ydoc's Lineage from store.loadRoom, which is what the checkpointer must continue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { loadDraft } from '@weft/store';
import { genesis, Lineage, yDocToDraft } from '@weft/ydoc';
import { addSectionOps, startTestSession } from '../../session/test/helpers.ts';
import type { TestSession } from '../../session/test/helpers.ts';
import { build, silentLogger } from './app.ts';
import type { Checkpointer } from './app.ts';
import { fullReplay, until } from '../test/writer.ts';

let s: TestSession;
let ck: Checkpointer;
beforeAll(async () => {
  s = await startTestSession();
  ck = build({ store: s.store, bus: s.bus, log: silentLogger }, { quietMs: 60_000, everyOps: 1000, headCheckMs: 60_000, sweepMs: 3_600_000 });
  await ck.run();
});
afterAll(async () => {
  await ck.stop();
  await s.close();
});

const title = (v: string): unknown[] => [{ op: 'replace', path: '/title', value: v }];
/** What the session's room loader builds for a draft at its head. */
const sessionDoc = async (draftId: string): Promise<Y.Doc> => {
  const loaded = (await s.store.loadRoom(draftId))!;
  const lineage = Lineage.open(draftId, loaded.meta.epoch, loaded.base);
  lineage.advance(loaded.tail);
  return lineage.doc;
};

describe('checkpointer behind the session service', () => {
  it('snapshots at RUN_FINISHED, and the session loads the same content from that snapshot', async () => {
    await s.admin.createDraft('page', 'Page');
    await s.admin.submit('page', { opId: 'seed', ops: addSectionOps('hero') as never });
    for (let i = 0; i < 4; i++) await s.admin.submit('page', { opId: `t-${i}`, turnId: 'turn-1', ops: title(`turn ${i}`) as never });
    expect(ck.written.filter((w) => w.draftId === 'page')).toEqual([]); // no quiet, under 1000 ops: nothing yet
    await s.admin.finishTurn('page', 'turn-1');
    await until(() => ck.written.some((w) => w.draftId === 'page'), 'turn snapshot');
    const head = (await s.store.getDraft('page'))!.headVersion;
    expect(ck.written.filter((w) => w.draftId === 'page').map((w) => [w.version, w.reason, w.yState])).toEqual([[head, 'turn', true]]);

    const snap = (await s.store.latestSnapshot('page'))!;
    const replay = await fullReplay(s.store, 'page');
    expect(snap.doc).toEqual(replay.draft);
    // The session's loader starts from this snapshot's state (it is the latest of the epoch)…
    const fromSnap = new Y.Doc();
    Y.applyUpdate(fromSnap, snap.yState!);
    const loaded = await sessionDoc('page');
    expect(yDocToDraft(loaded, 'page')).toEqual(replay.draft);
    expect(Y.encodeStateVector(loaded)).toEqual(Y.encodeStateVector(fromSnap));
    // …and a client that has held the whole history since genesis sees nothing new, nothing twice.
    const oldClient = new Y.Doc();
    Y.applyUpdate(oldClient, genesis('page', 0));
    for (const st of await s.store.readSteps('page')) Y.applyUpdate(oldClient, st.yUpdate!);
    const before = Y.encodeStateVector(oldClient);
    Y.applyUpdate(oldClient, Y.encodeStateAsUpdate(loaded));
    expect(Y.encodeStateVector(oldClient)).toEqual(before);
    expect(yDocToDraft(oldClient, 'page')).toEqual(replay.draft);
    expect(oldClient.getArray('order').toJSON()).toEqual(['hero']);
  });

  it('after a session restart, rooms load snapshot + tail; later snapshots continue the same lineage', async () => {
    await s.admin.submit('page', { opId: 'after-1', ops: title('after turn') as never });
    await s.admin.submit('page', { opId: 'after-2', ops: addSectionOps('faq') as never });
    await s.restart();
    await s.admin.submit('page', { opId: 'after-3', ops: title('after restart') as never }); // a new session process, new Yjs client id
    const head = (await s.store.getDraft('page'))!.headVersion;
    expect(await ck.checkpoint('page', 'drain')).toBe(head);
    const snap = (await s.store.latestSnapshot('page'))!;
    const replay = await fullReplay(s.store, 'page');
    expect(snap.doc).toEqual(replay.draft);
    const y = new Y.Doc();
    Y.applyUpdate(y, snap.yState!);
    expect(yDocToDraft(y, 'page')).toEqual(replay.draft);
    expect(yDocToDraft(await sessionDoc('page'), 'page')).toEqual(replay.draft);
    expect((await loadDraft(s.store, 'page')).draft).toEqual(replay.draft);
    expect(y.getArray('order').toJSON()).toEqual(replay.draft.order);
  });
});
