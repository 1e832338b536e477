import { WeftHttpClient, WeftPeer } from '@weft/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startStack } from '../bench/stack.ts';
import type { Stack } from '../bench/stack.ts';
import { newHistory } from '../src/invariants.ts';
import { printChecks, verifyDraft } from '../src/verify.ts';
import { FULL, seedDraft, startWriters, until } from './driver.ts';

// RELIABILITY.md: `kill -9` the API under load, at random ack counts. Pass: I1–I5, peers converge.
describe('fault: kill -9 of the session service under load', () => {
  let stack: Stack;
  beforeAll(async () => { stack = await startStack({ workers: false }); });
  afterAll(async () => stack?.stop());

  it('loses no acked op, duplicates none; log = server = snapshot+tail = every peer', async () => {
    const id = 'kill9';
    await seedDraft(stack.admin, id);
    const peers = [await WeftPeer.join({ url: stack.session.url, draftId: id, token: ADMIN_TOKEN }), await WeftPeer.join({ url: stack.session.url, draftId: id, token: ADMIN_TOKEN })];
    const h = newHistory();
    const client = () => new WeftHttpClient(stack.session.url, ADMIN_TOKEN);
    const rounds = FULL ? 5 : 2;
    const writers = startWriters(client, id, 8, h);
    for (let r = 0; r < rounds; r++) {
      const at = writers.acks + 50 + Math.floor(Math.random() * 200);
      await until(() => writers.acks >= at, 60_000, `${at} acks`);
      const inflight = h.invoked.size - h.acked.size;
      await stack.restartSession('SIGKILL');
      console.log(`[kill9] injected: SIGKILL of the session at ${writers.acks} acks (${inflight} in flight), restarted on the same port`);
    }
    await until(() => writers.acks >= h.acked.size && writers.acks > 0, 1000, 'acks');
    await writers.stop();
    const checks = await verifyDraft(stack.admin, id, h, { peers, foreign: (op) => op.startsWith('seed-') });
    printChecks('kill9', checks);
    console.log(`[kill9] checked: ${h.acked.size} acked, ${h.unknown.size} still unknown after retries, errors ${JSON.stringify(Object.fromEntries(writers.errors))}`);
    for (const p of peers) p.close();
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(h.unknown.size).toBe(0);
  }, 180_000);
});
