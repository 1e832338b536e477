// Cross-draft group commit on real Postgres: many drafts' batches in one statement, each with its
// own answer; a duplicate opId or a stale version in one draft never fails another; two stores
// (two session processes) committing overlapping drafts in any order never deadlock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { EventStore } from './event-store.ts';
import { step } from './contract.ts';

describe('group commit across drafts (Postgres)', () => {
  let t: TestDatabase;
  let store: EventStore;
  beforeAll(async () => { t = await createTestDatabase({ max: 12 }); store = new EventStore(t.db); });
  afterAll(async () => { await t.drop(); });

  const drafts = async (prefix: string, n: number): Promise<string[]> => {
    const ids = Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
    for (const id of ids) await store.createDraft({ id, title: '', createdBy: 'u' });
    return ids;
  };

  it('[GC1] one tick of 50 drafts is one statement; every draft gets its versions', async () => {
    const ids = await drafts('g1', 50);
    const before = { ...store.commits.stats };
    const out = await Promise.all(ids.map((id) => store.append(id, 0, [step(`${id}-a`), step(`${id}-b`)])));
    expect(out.every((r) => r.ok && r.value.map((s) => s.version).join() === '1,2')).toBe(true);
    expect(store.commits.stats.statements - before.statements).toBe(1);
    expect(store.commits.stats.batches - before.batches).toBe(50);
    for (const id of ids.slice(0, 5)) expect((await store.readSteps(id)).map((s) => s.opId)).toEqual([`${id}-a`, `${id}-b`]);
    expect((await store.getDraft(ids[49]!))?.headVersion).toBe(2);
  });

  it('[GC1b] a batch that renamed its draft leaves the new title on the draft (the list reads it); the others keep theirs', async () => {
    const ids = await drafts('g1b', 3);
    const before = { ...store.commits.stats };
    await Promise.all([
      store.append(ids[0]!, 0, [{ ...step('g1b-a'), title: 'First' }, { ...step('g1b-b'), title: 'Second' }, step('g1b-c')]),
      store.append(ids[1]!, 0, [step('g1b-d')]),
      store.append(ids[2]!, 0, [{ ...step('g1b-e'), title: 'Third' }]),
    ]);
    expect(store.commits.stats.statements - before.statements).toBe(1);
    expect(await Promise.all(ids.map(async (id) => (await store.getDraft(id))?.title))).toEqual(['Second', '', 'Third']);
    await store.append(ids[1]!, 1, [{ ...step('g1b-f'), title: 'Alone' }]); // one draft: the single-draft statement
    expect((await store.getDraft(ids[1]!))?.title).toBe('Alone');
  });

  it('[GC2] a stale version and an unknown draft get their own answers; the others commit', async () => {
    const ids = await drafts('g2', 4);
    await store.append(ids[0]!, 0, [step('g2-first')]);
    const out = await Promise.all([
      store.append(ids[0]!, 0, [step('g2-stale')]),
      store.append('g2-missing', 0, [step('g2-nobody')]),
      store.append(ids[1]!, 0, [step('g2-ok1')]),
      store.append(ids[2]!, 0, [step('g2-ok2')]),
    ]);
    expect(out[0]).toEqual({ ok: false, error: { code: 'VERSION_CONFLICT', currentVersion: 1 } });
    expect(out[1]).toEqual({ ok: false, error: { code: 'NOT_FOUND', draftId: 'g2-missing' } });
    expect(out[2]!.ok && out[3]!.ok).toBe(true);
    expect((await store.readSteps(ids[0]!)).map((s) => s.opId)).toEqual(['g2-first']);
  });

  it('[GC3] an old opId in one draft: that draft is told which, the rest of the statement still commits', async () => {
    const ids = await drafts('g3', 3);
    await store.append(ids[0]!, 0, [step('g3-old')]);
    const out = await Promise.all([
      store.append(ids[0]!, 1, [step('g3-new'), step('g3-old')]),
      store.append(ids[1]!, 0, [step('g3-x')]),
      store.append(ids[2]!, 0, [step('g3-y')]),
    ]);
    expect(out[0]).toMatchObject({ ok: false, error: { code: 'IDEMPOTENCY_CONFLICT', opId: 'g3-old' } });
    expect(out[1]!.ok && out[2]!.ok).toBe(true);
    expect((await store.readSteps(ids[0]!)).map((s) => s.opId)).toEqual(['g3-old']);
    expect(store.commits.stats.fallbacks).toBeGreaterThan(0);
  });

  it('[GC4] two stores committing the same 20 drafts in opposite orders: no deadlock, gapless logs', async () => {
    const ids = await drafts('g4', 20);
    const other = new EventStore(t.db);
    const writer = async (s: EventStore, order: string[], tag: string): Promise<void> => {
      for (let round = 0; round < 10; round++) {
        await Promise.all(order.map(async (id) => {
          for (;;) {
            const head = (await s.getDraft(id))!.headVersion;
            const r = await s.append(id, head, [step(`${tag}-${id}-${round}`)]);
            if (r.ok) return;
            if (r.error.code !== 'VERSION_CONFLICT') throw new Error(JSON.stringify(r.error));
          }
        }));
      }
    };
    await Promise.all([writer(store, ids, 'p'), writer(other, [...ids].reverse(), 'q')]);
    for (const id of ids) {
      const all = await store.readSteps(id);
      expect(all.map((s) => s.version)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    }
  }, 60_000);

  it('[GC5] commits while the relay moves cursors and the node renews leases, over the same drafts in reverse order: no deadlock, no fallback', async () => {
    const ids = await drafts('g5', 40);
    const fences = new Map<string, { node: string; epoch: number }>();
    for (const id of ids) fences.set(id, { node: 'n1', epoch: (await store.acquireLease(id, 'n1', 'http://n1', 60_000))!.epoch });
    const before = store.commits.stats.fallbacks;
    const reversed = [...ids].reverse();
    for (let round = 0; round < 15; round++) {
      const [commits] = await Promise.all([
        Promise.all(ids.map((id) => store.append(id, round, [step(`g5-${id}-${round}`)], fences.get(id)))),
        store.markPublished(reversed.map((draftId) => ({ draftId, version: round }))),
        store.renewLeases('n1', reversed, 60_000),
      ]);
      expect(commits.every((r) => r.ok)).toBe(true);
    }
    expect(store.commits.stats.fallbacks).toBe(before);
    await store.markPublished(ids.map((draftId) => ({ draftId, version: 15 })));
    expect((await store.unpublished(10_000)).filter((d) => d.draftId.startsWith('g5-'))).toEqual([]);
  }, 60_000);
});
