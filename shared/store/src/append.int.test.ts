// Real-Postgres-only races (PGlite serialises transactions, so it cannot show them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { EventStore } from './event-store.ts';
import { step } from './contract.ts';

describe('append under concurrency (Postgres)', () => {
  let t: TestDatabase;
  let store: EventStore;
  beforeAll(async () => { t = await createTestDatabase({ max: 25 }); store = new EventStore(t.db); });
  afterAll(async () => { await t.drop(); });

  it('20 appenders racing on the same expected version: exactly one wins', async () => {
    await store.createDraft({ id: 'race1', title: '', createdBy: 'u' });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.append('race1', 0, [step(`r${i}`)])));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((x) => !x.ok)) expect(r).toEqual({ ok: false, error: { code: 'VERSION_CONFLICT', currentVersion: 1 } });
    expect(await store.readSteps('race1')).toHaveLength(1);
  });

  it('20 appenders retrying on conflict: every step lands once, versions 1..N with no gap', async () => {
    await store.createDraft({ id: 'race2', title: '', createdBy: 'u' });
    let conflicts = 0;
    const writer = async (w: number): Promise<void> => {
      let expected = 0;
      for (let k = 0; k < 5;) {
        const batch = Array.from({ length: 1 + (k % 3) }, (_, j) => step(`w${w}-${k}-${j}`));
        const r = await store.append('race2', expected, batch);
        if (r.ok) { k++; expected = r.value.at(-1)!.version; continue; }
        if (r.error.code !== 'VERSION_CONFLICT') throw new Error(JSON.stringify(r.error));
        conflicts++;
        expected = r.error.currentVersion;
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_, w) => writer(w)));
    const all = await store.readSteps('race2');
    const expectedCount = 20 * [0, 1, 2, 3, 4].reduce((s, k) => s + 1 + (k % 3), 0);
    expect(all).toHaveLength(expectedCount);
    expect(all.map((s) => s.version)).toEqual(Array.from({ length: expectedCount }, (_, i) => i + 1));
    expect(new Set(all.map((s) => s.opId)).size).toBe(expectedCount);
    expect((await store.getDraft('race2'))?.headVersion).toBe(expectedCount);
    expect(conflicts).toBeGreaterThan(0); // they really raced
  });

  it('the same opId sent 100 times concurrently is stored once', async () => {
    await store.createDraft({ id: 'dup', title: '', createdBy: 'u' });
    await store.append('dup', 0, [step('first')]);
    const outcomes = await Promise.all(Array.from({ length: 100 }, async () => {
      let expected = 1;
      for (;;) {
        const r = await store.append('dup', expected, [step('same')]);
        if (r.ok || r.error.code !== 'VERSION_CONFLICT') return r;
        expected = r.error.currentVersion;
      }
    }));
    expect(outcomes.filter((r) => r.ok)).toHaveLength(1);
    for (const r of outcomes.filter((x) => !x.ok)) expect(r).toEqual({ ok: false, error: { code: 'IDEMPOTENCY_CONFLICT', opId: 'same' } });
    const steps = await store.readSteps('dup');
    expect(steps.map((s) => s.opId)).toEqual(['first', 'same']);
    expect((await store.findByOpId('dup', 'same'))?.version).toBe(2);
  });
});
