// The lineage doc of a room with peers attached is let go while the draft is quiet and rebuilt from
// live on the next step. What must hold: the rebuilt lineage is the lineage (the log rebuilds it
// byte for byte, live gets every committed change), and nothing is released while a step is in
// flight or without live to rebuild from. Against the in-memory log, no database.
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { emptyDraft } from '@weft/core';
import type { Op } from '@weft/core';
import { MemoryLog } from '@weft/store';
import { Lineage, yDocToDraft } from '@weft/ydoc';
import { Room } from '../rooms/room.ts';
import { DraftDoc, structCount } from './draft-doc.ts';

const ann = { id: 'ann', kind: 'human' as const };

function setup(releaseAfterMs: number | null = null): { log: MemoryLog; room: Room; dd: DraftDoc; live: Y.Doc } {
  const log = new MemoryLog();
  log.createDraft('d');
  const room = new Room('d', emptyDraft('d'), 0, 0, { log, now: Date.now, opsPerTurn: 1000, opsPerSecond: 1000, maxBatch: 64, onCommitted: () => {} });
  const dd = DraftDoc.fromLoad(room, { meta: { epoch: 0 } as never, base: null, tail: [] }, { releaseAfterMs });
  room.mirror = dd;
  const live = new Y.Doc();
  dd.attach(live);
  return { log, room, dd, live };
}

async function submit(room: Room, opId: string, ops: Op[]): Promise<void> {
  const out = await room.submit({ opId, bodyHash: opId, ops, actor: ann });
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
}

const section = (id: string, text: string): Op[] => [
  { op: 'add', path: `/sections/${id}`, value: { id, kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Text', props: { text } } } } },
  { op: 'add', path: '/order/-', value: id },
];

/** The lineage as the log rebuilds it on a reload: genesis, then every step's stored bytes. */
function fromLog(log: MemoryLog): Y.Doc {
  const lineage = Lineage.open('d', 0, null);
  lineage.advance(log.steps('d'));
  return lineage.doc;
}

const sv = (doc: Y.Doc): Record<string, number> => Object.fromEntries(Y.decodeStateVector(Y.encodeStateVector(doc)));

describe('DraftDoc: the lineage doc is released while quiet', () => {
  it('[DD1] released with live attached and nothing in flight; the next step rebuilds it and the log still rebuilds the same lineage', async () => {
    const { log, room, dd, live } = setup();
    await submit(room, 'a', section('s1', 'one'));
    const clients = Object.keys(sv(live));
    expect(dd.release()).toBe(true);
    expect(dd.holdsLineage).toBe(false);
    expect(dd.structs()).toBe(structCount(live)); // counted on live, without rebuilding
    expect(dd.holdsLineage).toBe(false);
    await submit(room, 'b', [{ op: 'replace', path: '/sections/s1/components/root/props/text', value: 'two' }]);
    expect(dd.holdsLineage).toBe(true);
    expect(yDocToDraft(dd.doc, 'd')).toEqual(room.draft);
    expect(yDocToDraft(live, 'd')).toEqual(room.draft);
    expect(Object.keys(sv(live))).toEqual(clients); // the server writes on as the same Yjs client
    const reloaded = fromLog(log);
    expect(sv(reloaded)).toEqual(sv(dd.doc));
    expect(yDocToDraft(reloaded, 'd')).toEqual(room.draft);
  });

  it('[DD2] not released while a step is in flight, nor without live to rebuild from', async () => {
    const { log, room, dd } = setup();
    let open!: () => void;
    log.gate = new Promise((r) => { open = r; });
    const pending = submit(room, 'a', section('s1', 'one'));
    expect(room.idle).toBe(false);
    expect(dd.release()).toBe(false);
    open();
    await pending;
    log.gate = null;
    dd.detach(dd.live!);
    expect(dd.release()).toBe(false);
    expect(dd.holdsLineage).toBe(true);
  });

  it('[DD3] bytes the lineage took in without a step (a reverted peer update) survive a release and reach the log with the next step', async () => {
    const { log, room, dd, live } = setup();
    await submit(room, 'a', section('s1', 'one'));
    // A peer writes a key no op describes: tried, reverted, and kept as an unlogged pair.
    const peer = new Y.Doc();
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(live));
    const before = Y.encodeStateVector(peer);
    peer.getMap('meta').set('junk', 'x');
    const update = Y.encodeStateAsUpdate(peer, before);
    const tried = dd.guard.tryUpdate(update);
    expect(tried.ok && tried.unmapped.length).toBe(1);
    dd.unlogged(Y.mergeUpdates([update, dd.guard.revert()]));
    expect(dd.release()).toBe(true);
    // The pair is in neither live nor the log yet: the rebuilt lineage must still have it.
    const rebuilt = dd.doc;
    expect(Y.decodeStateVector(Y.encodeStateVector(rebuilt)).get(peer.clientID)).toBe(1);
    await submit(room, 'b', [{ op: 'replace', path: '/title', value: 'T' }]);
    const reloaded = fromLog(log);
    expect(reloaded.store.pendingStructs).toBeNull();
    expect(sv(reloaded)).toEqual(sv(dd.doc));
    expect(yDocToDraft(reloaded, 'd')).toEqual(room.draft);
    expect(sv(live)).toEqual(sv(dd.doc));
  });

  it('[DD4] the last peer leaving a released lineage parks its state as bytes: a returning peer and the next step both find the room\'s Yjs state', async () => {
    const { log, room, dd, live } = setup();
    await submit(room, 'a', section('s1', 'one'));
    // An unlogged pair (a reverted peer write) waits for the next step: it must survive the parking.
    const peer = new Y.Doc();
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(live));
    const before = Y.encodeStateVector(peer);
    peer.getMap('meta').set('junk', 'x');
    const update = Y.encodeStateAsUpdate(peer, before);
    expect(dd.guard.tryUpdate(update).ok).toBe(true);
    dd.unlogged(Y.mergeUpdates([update, dd.guard.revert()]));
    expect(dd.release()).toBe(true);
    const lineage = sv(live);
    lineage[String(peer.clientID)] = 1;
    live.destroy(); // Hocuspocus destroys the document before afterUnloadDocument
    dd.detach(live);
    expect(dd.holdsLineage).toBe(false); // no rebuild on the way out
    // A peer comes back: its new live doc gets the whole lineage, and the lineage stays released.
    const again = new Y.Doc();
    dd.attach(again);
    expect(dd.holdsLineage).toBe(false);
    expect(sv(again)).toEqual(lineage);
    expect(yDocToDraft(again, 'd')).toEqual(room.draft);
    // Gone again, then a step with nobody attached: rebuilt from the parked bytes; the log agrees.
    again.destroy();
    dd.detach(again);
    await submit(room, 'b', [{ op: 'replace', path: '/title', value: 'T' }]);
    expect(dd.holdsLineage).toBe(true);
    const reloaded = fromLog(log);
    expect(reloaded.store.pendingStructs).toBeNull();
    expect(sv(reloaded)).toEqual(sv(dd.doc));
    expect(yDocToDraft(dd.doc, 'd')).toEqual(room.draft);
    expect(yDocToDraft(reloaded, 'd')).toEqual(room.draft);
  });

  it('[DD6] a retired lineage (replaced by a new epoch or a reload) keeps no release timer', async () => {
    const { room, dd } = setup(30);
    await submit(room, 'a', section('s1', 'one'));
    dd.retire(); // the timer would otherwise keep it, and its old live doc, alive until it fires
    await new Promise((r) => setTimeout(r, 120));
    expect(dd.holdsLineage).toBe(true);
  });

  it('[DD5] with releaseAfterMs the door lets it go by itself once the draft is quiet, and not before', async () => {
    const { room, dd } = setup(50);
    await submit(room, 'a', section('s1', 'one'));
    expect(dd.holdsLineage).toBe(true); // just used
    for (let i = 0; i < 200 && dd.holdsLineage; i++) await new Promise((r) => setTimeout(r, 10));
    expect(dd.holdsLineage).toBe(false);
    await submit(room, 'b', [{ op: 'replace', path: '/title', value: 'T' }]);
    expect(dd.holdsLineage).toBe(true);
    expect(yDocToDraft(dd.doc, 'd')).toEqual(room.draft);
  });
});
