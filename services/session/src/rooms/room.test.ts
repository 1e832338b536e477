// The room against the in-memory log: no database. Ordering, group commit, idempotency (in flight,
// recent, old), lost commit answers, budgets — what every door relies on.
import { describe, expect, it } from 'vitest';
import { emptyDraft } from '@weft/core';
import type { Op } from '@weft/core';
import { MemoryLog } from '@weft/store';
import { fingerprint, Room } from './room.ts';
import type { RoomOptions } from './room.ts';
import type { CommittedStep, SubmitOutcome, SubmitRequest } from './types.ts';

const human = { id: 'ann', kind: 'human' as const };
const title = (v: string): Op[] => [{ op: 'replace', path: '/title', value: v }];
const req = (opId: string, ops: Op[] = title(opId), extra: Partial<SubmitRequest> = {}): SubmitRequest => ({
  opId, bodyHash: JSON.stringify(ops), ops, actor: human, ...extra,
});

interface Harness { log: MemoryLog; room: Room; committed: CommittedStep[]; broken: Room[]; clock: { t: number }; open(): Room }

function harness(o: Partial<RoomOptions> = {}, log = new MemoryLog()): Harness {
  log.createDraft('d');
  const committed: CommittedStep[] = [];
  const broken: Room[] = [];
  const clock = { t: 1_000_000 };
  let current: Room;
  const open = (): Room => {
    const steps = log.steps('d');
    const draft = emptyDraft('d');
    for (const s of steps) for (const op of s.ops) if (op.op === 'replace' && op.path === '/title') draft.title = op.value as string;
    current = new Room('d', draft, steps.length, 0, {
      log, now: () => clock.t, opsPerTurn: 500, opsPerSecond: 1000, maxBatch: 64,
      onCommitted: (s) => committed.push(...s),
      onBroken: (r) => broken.push(r),
      resubmit: async (_id, r) => open().submit(r),
      ...o,
    });
    return current;
  };
  const room = open();
  return { log, room, committed, broken, clock, open };
}

const ok = (o: SubmitOutcome): number => {
  if (!o.ok) throw new Error(`${o.error.code}: ${o.error.message}`);
  return o.value.version;
};

describe('room (in-memory log)', () => {
  it('[RM1] steps of one tick get consecutive versions and commit as one batch, in order', async () => {
    const h = harness();
    const outs = await Promise.all(['a', 'b', 'c'].map((id) => h.room.submit(req(id))));
    expect(outs.map(ok)).toEqual([1, 2, 3]);
    expect(h.log.appends).toEqual([{ draftId: 'd', expectedVersion: 0, opIds: ['a', 'b', 'c'] }]);
    expect(h.committed.map((s) => s.version)).toEqual([1, 2, 3]);
    expect(h.room.committedVersion).toBe(3);
    expect(h.room.committedView().draft.title).toBe('c');
  });

  it('[RM2] while a batch is in COMMIT the next steps validate against the mirror and form the next batch', async () => {
    const h = harness();
    let release!: () => void;
    h.log.gate = new Promise((r) => { release = r; });
    const first = h.room.submit(req('a'));
    await new Promise((r) => setImmediate(r));
    expect(h.room.state.kind).toBe('committing');
    const second = [h.room.submit(req('b')), h.room.submit(req('c'))];
    // Reads serve the committed view: nothing in flight shows.
    expect(h.room.version).toBe(3);
    expect(h.room.committedView()).toMatchObject({ version: 0, draft: { title: '' } });
    h.log.gate = null;
    release();
    expect([ok(await first), ...(await Promise.all(second)).map(ok)]).toEqual([1, 2, 3]);
    expect(h.log.appends.map((a) => a.opIds)).toEqual([['a'], ['b', 'c']]);
  });

  it('[RM3] a retry in flight joins the original; the same opId with another body is IDEMPOTENCY_CONFLICT', async () => {
    const h = harness();
    const a = h.room.submit(req('a'));
    const again = h.room.submit(req('a'));
    const other = await h.room.submit(req('a', title('other')));
    expect(other).toMatchObject({ ok: false, error: { code: 'IDEMPOTENCY_CONFLICT', opId: 'a' } });
    expect(ok(await a)).toBe(1);
    expect(await again).toMatchObject({ ok: true, value: { version: 1, replayed: true } });
    expect(h.log.steps('d')).toHaveLength(1);
  });

  it('[RM4] a retry of a recent commit is answered from the log without a reload', async () => {
    const h = harness();
    ok(await h.room.submit(req('a')));
    expect(await h.room.submit(req('a'))).toMatchObject({ ok: true, value: { version: 1, replayed: true } });
    expect(await h.room.submit(req('a', title('x')))).toMatchObject({ ok: false, error: { code: 'IDEMPOTENCY_CONFLICT' } });
    expect(h.log.appends).toHaveLength(1);
    expect(h.broken).toHaveLength(0);
  });

  it('[RM4b] a recent opId with another body whose fingerprint matches is still IDEMPOTENCY_CONFLICT: the log holds the full hash', async () => {
    const h = harness();
    // Two body hashes with one 30-bit fingerprint (a birthday search: ~2^15 tries), as a collision would be.
    const seen = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let i = 0; pair === null; i++) {
      const b = `body-${i}`;
      const other = seen.get(fingerprint(b));
      if (other !== undefined) pair = [other, b];
      else seen.set(fingerprint(b), b);
    }
    ok(await h.room.submit({ ...req('a'), bodyHash: pair[0] }));
    const out = await h.room.submit({ ...req('a'), bodyHash: pair[1] });
    expect(out).toMatchObject({ ok: false, error: { code: 'IDEMPOTENCY_CONFLICT', opId: 'a' } });
    expect(h.log.appends).toHaveLength(1);
    expect(h.broken).toHaveLength(0);
  });

  it('[RM5] an old opId (not in memory) is caught at append: stored result for it, the rest decided again on the same room, no reload', async () => {
    const h = harness();
    ok(await h.room.submit(req('old')));
    const fresh = h.open(); // e.g. after a restart: recent opIds are gone
    const [dup, neu] = await Promise.all([fresh.submit(req('old')), fresh.submit(req('new'))]);
    expect(dup).toMatchObject({ ok: true, value: { version: 1, replayed: true } });
    expect(ok(neu)).toBe(2);
    expect(h.broken).toHaveLength(0);
    expect(fresh.committedView()).toMatchObject({ version: 2, draft: { title: 'new' } });
    expect(h.log.steps('d').map((s) => s.opId)).toEqual(['old', 'new']);
  });

  it('[RM16] an old opId reused with another body is IDEMPOTENCY_CONFLICT without a reload; steps beside it commit', async () => {
    const h = harness();
    ok(await h.room.submit(req('old')));
    const fresh = h.open();
    const outs = await Promise.all([fresh.submit(req('a1')), fresh.submit(req('old', title('other body'))), fresh.submit(req('a2'))]);
    expect(outs[1]).toMatchObject({ ok: false, error: { code: 'IDEMPOTENCY_CONFLICT', opId: 'old' } });
    expect([ok(outs[0]!), ok(outs[2]!)]).toEqual([2, 3]);
    expect(h.broken).toHaveLength(0);
    expect(fresh.committedView()).toMatchObject({ version: 3, draft: { title: 'a2' } });
    expect(h.log.steps('d').map((s) => s.opId)).toEqual(['old', 'a1', 'a2']);
  });

  it('[RM6] a commit whose answer is lost answers UNAVAILABLE for every uncommitted step and breaks the room', async () => {
    const h = harness();
    h.log.failNext(1, false);
    const outs = await Promise.all([h.room.submit(req('a')), h.room.submit(req('b'))]);
    expect(outs.map((o) => !o.ok && o.error.code)).toEqual(['UNAVAILABLE', 'UNAVAILABLE']);
    expect(h.room.broken).toBe(true);
    expect(h.broken).toEqual([h.room]);
    // A broken room refuses at once (the manager replaces it); nothing reached the log.
    expect(await h.room.submit(req('c'))).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect(h.log.steps('d')).toHaveLength(0);
    expect(await h.room.whenCommitted(1)).toBe(false);
  });

  it('[RM7] a commit that landed but whose answer was lost: the retry with the same opId gets the original version, once', async () => {
    const h = harness();
    h.log.failNext(1, true);
    expect(await h.room.submit(req('a'))).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    const next = h.open();
    expect(await next.submit(req('a'))).toMatchObject({ ok: true, value: { version: 1, replayed: true } });
    expect(h.log.steps('d').map((s) => s.opId)).toEqual(['a']);
  });

  it('[RM8] baseVersion other than the mirror\'s version is VERSION_CONFLICT with the current version', async () => {
    const h = harness();
    ok(await h.room.submit(req('a')));
    expect(await h.room.submit(req('b', title('b'), { baseVersion: 0 }))).toMatchObject({ ok: false, error: { code: 'VERSION_CONFLICT', currentVersion: 1 } });
    expect(ok(await h.room.submit(req('c', title('c'), { baseVersion: 1 })))).toBe(2);
  });

  it('[RM9] the turn budget: exactly at the limit passes, one op over is BUDGET_EXCEEDED, and a fresh room counts from the log', async () => {
    const h = harness({ opsPerTurn: 3 });
    ok(await h.room.submit(req('a', [...title('1'), ...title('2')], { turnId: 'T' })));
    ok(await h.room.submit(req('b', title('3'), { turnId: 'T' })));
    expect(await h.room.submit(req('c', title('4'), { turnId: 'T' }))).toMatchObject({ ok: false, error: { code: 'BUDGET_EXCEEDED', used: 3, limit: 3 } });
    const fresh = h.open();
    expect(await fresh.submit(req('d', title('5'), { turnId: 'T' }))).toMatchObject({ ok: false, error: { code: 'BUDGET_EXCEEDED', used: 3 } });
    expect(ok(await fresh.submit(req('e', title('6'), { turnId: 'T2' })))).toBe(3);
  });

  it('[RM10] the rate limit per second refills with the clock; admins and undo are not limited', async () => {
    const h = harness({ opsPerSecond: 2 });
    ok(await h.room.submit(req('a', [...title('1'), ...title('2')])));
    const limited = await h.room.submit(req('b'));
    expect(limited).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
    expect(!limited.ok && (limited.error['retryAfterMs'] as number)).toBeGreaterThan(0);
    ok(await h.room.submit(req('c', title('c'), { actor: { id: 'root', kind: 'admin' } })));
    h.clock.t += 1000;
    ok(await h.room.submit(req('d')));
  });

  it('[RM11] an atomic step with a refusal leaves the mirror as it was; a non-atomic one keeps its valid ops', async () => {
    const h = harness();
    const bad: Op[] = [...title('kept?'), { op: 'remove', path: '/sections/nope' }];
    expect(await h.room.submit(req('a', bad, { atomic: true }))).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED', path: '/sections/nope' } });
    expect(h.room.draft.title).toBe('');
    expect(h.room.version).toBe(0);
    const partial = await h.room.submit(req('b', bad));
    expect(partial).toMatchObject({ ok: true, value: { version: 1, refused: [{ path: '/sections/nope' }] } });
    expect(h.room.committedView().draft.title).toBe('kept?');
  });

  it('[RM12] a step whose every op is refused writes no version and is still reported', async () => {
    const refusedSeen: string[] = [];
    const h = harness({ onRefused: (_d, r) => refusedSeen.push(r.opId) });
    const out = await h.room.submit(req('a', [{ op: 'remove', path: '/sections/nope' }]));
    expect(out).toMatchObject({ ok: true, value: { version: 0, applied: [], refused: [{ path: '/sections/nope' }] } });
    expect(refusedSeen).toEqual(['a']);
    expect(h.log.appends).toHaveLength(0);
  });

  it('[RM13] step() decides synchronously: refusals carry no commit, applied steps carry one', () => {
    const h = harness();
    const refused = h.room.step(req('a', title('x'), { baseVersion: 7 }));
    expect(refused).toMatchObject({ decision: { kind: 'refused', error: { code: 'VERSION_CONFLICT' } }, committed: null });
    const applied = h.room.step(req('b'));
    expect(applied.decision.kind).toBe('applied');
    expect(applied.committed).toBeInstanceOf(Promise);
    return applied.committed;
  });

  it('[RM14] later commits wait for a new Yjs epoch to be stored; if it fails the room breaks', async () => {
    const h = harness();
    let store!: () => void;
    h.room.commitAfter(new Promise<void>((r) => { store = r; }));
    expect(h.room.state.kind).toBe('awaiting-epoch');
    const a = h.room.submit(req('a'));
    await new Promise((r) => setTimeout(r, 5));
    expect(h.log.appends).toHaveLength(0);
    store();
    expect(ok(await a)).toBe(1);
    const h2 = harness();
    h2.room.commitAfter(Promise.reject(new Error('disk full')));
    const b = await h2.room.submit(req('b'));
    expect(b).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect(h2.room.broken).toBe(true);
  });

  it('[RM15] the committed view as JSON text leaves out steps still in flight', async () => {
    const h = harness();
    ok(await h.room.submit(req('a')));
    expect(JSON.parse(h.room.committedJson())).toMatchObject({ title: 'a' });
    let release!: () => void;
    h.log.gate = new Promise((r) => { release = r; });
    const b = h.room.submit(req('b'));
    expect(JSON.parse(h.room.committedJson())).toMatchObject({ title: 'a' });
    h.log.gate = null;
    release();
    ok(await b);
    expect(JSON.parse(h.room.committedJson())).toMatchObject({ title: 'b' });
  });
});
