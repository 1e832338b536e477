// The store contract (CONVENTIONS.md §13): the same suite on real Postgres and on PGlite.
// Each test uses its own draft ids, so one database per file is enough.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Op } from '@weft/core';
import type { DB } from './schema.ts';
import type { NewStep } from './types.ts';
import { EventStore } from './event-store.ts';
import { TokenStore } from './token-store.ts';
import { SessionStore } from './session-store.ts';
import { loadDraft } from './load-draft.ts';
import { ActivityStore } from './activity-store.ts';

export interface StoreHandle { db: Kysely<DB>; close(): Promise<void> }

let n = 0;
const uid = (p: string): string => `${p}-${Date.now().toString(36)}-${(n++).toString(36)}`;

export function step(opId: string, extra: Partial<NewStep> = {}): NewStep {
  const ops: Op[] = [{ op: 'replace', path: '/title', value: `t-${opId}` }];
  return {
    opId, bodyHash: `h-${opId}`, actor: 'u1', actorKind: 'human', ops,
    inverse: [{ op: 'replace', path: '/title', value: '' }], notes: [], refused: [], ...extra,
  };
}

export function runStoreContract(name: string, factory: () => Promise<StoreHandle>): void {
  describe(`store contract: ${name}`, () => {
    let h: StoreHandle;
    let store: EventStore;
    beforeAll(async () => { h = await factory(); store = new EventStore(h.db); });
    afterAll(async () => { await h?.close(); });

    const newDraft = async (): Promise<string> => {
      const id = uid('d');
      const r = await store.createDraft({ id, title: 'T', createdBy: 'u1' });
      expect(r.ok).toBe(true);
      return id;
    };

    it('creates a draft once; a second create reports exists', async () => {
      const id = uid('d');
      const r = await store.createDraft({ id, title: 'Hello', createdBy: 'u1' });
      expect(r).toMatchObject({ ok: true, value: { id, title: 'Hello', createdBy: 'u1', headVersion: 0, epoch: 0 } });
      expect(await store.createDraft({ id, title: 'Other', createdBy: 'u2' })).toEqual({ ok: false, error: 'exists' });
      const got = await store.getDraft(id);
      expect(got?.title).toBe('Hello');
      expect(got?.createdAt).toBeInstanceOf(Date);
      expect(await store.getDraft(uid('missing'))).toBeNull();
      expect((await store.listDrafts()).map((d) => d.id)).toContain(id);
    });

    it('answers many drafts\' head versions in one lookup; unknown ids are absent', async () => {
      const a = uid('heads-a');
      const b = uid('heads-b');
      await store.createDraft({ id: a, title: '', createdBy: 'u' });
      await store.createDraft({ id: b, title: '', createdBy: 'u' });
      await store.append(a, 0, [step('h1'), step('h2')]);
      const heads = await store.headVersions([a, b, uid('missing')]);
      expect(Object.fromEntries(heads)).toEqual({ [a]: 2, [b]: 0 });
      expect(await store.headVersions([])).toEqual(new Map());
    });

    it('appends steps with gapless versions and stores them exactly', async () => {
      const id = await newDraft();
      const y = new Uint8Array([1, 2, 3, 250]);
      const notes = [{ rule: 'snapped_name' as const, path: '/sections/s1', message: 'snapped', index: 0 }];
      const a = await store.append(id, 0, [step('a', { yUpdate: y, notes, sessionId: 's1', turnId: 't1' }), step('b')]);
      expect(a.ok).toBe(true);
      if (!a.ok) return;
      expect(a.value.map((s) => s.version)).toEqual([1, 2]);
      const b = await store.append(id, 2, [step('c')]);
      expect(b.ok && b.value[0]?.version).toBe(3);
      expect((await store.getDraft(id))?.headVersion).toBe(3);
      const all = await store.readSteps(id);
      expect(all.map((s) => [s.version, s.opId])).toEqual([[1, 'a'], [2, 'b'], [3, 'c']]);
      // what append returned is exactly what a reader gets back
      expect([...a.value, ...(b.ok ? b.value : [])]).toEqual(all);
      const first = all[0]!;
      expect(first).toMatchObject({ draftId: id, actor: 'u1', actorKind: 'human', sessionId: 's1', turnId: 't1', notes, refused: [] });
      expect(first.ops).toEqual(step('a').ops);
      expect(first.inverse).toEqual(step('a').inverse);
      expect(first.yUpdate).toEqual(y);
      expect(all[1]!.yUpdate).toBeNull();
      expect(typeof first.position).toBe('number');
      expect(all[1]!.position).toBeGreaterThan(first.position);
    });

    it('refuses a stale or future expected version with the current version, writing nothing', async () => {
      const id = await newDraft();
      await store.append(id, 0, [step('x1')]);
      expect(await store.append(id, 0, [step('x2')])).toEqual({ ok: false, error: { code: 'VERSION_CONFLICT', currentVersion: 1 } });
      expect(await store.append(id, 5, [step('x3')])).toEqual({ ok: false, error: { code: 'VERSION_CONFLICT', currentVersion: 1 } });
      expect((await store.readSteps(id)).map((s) => s.opId)).toEqual(['x1']);
      expect(await store.append(uid('nope'), 0, [step('x4')])).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    });

    it('keeps opIds durable: a reused opId is IDEMPOTENCY_CONFLICT and findByOpId returns the original', async () => {
      const id = await newDraft();
      await store.append(id, 0, [step('op1'), step('op2')]);
      const again = await store.append(id, 2, [step('op3'), step('op1', { bodyHash: 'other' })]);
      expect(again).toEqual({ ok: false, error: { code: 'IDEMPOTENCY_CONFLICT', opId: 'op1' } });
      // the whole batch rolled back, the head did not move
      expect((await store.getDraft(id))?.headVersion).toBe(2);
      expect(await store.findByOpId(id, 'op3')).toBeNull();
      const orig = await store.findByOpId(id, 'op1');
      expect(orig).toMatchObject({ version: 1, bodyHash: 'h-op1' });
      expect(await store.append(id, 2, [step('dup'), step('dup')])).toEqual({ ok: false, error: { code: 'IDEMPOTENCY_CONFLICT', opId: 'dup' } });
      // the same opId on another draft is fine
      const other = await newDraft();
      expect((await store.append(other, 0, [step('op1')])).ok).toBe(true);
    });

    it('an empty append writes nothing and still checks the version', async () => {
      const id = await newDraft();
      expect(await store.append(id, 0, [])).toEqual({ ok: true, value: [] });
      expect(await store.append(id, 1, [])).toEqual({ ok: false, error: { code: 'VERSION_CONFLICT', currentVersion: 0 } });
    });

    it('pages through steps with after/limit/upTo and reads ops as text', async () => {
      const id = await newDraft();
      for (let v = 0; v < 10; v++) await store.append(id, v, [step(`p${v}`)]);
      expect((await store.readSteps(id, { after: 3, limit: 4 })).map((s) => s.version)).toEqual([4, 5, 6, 7]);
      expect((await store.readSteps(id, { after: 8 })).map((s) => s.version)).toEqual([9, 10]);
      expect((await store.readSteps(id, { upTo: 2 })).map((s) => s.version)).toEqual([1, 2]);
      expect(await store.readSteps(id, { after: 10 })).toEqual([]);
      const page = await store.readOpsPage(id, 7, 100, 9);
      expect(page).toMatchObject({ first: 8, last: 9, count: 2 });
      expect(JSON.parse(page!.text)).toEqual([step('p7').ops, step('p8').ops]);
      expect(await store.readOpsPage(id, 3, 2)).toMatchObject({ first: 4, last: 5, count: 2 });
      expect(await store.readOpsPage(id, 10, 100)).toBeNull();
    });

    it('reads the log after a version as pages in order, up to a bound; a reader that stops early leaves the store answering', async () => {
      const id = await newDraft();
      await store.append(id, 0, Array.from({ length: 25 }, (_, i) => step(`r${i}`)));
      const pages = [];
      for await (const p of store.readOpsPages(id, 3, { pageSize: 5, upTo: 22 })) pages.push(p);
      expect(pages.map((p) => [p.first, p.last, p.count, p.more])).toEqual([[4, 8, 5, true], [9, 13, 5, true], [14, 18, 5, true], [19, 22, 4, false]]);
      expect(JSON.parse(pages[3]!.text)).toEqual([18, 19, 20, 21].map((i) => step(`r${i}`).ops));
      for await (const p of store.readOpsPages(id, 0, { pageSize: 1 })) { expect(p.first).toBe(1); break; }
      expect((await store.getDraft(id))?.headVersion).toBe(25);
      const after: unknown[] = [];
      for await (const p of store.readOpsPages(id, 25)) after.push(p);
      expect(after).toEqual([]);
    });

    it('writes snapshots idempotently and finds the latest at or below a version', async () => {
      const id = await newDraft();
      const doc = { id, title: 'x', order: ['s1'], sections: {} };
      expect(await store.writeSnapshot({ draftId: id, version: 5, epoch: 0, doc, yState: new Uint8Array([9]), reason: 'quiet' })).toBe(true);
      expect(await store.writeSnapshot({ draftId: id, version: 5, epoch: 0, doc: { other: true }, yState: null, reason: 'dup' })).toBe(false);
      expect(await store.writeSnapshot({ draftId: id, version: 9, epoch: 1, doc: { v: 9 }, yState: null, reason: 'turn' })).toBe(true);
      expect(await store.latestSnapshot(id)).toMatchObject({ version: 9, epoch: 1, doc: { v: 9 }, yState: null, reason: 'turn' });
      const at7 = await store.latestSnapshot(id, 7);
      expect(at7).toMatchObject({ version: 5, doc, reason: 'quiet' });
      expect(at7?.yState).toEqual(new Uint8Array([9]));
      expect(await store.latestSnapshot(id, 4)).toBeNull();
      expect((await store.listSnapshots(id)).map((s) => s.version)).toEqual([5, 9]);
      const none = await newDraft();
      expect(Object.fromEntries(await store.snapshotVersions([id, none]))).toEqual({ [id]: 9 });
    });

    it('batches for the checkpointer: where many drafts stand, their latest snapshots and tails, their snapshots written, one statement each', async () => {
      const [a, b, none] = [await newDraft(), await newDraft(), await newDraft()];
      const doc = (v: number) => ({ v });
      await store.append(a, 0, Array.from({ length: 6 }, (_, i) => step(`ba${i}`)));
      await store.append(b, 0, Array.from({ length: 3 }, (_, i) => step(`bb${i}`)));
      await store.writeSnapshot({ draftId: a, version: 2, epoch: 0, doc: doc(2), yState: new Uint8Array([2]), reason: 'quiet' });
      await store.writeSnapshot({ draftId: a, version: 4, epoch: 0, doc: doc(4), yState: null, reason: 'ops' });
      expect(Object.fromEntries(await store.snapshotTargets([a, b, none, 'no-such-draft', '__proto__']))).toEqual({
        [a]: { headVersion: 6, epoch: 0, snapshotVersion: 4 }, [b]: { headVersion: 3, epoch: 0, snapshotVersion: 0 }, [none]: { headVersion: 0, epoch: 0, snapshotVersion: 0 },
      });
      const latest = await store.latestSnapshots([a, b, 'no-such-draft']);
      expect([...latest.keys()]).toEqual([a]);
      expect(latest.get(a)).toMatchObject({ version: 4, doc: doc(4), yState: null, reason: 'ops' });
      const tails = await store.readStepRanges([{ draftId: a, after: 4, upTo: 6 }, { draftId: b, after: 0, upTo: 2 }, { draftId: none, after: 0, upTo: 5 }]);
      expect([...tails].map(([id, steps]) => [id, steps.map((s) => [s.version, s.opId])])).toEqual(
        [[a, [[5, 'ba4'], [6, 'ba5']]], [b, [[1, 'bb0'], [2, 'bb1']]]].sort((x, y) => String(x[0]) < String(y[0]) ? -1 : 1));
      expect(await store.readStepRanges([])).toEqual(new Map());
      const written = await store.writeSnapshots([
        { draftId: a, version: 4, epoch: 0, doc: { other: true }, yState: null, reason: 'ops' }, // already there: kept as it was
        { draftId: a, version: 6, epoch: 0, doc: doc(6), yState: new Uint8Array([6]), reason: 'ops' },
        { draftId: b, version: 3, epoch: 0, doc: doc(3), yState: null, reason: 'quiet' },
      ]);
      expect([...written].sort()).toEqual([`${a}@6`, `${b}@3`].sort());
      expect(await store.latestSnapshot(a, 4)).toMatchObject({ version: 4, doc: doc(4) });
      expect((await store.latestSnapshot(a))?.yState).toEqual(new Uint8Array([6]));
      expect(Object.fromEntries(await store.snapshotVersions([a, b]))).toEqual({ [a]: 6, [b]: 3 });
    });

    it('starts a Yjs epoch once: the draft\'s epoch moves and the snapshot at that version carries the new base', async () => {
      const id = await newDraft();
      const doc = { id, title: 'x', order: [], sections: {} };
      await store.append(id, 0, [step('e1'), step('e2'), step('e3')]);
      await store.writeSnapshot({ draftId: id, version: 3, epoch: 0, doc, yState: new Uint8Array([1]), reason: 'quiet' });
      expect(await store.startEpoch(0, { draftId: id, version: 3, doc, yState: new Uint8Array([2]) })).toBe(true);
      expect((await store.getDraft(id))?.epoch).toBe(1);
      expect(await store.latestYSnapshot(id, 1, 3)).toMatchObject({ version: 3, epoch: 1, reason: 'epoch', yState: new Uint8Array([2]) });
      expect(await store.latestYSnapshot(id, 0, 3)).toBeNull();
      // A second server racing from the same epoch loses, and changes nothing.
      expect(await store.startEpoch(0, { draftId: id, version: 3, doc, yState: new Uint8Array([3]) })).toBe(false);
      expect((await store.latestYSnapshot(id, 1, 3))?.yState).toEqual(new Uint8Array([2]));
    });

    it('an epoch start is refused when the head moved past its base, or under a lease this node lost', async () => {
      const id = await newDraft();
      const doc = { id, title: 'x', order: [], sections: {} };
      await store.append(id, 0, [step('m1'), step('m2')]);
      // Another node appended v2 with epoch-0 bytes after this one took its base at v1.
      expect(await store.startEpoch(0, { draftId: id, version: 1, doc, yState: new Uint8Array([1]) })).toBe(false);
      const mine = (await store.acquireLease(id, 'node-x', 'http://x', 60_000))!;
      await store.releaseLeases('node-x');
      const theirs = (await store.acquireLease(id, 'node-y', 'http://y', 60_000))!;
      expect(theirs.epoch).toBeGreaterThan(mine.epoch);
      expect(await store.startEpoch(0, { draftId: id, version: 2, doc, yState: new Uint8Array([1]) }, { node: 'node-x', epoch: mine.epoch })).toBe(false);
      expect((await store.getDraft(id))?.epoch).toBe(0);
      expect(await store.startEpoch(0, { draftId: id, version: 2, doc, yState: new Uint8Array([1]) }, { node: 'node-y', epoch: theirs.epoch })).toBe(true);
    });

    it('leases: nodes racing for a fresh draft all learn the one owner, with its URL', async () => {
      for (let i = 0; i < 20; i++) {
        const id = await newDraft();
        const got = await Promise.all(['r1', 'r2', 'r3'].map((n) => store.acquireLease(id, n, `http://${n}`, 60_000)));
        expect(new Set(got.map((g) => g!.node)).size).toBe(1);
        for (const g of got) expect(g!.url).toBe(`http://${g!.node}`);
      }
    });

    it('leases: one owner at a time, renewals keep the epoch, expiry or release lets another node take it with the next epoch', async () => {
      const id = await newDraft();
      expect(await store.acquireLease(uid('none'), 'n1', 'http://n1', 1000)).toBeNull();
      const a = (await store.acquireLease(id, 'n1', 'http://n1', 60_000))!;
      expect(a).toMatchObject({ node: 'n1', url: 'http://n1' });
      expect((await store.acquireLease(id, 'n1', 'http://n1', 60_000))!.epoch).toBe(a.epoch);
      expect(await store.acquireLease(id, 'n2', 'http://n2', 60_000)).toMatchObject({ node: 'n1', url: 'http://n1', epoch: a.epoch });
      expect(await store.readLease(id)).toMatchObject({ node: 'n1', url: 'http://n1', epoch: a.epoch });
      expect(await store.readLease(uid('none'))).toBeNull();
      expect(await store.renewLeases('n1', [id, uid('other')], 60_000)).toEqual(new Map([[id, a.epoch]]));
      expect(await store.ownedCount('n1')).toBeGreaterThanOrEqual(1);
      expect(await store.releaseLeases('n1')).toBeGreaterThanOrEqual(1);
      expect((await store.renewLeases('n1', [id], 60_000)).size).toBe(0);
      expect(await store.readLease(id)).toMatchObject({ node: null, url: null, epoch: a.epoch });
      const b = (await store.acquireLease(id, 'n2', 'http://n2', 60_000))!;
      expect(b).toMatchObject({ node: 'n2', epoch: a.epoch + 1 });
    });

    it('counts a turn\'s ops from the log', async () => {
      const id = await newDraft();
      const two: Op[] = [{ op: 'add', path: '/x', value: 1 }, { op: 'remove', path: '/x' }];
      await store.append(id, 0, [step('t1', { turnId: 'turn-1', ops: two }), step('t2', { turnId: 'turn-1' }), step('t3', { turnId: 'turn-2' })]);
      expect(await store.turnOpCount(id, 'turn-1')).toBe(3);
      expect(await store.turnOpCount(id, 'turn-none')).toBe(0);
    });

    it('loads a room in one query: head, the newest snapshot of the epoch with a Yjs state, and the tail after it', async () => {
      const id = await newDraft();
      expect(await store.loadRoom(uid('none'))).toBeNull();
      const empty = await store.loadRoom(id);
      expect(empty).toMatchObject({ meta: { id, headVersion: 0, epoch: 0 }, base: null, tail: [] });
      const y = new Uint8Array([9, 8, 7]);
      await store.append(id, 0, [step('l1', { yUpdate: y }), step('l2'), step('l3'), step('l4')]);
      const all = await store.loadRoom(id);
      expect(all?.base).toBeNull();
      expect(all?.tail.map((s) => s.version)).toEqual([1, 2, 3, 4]);
      expect(all?.tail[0]).toEqual({ version: 1, ops: step('l1').ops, yUpdate: y });
      expect(all?.tail[1]?.yUpdate).toBeNull();
      // A snapshot without a Yjs state is not a lineage base; one of another epoch neither.
      await store.writeSnapshot({ draftId: id, version: 3, epoch: 0, doc: { v: 3 }, yState: null, reason: 'quiet' });
      await store.writeSnapshot({ draftId: id, version: 1, epoch: 0, doc: { v: 1 }, yState: new Uint8Array([1]), reason: 'quiet' });
      await store.writeSnapshot({ draftId: id, version: 2, epoch: 5, doc: { v: 2 }, yState: new Uint8Array([2]), reason: 'quiet' });
      const later = await store.loadRoom(id);
      expect(later?.base).toEqual({ version: 1, doc: { v: 1 }, yState: new Uint8Array([1]) });
      expect(later?.tail.map((s) => s.version)).toEqual([2, 3, 4]);
    });

    it('stores step kind and undoOf (default do / [])', async () => {
      const id = await newDraft();
      await store.append(id, 0, [step('k1'), step('k2', { kind: 'undo', undoOf: [1] }), step('k3', { kind: 'redo', undoOf: [2] })]);
      const all = await store.readSteps(id);
      expect(all.map((s) => [s.kind, s.undoOf])).toEqual([['do', []], ['undo', [1]], ['redo', [2]]]);
    });

    it('loadDraft folds the latest snapshot at or below a version plus the log tail', async () => {
      const id = uid('ld');
      await store.createDraft({ id, title: '', createdBy: 'u' });
      const set = (v: string): Op[] => [{ op: 'replace', path: '/title', value: v }];
      await store.append(id, 0, [step('l1', { ops: set('one') }), step('l2', { ops: set('two') })]);
      await store.writeSnapshot({ draftId: id, version: 2, epoch: 0, doc: { id, title: 'two', order: [], sections: {} }, yState: null, reason: 'test' });
      await store.append(id, 2, [step('l3', { ops: set('three') })]);
      expect(await loadDraft(store, id)).toEqual({ draft: { id, title: 'three', order: [], sections: {} }, version: 3, snapshotVersion: 2 });
      expect(await loadDraft(store, id, 1)).toEqual({ draft: { id, title: 'one', order: [], sections: {} }, version: 1, snapshotVersion: 0 });
      await store.append(id, 3, [step('bad', { ops: [{ op: 'remove', path: '/nope' }] })]);
      await expect(loadDraft(store, id)).rejects.toThrow(/v4 does not replay/);
    });

    it('loadDraft over pages sized by their text: small and large steps, any bound, the same draft as folding every step', async () => {
      const id = uid('ld-sized');
      await store.createDraft({ id, title: '', createdBy: 'u' });
      // 3,000 steps: runs of ~60-byte steps and of ~3 KB steps, so the page size changes on the way.
      const value = (i: number): string => (Math.floor(i / 700) % 2 === 1 ? `big-${i}-`.padEnd(3000, 'x') : `t${i}`);
      const steps = Array.from({ length: 3000 }, (_, i) => step(`z${i}`, { ops: [{ op: 'replace', path: '/title', value: value(i) }] }));
      for (let v = 0; v < steps.length; v += 500) expect((await store.append(id, v, steps.slice(v, v + 500))).ok).toBe(true);
      for (const upTo of [undefined, 1, 999, 1000, 1001, 1777, 2999]) {
        const v = upTo ?? 3000;
        expect(await loadDraft(store, id, upTo)).toEqual({ draft: { id, title: value(v - 1), order: [], sections: {} }, version: v, snapshotVersion: 0 });
      }
    });

    it('loadDraft refuses a log with a hole instead of folding around it', async () => {
      const id = uid('gap');
      await store.createDraft({ id, title: '', createdBy: 'u' });
      const set = (v: string): Op[] => [{ op: 'replace', path: '/title', value: v }];
      await store.append(id, 0, [step('g1', { ops: set('one') }), step('g2', { ops: set('two') }), step('g3', { ops: set('three') })]);
      // Only damage does this (versions are gapless by construction): a row lost under the store.
      await h.db.deleteFrom('events').where('draft_id', '=', id).where('version', '=', 2).execute();
      await expect(loadDraft(store, id)).rejects.toThrow(/gap after v1 \(next is v3\)/);
      for (const pageSize of [1, 2]) await expect(loadDraft(store, id, undefined, { pageSize })).rejects.toThrow(/gap after v1 \(next is v3\)/);
    });

    it('a hole at the end of a page, or a whole page missing, is refused too, never taken for the end of the log', async () => {
      const id = uid('gap2');
      await store.createDraft({ id, title: '', createdBy: 'u' });
      await store.append(id, 0, Array.from({ length: 9 }, (_, i) => step(`h${i}`, { ops: [{ op: 'replace', path: '/title', value: `t${i}` }] })));
      await h.db.deleteFrom('events').where('draft_id', '=', id).where('version', 'in', [3, 4, 5]).execute();
      for (const pageSize of [1, 2, 3, 4, 5, 100]) await expect(loadDraft(store, id, undefined, { pageSize })).rejects.toThrow(/gap after v2 \(next is v6\)/);
      expect(await loadDraft(store, id, 2, { pageSize: 2 })).toMatchObject({ version: 2, draft: { title: 't1' } });
    });

    it('renders StepViews as NDJSON pages: the same lines as one per row, in order, up to the bound; a hole throws', async () => {
      const id = uid('views');
      await store.createDraft({ id, title: '', createdBy: 'u' });
      await store.append(id, 0, Array.from({ length: 7 }, (_, i) => step(`v${i}`, { turnId: 't', notes: i === 2 ? [{ kind: 'repair', path: '/title', message: 'é ✓ "quoted"' }] as never : [] })));
      const rows = (await store.readStepViewsText(id, 0, 100, 6)).map((r) => r.json);
      for (const size of [1, 2, 3, 10]) {
        const lines: string[] = [];
        for (let after = 0, page = await store.readStepViewsPage(id, 0, size, 6); page; page = await store.readStepViewsPage(id, after, size, 6)) {
          expect(page).toMatchObject({ first: after + 1, count: page.last - after });
          expect(page.ndjson.endsWith('\n')).toBe(true);
          lines.push(...page.ndjson.slice(0, -1).split('\n'));
          after = page.last;
        }
        expect(lines).toEqual(rows); // v1..v6: the bound holds, v7 is left out
      }
      expect(JSON.parse(rows[2]!)).toMatchObject({ version: 3, opId: 'v2', turnId: 't', notes: [{ message: 'é ✓ "quoted"' }] });
      expect(await store.readStepViewsPage(id, 7, 10, 7)).toBeNull();
      await h.db.deleteFrom('events').where('draft_id', '=', id).where('version', '=', 4).execute();
      await expect(store.readStepViewsPage(id, 2, 10, 7)).rejects.toThrow(/gap between v2 and v7/);
      await expect(store.readStepViewsPage(id, 3, 10, 7)).rejects.toThrow(/gap/);
      expect(await store.readStepViewsPage(id, 0, 3, 7)).toMatchObject({ first: 1, last: 3 });
      await expect(store.readStepViewsPage(id, 1, 3, 7)).rejects.toThrow(/gap between v1 and v4/); // the hole is the page's last version
    });

    // A log longer than one page is folded in the replay worker, page by page (pageSize 2 here).
    it('loadDraft folds a log of many pages off the main thread to the same draft, and refuses damage there too', async () => {
      const id = uid('pages');
      await store.createDraft({ id, title: '', createdBy: 'u' });
      const steps = Array.from({ length: 9 }, (_, i) => step(`pg${i}`, { ops: i === 0 ? [{ op: 'add', path: '/order/-', value: 'a' }] : [{ op: 'replace', path: '/title', value: `t${i}` }, { op: 'add', path: `/order/${i % 2}`, value: `s${i}` }] }));
      await store.append(id, 0, steps);
      const inline = await loadDraft(store, id);
      expect(inline.version).toBe(9);
      expect(inline.draft.title).toBe('t8');
      expect(inline.draft.order).toHaveLength(9);
      for (const pageSize of [1, 2, 3, 9]) expect(await loadDraft(store, id, undefined, { pageSize })).toEqual(inline);
      expect(await loadDraft(store, id, 5, { pageSize: 2 })).toEqual(await loadDraft(store, id, 5));
      await store.writeSnapshot({ draftId: id, version: 4, epoch: 0, doc: (await loadDraft(store, id, 4)).draft as never, yState: null, reason: 'test' });
      expect(await loadDraft(store, id, undefined, { pageSize: 2 })).toEqual({ ...inline, snapshotVersion: 4 });
      await store.append(id, 9, [step('bad2', { ops: [{ op: 'remove', path: '/nope' }] }), step('after', { ops: [{ op: 'replace', path: '/title', value: 'x' }] })]);
      await expect(loadDraft(store, id, undefined, { pageSize: 2 })).rejects.toThrow(/v10 does not replay: op 0/);
    });

    it('mints tokens storing only a hash; verify rejects revoked and expired ones', async () => {
      const tokens = new TokenStore(h.db);
      const { token, id } = await tokens.mint({ actorId: 'agent-1', actorKind: 'agent', name: 'bot', scopes: { '*': ['read'], d1: ['read', 'write'] } });
      expect(token).toMatch(/^wft_[A-Za-z0-9_-]{43}$/);
      expect(id).not.toContain(token.slice(4));
      expect(await tokens.verify(token)).toMatchObject({ id, actorId: 'agent-1', actorKind: 'agent', scopes: { '*': ['read'], d1: ['read', 'write'] } });
      expect(await tokens.verify(`${token}x`)).toBeNull();
      expect(await tokens.verify('nope')).toBeNull();
      expect(await tokens.revoke(id)).toBe(true);
      expect(await tokens.verify(token)).toBeNull();
      expect(await tokens.revoke(id)).toBe(false);
      const expired = await tokens.mint({ actorId: 'u', actorKind: 'human', name: 'old', scopes: {}, expiresAt: new Date(Date.now() - 60_000) });
      expect(await tokens.verify(expired.token)).toBeNull();
      const future = await tokens.mint({ actorId: 'u', actorKind: 'human', name: 'new', scopes: {}, expiresAt: new Date(Date.now() + 3_600_000) });
      expect(await tokens.verify(future.token)).toMatchObject({ actorId: 'u' });
      // Many at once (the live doors' re-check): only the live ones answer, keyed by token.
      const many = await tokens.verifyMany([token, expired.token, future.token, future.token, 'nope', `${future.token}x`]);
      expect([...many.keys()]).toEqual([future.token]);
      expect(many.get(future.token)).toMatchObject({ id: future.id, actorId: 'u' });
      expect((await tokens.verifyMany([])).size).toBe(0);
    });

    it('opens, touches and closes sessions and turns', async () => {
      const id = await newDraft();
      const sessions = new SessionStore(h.db);
      const sid = uid('s');
      const s = await sessions.openSession({ id: sid, draftId: id, actorId: 'u1' });
      expect(s).toMatchObject({ id: sid, draftId: id, closedAt: null });
      expect(await sessions.touchSession(sid)).toBe(true);
      expect((await sessions.openSessions(id)).map((x) => x.id)).toEqual([sid]);
      const tid = uid('t');
      expect(await sessions.openTurn({ id: tid, draftId: id, sessionId: sid, actorId: 'u1' })).toMatchObject({ opCount: 0, finishedAt: null });
      expect(await sessions.finishTurn(tid, { opCount: 4, summary: { sections: 1 } })).toBe(true);
      expect(await sessions.finishTurn(tid, { opCount: 5, summary: null })).toBe(false);
      expect(await sessions.getTurn(tid)).toMatchObject({ opCount: 4, summary: { sections: 1 } });
      expect(await sessions.closeSession(sid)).toBe(true);
      expect(await sessions.touchSession(sid)).toBe(false);
      expect(await sessions.openSessions(id)).toEqual([]);
      const idle = uid('s');
      await sessions.openSession({ id: idle, draftId: id, actorId: 'u2' });
      expect(await sessions.closeIdleSessions(3_600_000)).not.toContain(idle);
      await new Promise((r) => setTimeout(r, 20));
      expect(await sessions.closeIdleSessions(1)).toContain(idle);
    });

    it('keeps agent runs with their transcripts, newest first; ends a run once; deletes them with the draft', async () => {
      const id = await newDraft();
      const runs = store.runs;
      const a = await runs.create({ draftId: id, runId: 'r1', actor: 'u1', brief: 'A bakery', scope: { sectionId: 'hero', componentId: 'title' }, model: 'm' });
      expect(a).toMatchObject({ runId: 'r1', draftId: id, status: 'running', scope: { sectionId: 'hero', componentId: 'title' }, cancelRequested: false, finishedAt: null });
      expect(await runs.create({ draftId: id, runId: 'r1', actor: 'u2', brief: 'again', scope: null, model: null })).toBeNull();
      const ev = (type: string, extra: Record<string, unknown> = {}) => ({ type, ...extra }) as never;
      await runs.append(id, 'r1', [{ seq: 1, event: ev('RUN_STARTED', { threadId: id, runId: 'r1' }) }, { seq: 2, event: ev('TEXT_MESSAGE_START', { messageId: 'm', role: 'assistant' }) }]);
      expect(await runs.nextSeq(id, 'r1')).toBe(3);
      await runs.append(id, 'r1', [{ seq: 3, event: ev('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'Hello 🍞' }) }]);
      await expect(runs.append(id, 'r1', [{ seq: 3, event: ev('TEXT_MESSAGE_END', { messageId: 'm' }) }])).rejects.toThrow();
      expect((await runs.events(id, 'r1')).map((e: { type: string }) => e.type)).toEqual(['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT']);
      expect((await runs.running()).map((r) => r.runId)).toContain('r1');
      expect(await runs.requestCancel(id, 'r1')).toBe(true);
      expect(await runs.finish(id, 'r1', { status: 'cancelled', result: { steps: 1 } })).toBe(true);
      expect(await runs.finish(id, 'r1', { status: 'failed', error: { code: 'X', message: 'late' } })).toBe(false);
      expect(await runs.requestCancel(id, 'r1')).toBe(false);
      await new Promise((r) => setTimeout(r, 5));
      await runs.create({ draftId: id, runId: 'r2', actor: 'u1', brief: 'Second', scope: null, model: null });
      const recent = await runs.recent(id, 10);
      expect(recent.map((r) => r.runId)).toEqual(['r2', 'r1']);
      expect(recent[1]).toMatchObject({ status: 'cancelled', result: { steps: 1 }, cancelRequested: true, error: null });
      expect(recent[1]!.finishedAt).not.toBeNull();
      expect(recent[1]!.events).toHaveLength(3);
      expect(recent[0]!.events).toEqual([]);
      expect(await runs.get(id, 'nope')).toBeNull();
      expect(await store.deleteDraft(id)).toBe(true);
      expect(await runs.recent(id, 10)).toEqual([]);
      expect(await runs.events(id, 'r1')).toEqual([]);
    });

    it('deletes a draft with its log, snapshots, sessions and turns; a second delete reports false', async () => {
      const id = await newDraft();
      const other = await newDraft();
      expect((await store.append(id, 0, [step(uid('op')), step(uid('op'))])).ok).toBe(true);
      expect((await store.append(other, 0, [step(uid('op'))])).ok).toBe(true);
      await store.writeSnapshot({ draftId: id, version: 2, epoch: 0, doc: { id, title: 't', order: [], sections: {} }, yState: null, reason: 'test' });
      const sessions = new SessionStore(h.db);
      const sid = uid('s');
      await sessions.openSession({ id: sid, draftId: id, actorId: 'u1' });
      await sessions.openTurn({ id: uid('t'), draftId: id, sessionId: sid, actorId: 'u1' });
      const activity = new ActivityStore(h.db);
      expect(await activity.append(id, { kind: 'agent', status: 'done', label: 'built', actor: 'u1', at: 1 })).not.toBeNull();
      expect(await store.deleteDraft(id)).toBe(true);
      expect(await activity.list(id)).toEqual([]);
      expect(await store.getDraft(id)).toBeNull();
      expect(await store.readSteps(id)).toEqual([]);
      expect(await store.listSnapshots(id)).toEqual([]);
      expect(await sessions.getSession(sid)).toBeNull();
      expect(await store.deleteDraft(id)).toBe(false);
      // Another draft is untouched, and the id can be created again from empty.
      expect((await store.readSteps(other)).length).toBe(1);
      expect((await store.createDraft({ id, title: 'Again', createdBy: 'u1' })).ok).toBe(true);
      expect((await store.append(id, 0, [step(uid('op'))])).ok).toBe(true);
    });

    it('activity: appends in order with store ids and keeps only the newest 120 per draft; none for a missing draft', async () => {
      const activity = new ActivityStore(h.db);
      const id = await newDraft();
      const other = await newDraft();
      await activity.append(other, { kind: 'request', status: 'done', label: 'other', actor: 'weft', at: 5 });
      const first = await activity.append(id, { kind: 'validation', status: 'active', label: 'checking', detail: 'props of hero', actor: 'bot', at: 1_700_000_000_123 });
      expect(first).toEqual({ id: expect.stringMatching(/^\d+$/), kind: 'validation', status: 'active', label: 'checking', detail: 'props of hero', actor: 'bot', at: 1_700_000_000_123 });
      for (let i = 1; i <= 130; i++) await activity.append(id, { kind: 'operation', status: 'done', label: `op ${i}`, actor: 'bot', at: i });
      const kept = await activity.list(id);
      expect(kept).toHaveLength(120);
      expect(kept.map((a) => a.label)).toEqual(Array.from({ length: 120 }, (_, i) => `op ${i + 11}`));
      expect(kept.every((a, i) => i === 0 || Number(a.id) > Number(kept[i - 1]!.id))).toBe(true);
      expect((await activity.list(other)).map((a) => a.label)).toEqual(['other']);
      expect(await activity.append(uid('missing'), { kind: 'agent', status: 'done', label: 'x', actor: 'bot', at: 1 })).toBeNull();
    });
  });
}
