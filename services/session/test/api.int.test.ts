import { WeftError, WeftHttpClient } from '@weft/client';
import type { AgUiEvent } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSectionOps, startTestSession } from './helpers.ts';
import type { TestSession } from './helpers.ts';

const titleOp = (v: string) => [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: v }];

async function failure(p: Promise<unknown>): Promise<WeftError> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(WeftError);
  return e as WeftError;
}

describe('session API', () => {
  let s: TestSession;
  beforeAll(async () => {
    s = await startTestSession({ opsPerSecond: 20, opsPerTurn: 30 });
    await s.admin.createDraft('page', 'Page');
    await s.admin.submit('page', { opId: 'seed', ops: addSectionOps('hero') });
  });
  afterAll(async () => s.close());

  describe('auth', () => {
    it('no token, no data', async () => {
      const res = await fetch(`${s.url}/v1/drafts/page`);
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe('UNAUTHORIZED');
    });
    it('a read token can read but never write', async () => {
      const r = await s.as('reader', { page: ['read'] });
      expect((await r.getDraft('page')).id).toBe('page');
      const e = await failure(r.submit('page', { opId: 'x', ops: titleOp('no') }));
      expect(e.code).toBe('FORBIDDEN');
      expect(e.status).toBe(403);
    });
    it('a token for another draft learns nothing about this one (404, not 403)', async () => {
      const r = await s.as('other', { elsewhere: ['write'] });
      expect((await failure(r.getDraft('page'))).code).toBe('NOT_FOUND');
    });
    it('a bogus token is refused', async () => {
      const r = new WeftHttpClient(s.url, 'wft_not-a-token');
      expect((await failure(r.getDraft('page'))).code).toBe('UNAUTHORIZED');
    });
    it('only admin mints tokens', async () => {
      const r = await s.as('human', { '*': ['write'] });
      expect((await failure(r.mintToken({ actor: { id: 'x', kind: 'agent' }, scopes: {} }))).code).toBe('FORBIDDEN');
    });
  });

  describe('bad input gets a typed error and the server stays up', () => {
    it('malformed JSON', async () => {
      const e = await failure(s.admin.request('POST', '/v1/drafts/page/ops', '{"opId":'));
      expect(e.code).toBe('MALFORMED_JSON');
    });
    it('wrong envelope', async () => {
      expect((await failure(s.admin.request('POST', '/v1/drafts/page/ops', { ops: [] }))).code).toBe('BAD_REQUEST');
      expect((await failure(s.admin.request('POST', '/v1/drafts/page/ops', { opId: 'a b', ops: [{}] }))).payload.path).toBe('/opId');
    });
    it('an oversized body', async () => {
      const big = { opId: 'big', ops: [{ op: 'replace', path: '/title', value: 'x'.repeat(600 * 1024) }] };
      expect((await failure(s.admin.request('POST', '/v1/drafts/page/ops', big))).code).toBe('PAYLOAD_TOO_LARGE');
    });
    it('invalid ops are refused per op with code, rule, pointer and message; valid ones in the same step apply', async () => {
      const r = await s.admin.submit('page', { opId: 'mixed', ops: [
        { op: 'replace', path: '/sections/hero/components/title/props/level', value: 'huge' },
        { op: 'add', path: '/__proto__/polluted', value: 1 },
        { op: 'replace', path: '/title', value: 'Mixed' },
      ] });
      expect(r.applied).toEqual([{ op: 'replace', path: '/title', value: 'Mixed' }]);
      expect(r.refused.map((x) => [x.index, x.code])).toEqual([[0, 'VALIDATION_FAILED'], [1, 'VALIDATION_FAILED']]);
      expect(r.refused[1]!.rule).toBe('forbidden_segment');
      expect(r.refused.map((x) => [x.rule, x.kind])).toEqual([['invalid_props', 'contract'], ['forbidden_segment', 'contract']]);
      for (const x of r.refused) expect(x.message.length).toBeGreaterThan(10);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      const res = await fetch(`${s.url}/healthz`);
      expect(res.status).toBe(200);
    });
  });

  describe('budgets', () => {
    it('more than opsPerSecond in a session → RATE_LIMITED with Retry-After', async () => {
      const c = await s.as('fast-agent', { page: ['write'] }, 'agent');
      const { sessionId } = await c.openSession('page');
      // 20 then 10 ops: the agent's whole 30-op turn budget, past 20 ops a second. The first empties
      // the bucket, so the second is refused unless half a second passed between them (a 10-then-15
      // split failed once on a loaded machine: a quarter of a second refilled enough).
      const ops = (n: number) => Array.from({ length: n }, (_, i) => titleOp(`r${i}`)[0]);
      await c.submit('page', { opId: 'rl-1', sessionId, ops: ops(20) });
      const res = await fetch(`${s.url}/v1/drafts/page/ops`, {
        method: 'POST', headers: { authorization: `Bearer ${c.token}` }, body: JSON.stringify({ opId: 'rl-2', sessionId, ops: ops(10) }),
      });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await res.json()).error.code).toBe('RATE_LIMITED');
      // Nothing of the limited step was written.
      expect((await s.store.findByOpId('page', 'rl-2'))).toBeNull();
    });
    it('op 31 of a 30-op turn → BUDGET_EXCEEDED, and the count survives a restart', async () => {
      const c = await s.as('turn-agent', { page: ['write'] }, 'agent');
      const ten = Array.from({ length: 10 }, (_, i) => titleOp(`t${i}`)[0]);
      const pause = () => new Promise((r) => setTimeout(r, 1050)); // stay inside 20 ops/s
      await c.submit('page', { opId: 'turn-a', turnId: 'turn-1', ops: ten });
      await pause();
      await c.submit('page', { opId: 'turn-b', turnId: 'turn-1', ops: ten });
      await s.restart();
      const again = new WeftHttpClient(s.url, c.token);
      await again.submit('page', { opId: 'turn-c', turnId: 'turn-1', ops: ten });
      await pause();
      const e = await failure(again.submit('page', { opId: 'turn-d', turnId: 'turn-1', ops: ten.slice(0, 1) }));
      expect(e.code).toBe('BUDGET_EXCEEDED');
      expect(e.status).toBe(429);
      // The budget is the agent's, not the turnId's: a new turnId (or none) buys nothing…
      expect((await failure(again.submit('page', { opId: 'turn-x', turnId: 'turn-2', ops: ten.slice(0, 1) }))).code).toBe('BUDGET_EXCEEDED');
      expect((await failure(again.submit('page', { opId: 'turn-y', ops: ten.slice(0, 1) }))).code).toBe('BUDGET_EXCEEDED');
      // …until it finishes its turn: then its next turn has a budget of its own.
      await again.finishTurn('page', 'turn-1');
      await again.submit('page', { opId: 'turn-e', turnId: 'turn-2', ops: ten.slice(0, 1) });
    });
  });

  describe('undo and redo from the log', () => {
    it('undo restores the actor’s own last change; redo re-applies it', async () => {
      const alice = await s.as('alice', { page: ['write'] });
      await alice.submit('page', { opId: 'al-1', ops: titleOp('Alice 1') });
      await alice.submit('page', { opId: 'al-2', ops: titleOp('Alice 2') });
      await alice.undo('page');
      expect(title(await s.admin.getDraft('page'))).toBe('Alice 1');
      await alice.redo('page');
      expect(title(await s.admin.getDraft('page'))).toBe('Alice 2');
    });
    it('an undo that would clobber someone else’s later change reports UNDO_CONFLICT', async () => {
      const alice = await s.as('alice2', { page: ['write'] });
      const bob = await s.as('bob', { page: ['write'] });
      await alice.submit('page', { opId: 'al2-1', ops: titleOp('Alice') });
      await bob.submit('page', { opId: 'bob-1', ops: titleOp('Bob') });
      const e = await failure(alice.undo('page'));
      expect(e.code).toBe('UNDO_CONFLICT');
      expect(title(await s.admin.getDraft('page'))).toBe('Bob');
    });
    it('nothing to undo', async () => {
      const carol = await s.as('carol', { page: ['write'] });
      expect((await failure(carol.undo('page'))).code).toBe('NOTHING_TO_UNDO');
    });
  });

  it('/metrics: the cross-draft group commit is counted with counters that grow with each commit', async () => {
    const read = async () => {
      const text = await (await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${s.admin.token}` } })).text();
      const v = (n: string) => Number(new RegExp(`^${n} (\\S+)$`, 'm').exec(text)?.[1]);
      return { text, statements: v('weft_group_commit_statements_total'), batches: v('weft_group_commit_batches_total') };
    };
    await s.admin.createDraft('counted', 'Counted');
    const before = await read();
    expect(before.text).toMatch(/^# TYPE weft_group_commit_statements_total counter$/m);
    expect(before.text).toMatch(/^# TYPE weft_group_commit_seconds_total counter$/m);
    await s.admin.submit('counted', { opId: 'c-1', ops: [{ op: 'replace', path: '/title', value: 'one' }] });
    await s.admin.submit('counted', { opId: 'c-2', ops: [{ op: 'replace', path: '/title', value: 'two' }] });
    const after = await read();
    expect(after.statements).toBeGreaterThanOrEqual(before.statements + 2);
    expect(after.batches).toBeGreaterThanOrEqual(before.batches + 2);
  });

  describe('the event log over HTTP', () => {
    it('pages StepViews with next/head, and the NDJSON form streams the same steps in order', async () => {
      await s.admin.createDraft('replay', 'Replay');
      await s.admin.submit('replay', { opId: 'r-seed', ops: addSectionOps('hero') });
      for (let i = 0; i < 12; i++) await s.admin.submit('replay', { opId: `r-${i}`, turnId: 'rt', ops: titleOp(`v${i}`) });
      const first = await s.admin.events('replay', 0, 5);
      expect(first.steps.map((x) => x.version)).toEqual([1, 2, 3, 4, 5]);
      expect(first.next).toBe(5);
      expect(first.head).toBe(14);
      const st = first.steps[2]!;
      expect(st).toEqual({ version: 3, opId: 'r-0', actor: 'admin', actorKind: 'admin', sessionId: null, turnId: 'rt', ops: titleOp('v0'), notes: [], refused: [], createdAt: expect.any(String) });
      expect(new Date(st.createdAt).toISOString()).toBe(st.createdAt);
      const all = [];
      for (let after: number | null = 0; after !== null;) {
        const page = await s.admin.events('replay', after, 4);
        all.push(...page.steps);
        after = page.next;
      }
      const res = await fetch(`${s.url}/v1/drafts/replay/events?format=ndjson&after=0`, { headers: { authorization: `Bearer ${s.admin.token}` } });
      expect(res.headers.get('content-type')).toContain('application/x-ndjson');
      const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as unknown);
      expect(lines).toEqual(all);
      expect(lines).toHaveLength(14);
      const tail = await fetch(`${s.url}/v1/drafts/replay/events?after=10`, { headers: { authorization: `Bearer ${s.admin.token}`, accept: 'application/x-ndjson' } });
      expect((await tail.text()).trim().split('\n').map((l) => (JSON.parse(l) as { version: number }).version)).toEqual([11, 12, 13, 14]);
    });

    it('NDJSON over several pages: every step once, in order, up to the announced head; a hole aborts the stream instead of ending it cleanly', async () => {
      await s.admin.createDraft('long-log', 'Long');
      const n = 12_345; // pages of 5,000 rendered two ahead: three pages, the last one short
      for (let v = (await s.admin.getDraft('long-log')).version; v < n; v += 2000) {
        const steps = Array.from({ length: Math.min(2000, n - v) }, (_, i) => ({ opId: `l-${v + i}`, bodyHash: 'h', actor: 'admin', actorKind: 'admin', ops: [{ op: 'replace', path: '/title', value: `t${v + i}` }], inverse: [], notes: [], refused: [] }));
        const r = await s.store.append('long-log', v, steps as never);
        expect(r.ok ? 'ok' : JSON.stringify(r.error)).toBe('ok');
      }
      await s.restart(); // the room was open at v1: a fresh one loads the log written under it
      const get = () => fetch(`${s.url}/v1/drafts/long-log/events?format=ndjson&after=7`, { headers: { authorization: `Bearer ${s.admin.token}` } });
      const res = await get();
      expect(res.headers.get('x-weft-head')).toBe(String(n));
      const versions = (await res.text()).trim().split('\n').map((l) => (JSON.parse(l) as { version: number }).version);
      expect(versions).toEqual(Array.from({ length: n - 7 }, (_, i) => i + 8));
      // The SDK reads the same stream step by step.
      const viaSdk: number[] = [];
      for await (const st of s.admin.log('long-log', { after: 7 })) viaSdk.push(st.version);
      expect(viaSdk).toEqual(versions);
      // Damage under the store: a row of the second page gone. The reader must see an error, not a shorter log.
      await s.db.db.deleteFrom('events').where('draft_id', '=', 'long-log').where('version', '=', 6000).execute();
      const cut = await get();
      expect(cut.status).toBe(200); // the head of the stream was already out
      await expect(cut.text()).rejects.toThrow();
      // The SDK resumes after the last step it saw, meets the hole again, and says so after its retries.
      const sdk = new WeftHttpClient(s.url, s.admin.token, { retries: 2, backoffMs: 5 });
      const seen: number[] = [];
      await expect((async () => { for await (const st of sdk.log('long-log')) seen.push(st.version); })()).rejects.toThrow(/UNAVAILABLE: the log of "long-log" was cut after v5000 \(of v12345\) 3 times/);
      expect(seen).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1)); // every step of the whole pages before the hole, once
    });
    it('a version in a query string is digits only: empty, hex, signed, fractional or past 2^53 is a 400 naming /version, never another version', async () => {
      await s.admin.createDraft('versions', 'Versions');
      for (const v of ['', '0x2', '+1', ' 1', '1.0', '1e0', '99999999999999999999', '9007199254740993']) {
        const res = await fetch(`${s.url}/v1/drafts/versions?version=${encodeURIComponent(v)}`, { headers: { authorization: `Bearer ${s.admin.token}` } });
        expect([v, res.status, ((await res.json()) as { error?: { code: string; path: string } }).error]).toEqual([v, 400, expect.objectContaining({ code: 'BAD_REQUEST', path: '/version' })]);
      }
      const ok = await fetch(`${s.url}/v1/drafts/versions?version=1`, { headers: { authorization: `Bearer ${s.admin.token}` } });
      expect(((await ok.json()) as { version: number }).version).toBe(1);
    });

    it('reading the log never loads the draft: rows for a reader, not a room (a full replay for a draft without a snapshot)', async () => {
      await s.admin.createDraft('rows-only', 'Rows');
      await s.admin.submit('rows-only', { opId: 'ro-1', ops: [{ op: 'replace', path: '/title', value: 'Rows 2' }] });
      await s.restart();
      const open = async () => Number(/^weft_rooms_open (\d+)$/m.exec(await (await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${s.admin.token}` } })).text())![1]);
      expect(await open()).toBe(0);
      const page = await s.admin.events('rows-only', 0, 10);
      expect([page.head, page.steps.map((x) => x.version)]).toEqual([2, [1, 2]]);
      const res = await fetch(`${s.url}/v1/drafts/rows-only/events?format=ndjson`, { headers: { authorization: `Bearer ${s.admin.token}` } });
      expect(res.headers.get('x-weft-head')).toBe('2');
      expect((await res.text()).trim().split('\n')).toHaveLength(2);
      expect(await open()).toBe(0);
      const missing = await fetch(`${s.url}/v1/drafts/no-such/events`, { headers: { authorization: `Bearer ${s.admin.token}` } });
      expect([missing.status, ((await missing.json()) as { error: { code: string } }).error.code]).toEqual([404, 'NOT_FOUND']);
    });
  });

  describe('SSE stream of AG-UI events', () => {
    /** The stream's event types (CUSTOM by name) up to the first RUN_FINISHED, without snapshots and activity entries; `.stop()` after. */
    const turnEvents = (): { types: Promise<string[]>; stop(): void } => {
      const ac = new AbortController();
      const types = (async () => {
        const out: string[] = [];
        for await (const e of s.admin.stream('page', { signal: ac.signal })) {
          const t = e.event.type === 'CUSTOM' ? `CUSTOM:${e.event.name}` : e.event.type;
          // Activity entries (the turn's request entries) ride on the same stream, written after the fact.
          if (t !== 'STATE_SNAPSHOT' && t !== 'CUSTOM:weft.activity') out.push(t);
          if (t === 'RUN_FINISHED') break;
        }
        return out;
      })();
      return { types, stop: () => ac.abort() };
    };

    it('agent turns are RUN_STARTED … RUN_FINISHED; a step refused whole still shows its refusal', async () => {
      const agent = await s.as('turn-sse', { page: ['write'] }, 'agent');
      const events = turnEvents();
      await new Promise((r) => setTimeout(r, 100));
      await agent.submit('page', { opId: 'ts-1', turnId: 'sse-turn', ops: titleOp('turn') });
      await agent.submit('page', { opId: 'ts-2', turnId: 'sse-turn', ops: [{ op: 'replace', path: '/sections/nope/catalog', value: 'x' }] });
      const fin = await agent.finishTurn('page', 'sse-turn');
      expect(fin.summary['ops']).toBe(1);
      expect(fin.summary['refused']).toBe(1); // the op held for a section that never came, refused at the turn's end, counts in its turn
      expect(await events.types).toEqual(['RUN_STARTED', 'STATE_DELTA', 'CUSTOM:weft.refused', 'RUN_FINISHED']);
      events.stop();
    });

    it('a turn that starts with a step refused whole: RUN_STARTED before its refusal, and RUN_FINISHED counts it', async () => {
      const agent = await s.as('turn-refused-first', { page: ['write'] }, 'agent');
      const events = turnEvents();
      await new Promise((r) => setTimeout(r, 100));
      await agent.submit('page', { opId: 'rf-1', turnId: 'refused-first', ops: [{ op: 'remove', path: '/nothing' }, { op: 'replace', path: '/title', value: 42 }] });
      await agent.submit('page', { opId: 'rf-2', turnId: 'refused-first', ops: titleOp('after the refusal') });
      const fin = await agent.finishTurn('page', 'refused-first');
      expect(await events.types).toEqual(['RUN_STARTED', 'CUSTOM:weft.refused', 'STATE_DELTA', 'RUN_FINISHED']);
      events.stop();
      expect(fin.summary).toMatchObject({ steps: 1, ops: 1, refused: 2 });
    });

    it('STATE_SNAPSHOT first, then STATE_DELTA per version; Last-Event-ID resumes with no gap', async () => {
      const ac = new AbortController();
      const seen: { version: number | null; event: AgUiEvent }[] = [];
      const reader = (async () => {
        for await (const e of s.admin.stream('page', { signal: ac.signal })) {
          seen.push(e);
          if (seen.filter((x) => x.event.type === 'STATE_DELTA').length >= 3) break;
        }
      })();
      await new Promise((r) => setTimeout(r, 100));
      const start = (await s.admin.getDraft('page')).version;
      for (let i = 0; i < 3; i++) await s.admin.submit('page', { opId: `sse-${i}`, ops: titleOp(`s${i}`) });
      await reader;
      ac.abort();
      expect(seen[0]!.event.type).toBe('STATE_SNAPSHOT');
      const deltas = seen.filter((x) => x.event.type === 'STATE_DELTA');
      expect(deltas.map((d) => d.version)).toEqual([start + 1, start + 2, start + 3]);

      // Resume from the first delta: the next two come from the log, in order, then live.
      const ac2 = new AbortController();
      const resumed: number[] = [];
      for await (const e of s.admin.stream('page', { lastEventId: start + 1, signal: ac2.signal })) {
        if (e.event.type === 'STATE_DELTA') resumed.push(e.version!);
        if (resumed.length === 2) break;
      }
      ac2.abort();
      expect(resumed).toEqual([start + 2, start + 3]);
    });
  });
});

function title(d: { draft: { sections: Record<string, { components: Record<string, { props?: Record<string, unknown> }> }> } }): unknown {
  return d.draft.sections['hero']!.components['title']!.props!['text'];
}
