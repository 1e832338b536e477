// RELIABILITY.md promise 4: the outbox relay never skips a committed row, even when a transaction
// that inserted earlier (smaller position) commits later. Real Postgres only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { EventStore } from './event-store.ts';
import { GLOBAL_START } from './types.ts';
import type { GlobalCursor } from './types.ts';
import { step } from './contract.ts';

/** A transaction held open until release() (T1 in the tests). */
function holdOpen(t: TestDatabase, body: (tx: Parameters<Parameters<ReturnType<TestDatabase['db']['transaction']>['execute']>[0]>[0]) => Promise<void>) {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  let ready!: () => void;
  const started = new Promise<void>((r) => { ready = r; });
  const done = t.db.transaction().execute(async (tx) => { await body(tx); ready(); await gate; });
  return { started, release: async () => { release(); await done; } };
}

const insertRaw = (draftId: string, version: number, opId: string) => ({
  draft_id: draftId, version, op_id: opId, body_hash: 'h', actor: 'a', actor_kind: 'agent', ops: [], inverse: [],
});

describe('readGlobal (outbox) under in-flight transactions', () => {
  let t: TestDatabase;
  let store: EventStore;
  beforeAll(async () => { t = await createTestDatabase({ max: 30 }); store = new EventStore(t.db); });
  afterAll(async () => { await t.drop(); });

  async function drain(cursor: GlobalCursor, seen: string[]): Promise<GlobalCursor> {
    for (;;) {
      const b = await store.readGlobal(cursor, 7);
      if (b.steps.length === 0) return cursor;
      seen.push(...b.steps.map((s) => s.opId));
      cursor = b.cursor;
    }
  }
  /** The xid horizon is cluster-wide: other test files' transactions can hold it back a moment. */
  async function drainUntil(cursor: GlobalCursor, seen: string[], done: () => boolean): Promise<GlobalCursor> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      cursor = await drain(cursor, seen);
      if (done() || Date.now() > deadline) return cursor;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('does not return a row of a running transaction, and returns it once that commits', async () => {
    for (const d of ['g1', 'g2']) await store.createDraft({ id: d, title: '', createdBy: 'u' });
    const t1 = holdOpen(t, async (tx) => { await tx.insertInto('events').values(insertRaw('g1', 1, 'held')).execute(); });
    await t1.started;
    const others = await Promise.all(Array.from({ length: 20 }, (_, i) => store.append('g2', i, [step(`o${i}`)]).then(async (r) => r)));
    // appends raced; retry losers sequentially so all 20 land
    let head = (await store.getDraft('g2'))!.headVersion;
    for (let i = 0; i < others.length; i++) if (!others[i]!.ok) { const r = await store.append('g2', head, [step(`o${i}`)]); expect(r.ok).toBe(true); head++; }
    const seen: string[] = [];
    let cursor: GlobalCursor;
    try {
      cursor = await drain(GLOBAL_START, seen);
      await new Promise((r) => setTimeout(r, 100));
      cursor = await drain(cursor, seen);
      expect(seen).not.toContain('held');
      // T1 holds the horizon: nothing committed after it is visible yet either.
      expect(seen.filter((x) => x.startsWith('o'))).toEqual([]);
    } finally {
      await t1.release();
    }
    cursor = await drainUntil(cursor, seen, () => seen.length >= 21);
    expect(seen.filter((x) => x === 'held')).toHaveLength(1);
    expect(seen.sort()).toEqual(['held', ...Array.from({ length: 20 }, (_, i) => `o${i}`)].sort());
    expect(await drain(cursor, [])).toEqual(cursor); // nothing read twice
  });

  it('does not skip an earlier position committed after a later one (older xid commits first)', async () => {
    for (const d of ['h1', 'h2']) await store.createDraft({ id: d, title: '', createdBy: 'u' });
    const seen: string[] = [];
    let cursor = await drain(GLOBAL_START, []);
    // T2 takes its xid first, T1 takes a newer xid but inserts first (smaller position).
    let t2Go!: () => void;
    const t2Gate = new Promise<void>((r) => { t2Go = r; });
    let t2HasXid!: () => void;
    const t2Ready = new Promise<void>((r) => { t2HasXid = r; });
    const t2 = t.db.transaction().execute(async (tx) => {
      await sql`SELECT pg_current_xact_id()`.execute(tx);
      t2HasXid();
      await t2Gate;
      await tx.insertInto('events').values(insertRaw('h2', 1, 'late-position')).execute();
    });
    await t2Ready;
    let early = 0;
    const t1 = holdOpen(t, async (tx) => {
      const r = await tx.insertInto('events').values(insertRaw('h1', 1, 'early-position')).returning('position').executeTakeFirstOrThrow();
      early = Number(r.position);
    });
    try {
      await t1.started;
      t2Go();
      await t2;
      const late = await store.findByOpId('h2', 'late-position');
      expect(early).toBeLessThan(late!.position);
      cursor = await drainUntil(cursor, seen, () => seen.length >= 1);
      expect(seen).toEqual(['late-position']); // T2 is below the horizon, T1 is not
    } finally {
      await t1.release();
    }
    cursor = await drainUntil(cursor, seen, () => seen.length >= 2);
    expect(seen).toEqual(['late-position', 'early-position']);
  });
});
