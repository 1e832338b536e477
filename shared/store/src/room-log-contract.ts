// The RoomLog contract (CONVENTIONS.md §13): what a room relies on from its log, run on Postgres,
// PGlite and the in-memory log. Each test makes its own drafts, so one database per file is enough.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Op } from '@weft/core';
import type { RoomLog } from './room-log.ts';
import type { NewStep } from './types.ts';
import type { Fence } from './leases.ts';

export interface RoomLogHandle {
  log: RoomLog;
  createDraft(id: string): Promise<void>;
  /** Gives `node` the draft's lease (a new lease epoch) and answers the fence it must append with. */
  takeLease(id: string, node: string): Promise<Fence>;
  close(): Promise<void>;
}

let n = 0;
const uid = (): string => `rl-${Date.now().toString(36)}-${(n++).toString(36)}`;

function step(opId: string, extra: Partial<NewStep> = {}): NewStep {
  const ops: Op[] = [{ op: 'replace', path: '/title', value: opId }, { op: 'replace', path: '/title', value: `${opId}!` }];
  return { opId, bodyHash: `h-${opId}`, actor: 'a', actorKind: 'human', ops, inverse: [{ op: 'replace', path: '/title', value: '' }], notes: [], refused: [], ...extra };
}

export function runRoomLogContract(name: string, factory: () => Promise<RoomLogHandle>): void {
  describe(`room log contract: ${name}`, () => {
    let h: RoomLogHandle;
    beforeAll(async () => { h = await factory(); });
    afterAll(async () => { await h?.close(); });
    const draft = async (): Promise<string> => {
      const id = uid();
      await h.createDraft(id);
      return id;
    };

    it('[RL1] appends a batch as gapless versions after the expected one, and returns what it stored', async () => {
      const id = await draft();
      const a = await h.log.append(id, 0, [step('a'), step('b', { yUpdate: new Uint8Array([1, 2]) })]);
      expect(a.ok && a.value.map((s) => [s.version, s.opId])).toEqual([[1, 'a'], [2, 'b']]);
      expect(a.ok && a.value[1]!.yUpdate).toEqual(new Uint8Array([1, 2]));
      const b = await h.log.append(id, 2, [step('c')]);
      expect(b.ok && b.value[0]!.version).toBe(3);
    });

    it('[RL2] a stale or future expected version is a VERSION_CONFLICT naming the head; nothing is written', async () => {
      const id = await draft();
      await h.log.append(id, 0, [step('x')]);
      expect(await h.log.append(id, 0, [step('y')])).toEqual({ ok: false, error: { code: 'VERSION_CONFLICT', currentVersion: 1 } });
      expect(await h.log.append(id, 5, [step('z')])).toEqual({ ok: false, error: { code: 'VERSION_CONFLICT', currentVersion: 1 } });
      expect((await h.log.findByOpIds(id, ['y', 'z'])).size).toBe(0);
    });

    it('[RL3] an opId already in the log writes nothing of the batch and names every old opId', async () => {
      const id = await draft();
      await h.log.append(id, 0, [step('o1'), step('o2')]);
      const r = await h.log.append(id, 2, [step('new'), step('o1'), step('o2')]);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe('IDEMPOTENCY_CONFLICT');
      if (r.error.code !== 'IDEMPOTENCY_CONFLICT') return;
      expect(new Set(r.error.opIds ?? [r.error.opId])).toEqual(new Set(['o1', 'o2']));
      expect((await h.log.findByOpIds(id, ['new'])).size).toBe(0);
      const ok = await h.log.append(id, 2, [step('new')]);
      expect(ok.ok && ok.value[0]!.version).toBe(3);
    });

    it('[RL4] an unknown draft is NOT_FOUND', async () => {
      expect(await h.log.append(uid(), 0, [step('q')])).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    });

    it('[RL5] finds steps by opId with their body hash and result', async () => {
      const id = await draft();
      await h.log.append(id, 0, [step('f1', { notes: [{ rule: 'snapped_name', path: '/title', message: 'm', index: 0 }] }), step('f2')]);
      const got = await h.log.findByOpIds(id, ['f1', 'f2', 'nope']);
      expect([...got.keys()].sort()).toEqual(['f1', 'f2']);
      expect(got.get('f1')).toMatchObject({ version: 1, bodyHash: 'h-f1', notes: [{ rule: 'snapped_name' }] });
      expect((await h.log.findByOpIds(id, [])).size).toBe(0);
    });

    it('[RL7] with a fence, only the lease holder at that epoch appends; an old owner is FENCED and writes nothing', async () => {
      const id = await draft();
      const a = await h.takeLease(id, 'node-a');
      expect((await h.log.append(id, 0, [step('fa')], a)).ok).toBe(true);
      const b = await h.takeLease(id, 'node-b');
      expect(b.epoch).toBeGreaterThan(a.epoch);
      expect(await h.log.append(id, 1, [step('late')], a)).toEqual({ ok: false, error: { code: 'FENCED', owner: 'node-b', epoch: b.epoch } });
      expect((await h.log.findByOpIds(id, ['late'])).size).toBe(0);
      expect((await h.log.append(id, 1, [step('fb')], b)).ok).toBe(true);
    });

    it('[RL8] counts an actor\'s ops on a draft (since its last finished turn)', async () => {
      const id = await draft();
      await h.log.append(id, 0, [step('a1', { actor: 'bot' }), step('a2', { actor: 'other' }), step('a3', { actor: 'bot', turnId: 'T' })]);
      expect(await h.log.actorOpsSinceTurn(id, 'bot')).toBe(4);
      expect(await h.log.actorOpsSinceTurn(id, 'nobody')).toBe(0);
    });

    it('[RL6] counts a turn\'s committed ops (the budget survives a reload)', async () => {
      const id = await draft();
      await h.log.append(id, 0, [step('t1', { turnId: 'T' }), step('t2'), step('t3', { turnId: 'T' })]);
      expect(await h.log.turnOpCount(id, 'T')).toBe(4);
      expect(await h.log.turnOpCount(id, 'other')).toBe(0);
    });
  });
}
