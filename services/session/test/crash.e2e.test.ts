import { WeftError, WeftHttpClient } from '@weft/client';
import { applyOpsUnchecked, emptyDraft } from '@weft/core';
import { EventStore } from '@weft/store';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSectionOps } from './helpers.ts';
import { spawnLauncher } from './process.ts';

const ADMIN = 'crash-admin-token';

// RELIABILITY.md promise 1: acked = committed. The session process is SIGKILLed under load; after
// a restart on the same database every acknowledged op is in the log exactly once, versions are
// gapless, and ops whose outcome was unknown (in flight at the kill) are there at most once
// after their retry with the same opId.
describe('kill -9 of the session service under load', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db.drop());

  it('loses no acknowledged op and duplicates none', async () => {
    const env = { DATABASE_URL: db.url, WEFT_ADMIN_TOKEN: ADMIN, WEFT_OPS_PER_SECOND: '100000' };
    let svc = await spawnLauncher(env);
    const admin = new WeftHttpClient(svc.url, ADMIN);
    await admin.createDraft('crash', 'Crash');
    await admin.submit('crash', { opId: 'seed', ops: addSectionOps('hero') });

    const acked = new Map<string, number>();
    const unknown = new Set<string>();
    let stop = false;
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; !stop && i < 10_000; i++) {
        const opId = `w${w}-${i}`;
        try {
          const r = await admin.submit('crash', { opId, ops: [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: opId }] });
          acked.set(opId, r.version);
        } catch (e) {
          if (!(e instanceof WeftError)) unknown.add(opId); // connection died: outcome unknown
          return;
        }
      }
    });
    while (acked.size < 300) await new Promise((r) => setTimeout(r, 5));
    await svc.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);

    svc = await spawnLauncher(env, Number(new URL(svc.url).port));
    const after = new WeftHttpClient(svc.url, ADMIN);
    // Retrying an unknown-outcome op with its opId: applied at most once.
    for (const opId of unknown) {
      await after.submit('crash', { opId, ops: [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: opId }] });
    }
    const store = new EventStore(db.db);
    const steps = await store.readSteps('crash', { after: 0, limit: 1_000_000 });
    expect(steps.map((s) => s.version)).toEqual(steps.map((_, i) => i + 1));
    const byOp = new Map<string, number>();
    for (const s of steps) {
      expect(byOp.has(s.opId)).toBe(false);
      byOp.set(s.opId, s.version);
    }
    for (const [opId, version] of acked) expect(byOp.get(opId)).toBe(version);
    for (const opId of unknown) expect(byOp.has(opId)).toBe(true);
    const replay = emptyDraft('crash');
    for (const s of steps) applyOpsUnchecked(replay, s.ops);
    const served = await after.getDraft('crash');
    expect(served.draft).toEqual(replay);
    console.log(`[crash] ${acked.size} acked before SIGKILL, ${unknown.size} in flight retried, ${steps.length} steps in the log`);
    await svc.kill('SIGTERM');
  });
});
