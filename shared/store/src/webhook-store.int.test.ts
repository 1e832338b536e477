// WebhookStore on both drivers (postgres.js and PGlite return int8, jsonb and timestamps
// differently; PLATFORM.md "Driver divergence"): fan-out, claims, outcomes, live events, disable,
// prune — each checked through the store's own reads.
import { createTestDatabase } from '@weft/testing';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeRefusalMessage } from '@weft/protocol';
import { step } from './contract.ts';
import { EventStore } from './event-store.ts';
import { openPGlite } from './pglite.ts';
import type { DB } from './schema.ts';
import { WebhookStore } from './webhook-store.ts';

const drivers: [string, () => Promise<{ db: Kysely<DB>; close(): Promise<void> }>][] = [
  ['postgres', async () => { const t = await createTestDatabase(); return { db: t.db, close: () => t.drop() }; }],
  ['pglite', () => openPGlite(undefined)],
];

/** Sums fan-outs until `steps` steps passed the horizon (or 20 s did). */
async function fanOutUntil(hooks: WebhookStore, steps: number): Promise<{ steps: number; deliveries: number }> {
  const sum = { steps: 0, deliveries: 0 };
  for (const end = Date.now() + 20_000; sum.steps < steps && Date.now() < end;) {
    const r = (await hooks.fanOutLog())!;
    sum.steps += r.steps; sum.deliveries += r.deliveries;
    if (sum.steps < steps) await new Promise((ok) => setTimeout(ok, 50));
  }
  return sum;
}

for (const [name, open] of drivers) {
  describe(`WebhookStore: ${name}`, () => {
    let h: { db: Kysely<DB>; close(): Promise<void> };
    let log: EventStore;
    let hooks: WebhookStore;
    beforeAll(async () => { h = await open(); log = new EventStore(h.db); hooks = new WebhookStore(h.db); }, 120_000);
    afterAll(async () => { await h?.close(); });

    it('fans the log out once per (endpoint, event), only to matching endpoints created in time', async () => {
      await log.createDraft({ id: 'a', title: '', createdBy: 'u' });
      await log.createDraft({ id: 'b', title: '', createdBy: 'u' });
      expect((await log.append('a', 0, [step('before')])).ok).toBe(true);
      const { endpoint: all, secret } = await hooks.createEndpoint({ url: 'https://example.com/all', draftId: null, eventTypes: ['draft.version.committed', 'draft.step.refused'] });
      const { endpoint: onlyB } = await hooks.createEndpoint({ url: 'https://example.com/b', draftId: 'b', eventTypes: ['draft.version.committed'] });
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect((await log.append('a', 1, [step('a2', { refused: [{ code: 'VALIDATION_FAILED', rule: 'path_not_found', path: '/x', message: 'm', index: 1 }] as never })])).ok).toBe(true);
      expect((await log.append('b', 0, [step('b1')])).ok).toBe(true);
      // Every step above committed, but the xid horizon is the whole cluster's: another database's
      // open transaction (tests run side by side) holds it back, so fan out until all three passed.
      const r = await fanOutUntil(hooks, 3);
      expect(r).toEqual({ steps: 3, deliveries: 4 }); // 'before' predates both endpoints: a step, no deliveries
      expect(await hooks.fanOutLog()).toEqual({ steps: 0, deliveries: 0 });
      const toAll = await hooks.listDeliveries({ endpointId: all.id });
      expect(toAll.map((d) => d.eventType).sort()).toEqual(['draft.step.refused', 'draft.version.committed', 'draft.version.committed']);
      expect((await hooks.listDeliveries({ endpointId: onlyB.id })).map((d) => `${d.draftId}:${d.eventType}`)).toEqual(['b:draft.version.committed']);
      // A cursor moved back (a restore) fans out again: the unique rows insert nothing twice.
      await sql`UPDATE webhook_cursor SET tx_id = '1'::xid8, position = 0`.execute(h.db);
      expect((await hooks.fanOutLog())!.deliveries).toBe(0);
    });

    it('claims are leases: a claimed row is not claimed again until its lease ends; a stale outcome is dropped', async () => {
      const [first, ...more] = await hooks.claimDue(100, 60);
      expect(more).toHaveLength(3);
      expect(first).toMatchObject({ attempt: 1, url: expect.stringMatching(/^https:\/\/example\.com\//) });
      expect(first!.secrets).toEqual([expect.stringMatching(/^whsec_/)]);
      expect(await hooks.claimDue(100, 60)).toEqual([]);
      const recorded = await hooks.recordAttempts([
        { claim: first!, outcome: { result: 'retry', retryInS: 0, status: 500, error: 'HTTP 500', ms: 12.4 } },
        { claim: more[0]!, outcome: { result: 'delivered', status: 204, ms: 3 } },
        { claim: { id: more[1]!.id, attempt: 7 }, outcome: { result: 'delivered', status: 204, ms: 3 } },
        { claim: more[2]!, outcome: { result: 'failed', error: 'refused: x', ms: 1 } },
      ]);
      expect([...recorded].sort()).toEqual([first!.id, more[0]!.id, more[2]!.id].sort());
      const d1 = (await hooks.getDelivery(first!.id))!;
      expect(d1).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500', attemptLog: [{ attempt: 1, ms: 12, status: 500, error: 'HTTP 500' }] });
      expect((await hooks.getDelivery(more[0]!.id))).toMatchObject({ status: 'delivered', lastStatus: 204, nextAttemptAt: null });
      expect((await hooks.getDelivery(more[2]!.id))).toMatchObject({ status: 'failed', lastError: 'refused: x', lastStatus: null });
      // Due again at once (retryInS 0): the next claim is attempt 2.
      expect((await hooks.claimDue(100, 60)).map((c) => `${c.id}#${c.attempt}`)).toEqual([`${first!.id}#2`]);
      expect(await hooks.countPending()).toBe(2);
    });

    it('live events, a disabled endpoint, manual retry and pruning', async () => {
      const { endpoint } = await hooks.createEndpoint({ url: 'https://example.com/live', draftId: 'a', eventTypes: ['draft.step.refused'] });
      const m = wholeRefusalMessage('evt_a_refused_1', { draftId: 'a', opId: 'o', actor: { id: 'u', kind: 'human' }, turnId: null, refused: [] }, new Date());
      expect(await hooks.enqueue([m])).toBe(2); // this endpoint and the all-drafts one
      expect(await hooks.enqueue([m])).toBe(0);
      expect(await hooks.disableEndpoint(endpoint.id, 'HTTP 410')).toBe(true);
      expect((await hooks.getEndpoint(endpoint.id))!.disabledReason).toBe('HTTP 410');
      expect((await hooks.claimDue(100, 60)).map((c) => c.endpointId)).not.toContain(endpoint.id);
      const again = wholeRefusalMessage('evt_a_refused_2', { draftId: 'a', opId: 'o', actor: { id: 'u', kind: 'human' }, turnId: null, refused: [] }, new Date());
      expect(await hooks.enqueue([again])).toBe(1); // not to the disabled one
      expect((await hooks.enableEndpoint(endpoint.id))!.disabledAt).toBeNull();
      expect((await hooks.claimDue(100, 60)).map((c) => c.endpointId)).toContain(endpoint.id);
      const failed = (await hooks.listDeliveries({ status: 'failed' }))[0]!;
      expect(await hooks.retryDelivery(failed.id)).toMatchObject({ status: 'pending', attempts: 0 });
      expect(await hooks.getDelivery('nope')).toBeNull();
      expect(await hooks.retryDelivery('12345678901234567890123')).toBeNull();
      const delivered = (await hooks.listDeliveries({ status: 'delivered' }))[0]!;
      await sql`UPDATE webhook_deliveries SET created_at = now() - interval '40 days' WHERE id = ${delivered.id}`.execute(h.db);
      expect(await hooks.pruneDeliveries(30, 1000)).toBe(1);
      expect(await hooks.getDelivery(delivered.id)).toBeNull();
      // Rotation: both secrets sign during the overlap, only the new one after it.
      const rotated = (await hooks.rotateSecret(endpoint.id, 3600))!;
      expect(rotated.endpoint.previousSecretUntil).not.toBeNull();
      await hooks.retryDelivery((await hooks.listDeliveries({ endpointId: endpoint.id }))[0]!.id);
      const [withBoth] = (await hooks.claimDue(100, 60)).filter((c) => c.endpointId === endpoint.id);
      expect(withBoth!.secrets).toHaveLength(2);
      expect(withBoth!.secrets[0]).toBe(rotated.secret);
      const again2 = (await hooks.rotateSecret(endpoint.id, 0))!;
      expect(again2.endpoint.previousSecretUntil).toBeNull();
      expect(await hooks.rotateSecret('wh_none', 60)).toBeNull();
      expect(await hooks.deleteEndpoint(endpoint.id)).toBe(true);
      expect(await hooks.listDeliveries({ endpointId: endpoint.id })).toEqual([]);
    });
  });
}
