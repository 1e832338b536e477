import { applyOpsUnchecked, emptyDraft } from '@weft/core';
import { WeftError, WeftHttpClient } from '@weft/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSectionOps, ADMIN, startTestSession } from './helpers.ts';
import type { TestSession } from './helpers.ts';

// Issue 3's bar: every acknowledged op is in the log exactly once, versions are gapless, the
// draft equals the replay of its log, and idempotency/expected-version hold under concurrency.
describe('event log durability through the HTTP API', () => {
  let s: TestSession;
  beforeAll(async () => {
    s = await startTestSession({ opsPerSecond: 100_000 });
    await s.admin.createDraft('busy', 'Busy');
    await s.admin.submit('busy', { opId: 'seed', ops: addSectionOps('hero') });
  });
  afterAll(async () => s.close());

  it('20 concurrent writers × 50 ops: every ack logged once, versions 1..N, draft = replay', async () => {
    const writers = await Promise.all(Array.from({ length: 20 }, (_, w) => s.as(`writer-${w}`, { busy: ['write'] })));
    const acked: { opId: string; version: number }[] = [];
    await Promise.all(writers.map(async (c, w) => {
      for (let i = 0; i < 50; i++) {
        const opId = `w${w}-op${i}`;
        const r = await c.submit('busy', { opId, ops: [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: `w${w} #${i}` }] });
        expect(r.refused).toEqual([]);
        acked.push({ opId, version: r.version });
      }
    }));
    expect(acked).toHaveLength(1000);
    const steps = await s.store.readSteps('busy', { after: 0, limit: 100_000 });
    const versions = steps.map((x) => x.version);
    expect(versions).toEqual(Array.from({ length: versions.length }, (_, i) => i + 1));
    const byOpId = new Map(steps.map((x) => [x.opId, x.version]));
    expect(byOpId.size).toBe(steps.length);
    for (const a of acked) expect(byOpId.get(a.opId)).toBe(a.version);

    const replay = emptyDraft('busy');
    for (const st of steps) applyOpsUnchecked(replay, st.ops);
    const served = await s.admin.getDraft('busy');
    expect(served.version).toBe(versions.length);
    expect(served.draft).toEqual(replay);
  });

  it('the same opId retried returns the original result and writes nothing; another body conflicts', async () => {
    const c = await s.as('retrier', { busy: ['write'] });
    const body = { opId: 'retry-1', ops: [{ op: 'replace', path: '/title', value: 'Once' }] };
    const first = await c.submit('busy', body);
    const again = await Promise.all(Array.from({ length: 10 }, () => c.submit('busy', body)));
    for (const r of again) expect(r.version).toBe(first.version);
    const steps = await s.store.readSteps('busy', { after: first.version - 1, limit: 100 });
    expect(steps.filter((x) => x.opId === 'retry-1')).toHaveLength(1);
    // The same ops serialised again with another key order (a client that rebuilds its body on retry) are the same body.
    const reordered = await fetch(`${s.url}/v1/drafts/busy/ops`, { method: 'POST', headers: { authorization: `Bearer ${c.token}` }, body: '{"ops":[{"value":"Once","path":"/title","op":"replace"}],"opId":"retry-1"}' });
    expect([reordered.status, ((await reordered.json()) as { version: number }).version]).toEqual([200, first.version]);
    const e = await c.submit('busy', { opId: 'retry-1', ops: [{ op: 'replace', path: '/title', value: 'Twice' }] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(WeftError);
    expect((e as WeftError).code).toBe('IDEMPOTENCY_CONFLICT');
    expect((e as WeftError).status).toBe(409);
  });

  it('two writers on the same baseVersion: exactly one wins, the other gets VERSION_CONFLICT', async () => {
    const a = await s.as('a', { busy: ['write'] });
    const b = await s.as('b', { busy: ['write'] });
    for (let round = 0; round < 20; round++) {
      const { version } = await s.admin.getDraft('busy');
      const results = await Promise.allSettled([
        a.submit('busy', { opId: `race-a-${round}`, baseVersion: version, ops: [{ op: 'replace', path: '/title', value: `a${round}` }] }),
        b.submit('busy', { opId: `race-b-${round}`, baseVersion: version, ops: [{ op: 'replace', path: '/title', value: `b${round}` }] }),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      const reason = (lost[0] as PromiseRejectedResult).reason as WeftError;
      expect(reason.code).toBe('VERSION_CONFLICT');
      expect(reason.payload['currentVersion']).toBe(version + 1);
    }
  });

  it('replay of any version equals the state that was served at that version', async () => {
    const c = await s.as('replayer', { busy: ['write'] });
    const served: { version: number; draft: unknown }[] = [];
    for (let i = 0; i < 8; i++) {
      await c.submit('busy', { opId: `rp-${i}`, ops: [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: `v${i}` }] });
      served.push(await s.admin.getDraft('busy'));
    }
    for (const sv of served) {
      const past = await s.admin.getDraft('busy', sv.version);
      expect(past.draft).toEqual(sv.draft);
    }
  });

  it('a commit whose answer is lost (committed, then the connection failed): UNAVAILABLE, and the retry returns the original version once', async () => {
    const store = s.app.ctx.store;
    const real = store.append.bind(store);
    let fail = true;
    store.append = (async (...args: Parameters<typeof real>) => {
      const r = await real(...args);
      if (fail) {
        fail = false;
        throw new Error('connection reset after COMMIT');
      }
      return r;
    }) as typeof store.append;
    try {
      const before = await s.admin.getDraft('busy');
      const body = { opId: 'lost-answer', ops: [{ op: 'replace', path: '/title', value: 'Lost answer' }] };
      // A client that does not retry sees the server's answer (the SDK's default retries it).
      const once = new WeftHttpClient(s.url, ADMIN, { retries: 0 });
      const e = await once.submit('busy', body).catch((x: unknown) => x);
      expect((e as WeftError).code).toBe('UNAVAILABLE');
      expect((e as WeftError).status).toBe(503);
      const retry = await s.admin.submit('busy', body);
      expect(retry.version).toBe(before.version + 1);
      expect(retry.replayed).toBe(true);
      const next = await s.admin.submit('busy', { opId: 'after-lost', ops: [{ op: 'replace', path: '/title', value: 'Next' }] });
      expect(next.version).toBe(before.version + 2);
      // The SDK's own retry (same opId) turns the next lost answer into the original result.
      fail = true;
      const auto = await s.admin.submit('busy', { opId: 'lost-again', ops: [{ op: 'replace', path: '/title', value: 'Lost again' }] });
      expect(auto).toMatchObject({ version: before.version + 3, replayed: true });
      const steps = await s.store.readSteps('busy', { after: before.version });
      expect(steps.map((x) => x.opId)).toEqual(['lost-answer', 'after-lost', 'lost-again']);
    } finally {
      store.append = real;
    }
  });

  it('a restarted service (rooms reloaded from the log) serves the same draft and keeps counting', async () => {
    const before = await s.admin.getDraft('busy');
    await s.restart();
    const after = await s.admin.getDraft('busy');
    expect(after).toEqual(before);
    const r = await s.admin.submit('busy', { opId: 'after-restart', ops: [{ op: 'replace', path: '/title', value: 'Again' }] });
    expect(r.version).toBe(before.version + 1);
  });

  it('an old opId retried after a restart (not in memory), in one batch with new steps: replayed once, the new ones commit', async () => {
    await s.restart();
    const head = (await s.admin.getDraft('busy')).version;
    const old = s.admin.submit('busy', { opId: 'retry-1', ops: [{ op: 'replace', path: '/title', value: 'Once' }] });
    const fresh = Array.from({ length: 5 }, (_, i) => s.admin.submit('busy', { opId: `fresh-${i}`, ops: [{ op: 'replace', path: '/title', value: `fresh ${i}` }] }));
    const [o, ...f] = await Promise.all([old, ...fresh]);
    expect(o!.replayed).toBe(true);
    expect(o!.version).toBeLessThanOrEqual(head);
    expect(f.map((x) => x.version).sort((a, b) => a - b)).toEqual([head + 1, head + 2, head + 3, head + 4, head + 5]);
    const steps = await s.store.readSteps('busy', { after: 0, limit: 100_000 });
    expect(steps.filter((x) => x.opId === 'retry-1')).toHaveLength(1);
    expect(steps.map((x) => x.version)).toEqual(steps.map((_, i) => i + 1));
    const other = await s.admin.submit('busy', { opId: 'retry-1', ops: [{ op: 'replace', path: '/title', value: 'Different' }] }).catch((x: unknown) => x);
    expect((other as WeftError).code).toBe('IDEMPOTENCY_CONFLICT');
  });
});
