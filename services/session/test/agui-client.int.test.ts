// The draft stream read by the official AG-UI client as its users read it: an HttpAgent (its own
// SSE parser, lifecycle checks and state applier) on GET …/stream?as=run keeps agent.state equal
// to the draft while people edit and an agent run (begun before the reader came) streams on it.
// The plain stream is refused by that client — its first event is not RUN_STARTED — which is
// what ?as=run is for.
import { HttpAgent } from '@ag-ui/client';
import type { RunAgentInput } from '@ag-ui/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeftHttpClient } from '@weft/client';
import { addSectionOps, startTestSession } from './helpers.ts';
import type { TestSession } from './helpers.ts';

/** HttpAgent POSTs a RunAgentInput; the draft stream is a GET with the token (its only change). */
class DraftFollower extends HttpAgent {
  protected override requestInit(_input: RunAgentInput): RequestInit {
    return { method: 'GET', headers: { ...this.headers, accept: 'text/event-stream' }, signal: this.abortController.signal };
  }
}

let t: TestSession;
let ana: WeftHttpClient;
beforeAll(async () => {
  t = await startTestSession();
  ana = await t.as('ana', { '*': ['read', 'write'] });
}, 60_000);
afterAll(async () => { await t?.close(); });

const call = async (path: string, body: unknown): Promise<number> =>
  (await fetch(`${t.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ana.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })).status;

describe('the draft stream through @ag-ui/client', () => {
  it('?as=run: an HttpAgent follows the draft (agent.state = GET) through edits, undo and a run it joined midway', async () => {
    await ana.createDraft('follow', 'Follow me');
    await ana.submit('follow', { opId: 'f-1', ops: addSectionOps('hero') });
    // A run that began before the reader came: its message is open when the reader joins.
    expect(await call('/v1/drafts/follow/runs', { runId: 'r1', brief: 'A bakery' })).toBe(201);
    expect(await call('/v1/drafts/follow/runs/r1/events', { events: [{ type: 'TEXT_MESSAGE_START', messageId: 'n1', role: 'assistant' }, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n1', delta: 'Build' }] })).toBe(200);

    const agent = new DraftFollower({ url: `${t.url}/v1/drafts/follow/stream?as=run`, headers: { authorization: `Bearer ${ana.token}` } });
    const failures: unknown[] = [];
    const seen: string[] = [];
    agent.subscribe({ onRunFailed: ({ error }) => { failures.push(error); }, onEvent: ({ event }) => { seen.push(event.type); } });
    const running = agent.runAgent().then(() => null, (e: unknown) => e);
    const state = () => agent.state as { title?: string; order?: string[] };
    await expect.poll(() => state().title, { timeout: 5000 }).toBe('Follow me');

    expect(await call('/v1/drafts/follow/runs/r1/events', { events: [{ type: 'TEXT_MESSAGE_CONTENT', messageId: 'n1', delta: 'ing' }, { type: 'TEXT_MESSAGE_END', messageId: 'n1' }, { type: 'RUN_FINISHED', result: { rounds: 1 } }] })).toBe(200);
    await ana.submit('follow', { opId: 'f-2', ops: [{ op: 'replace', path: '/title', value: 'Followed' }] });
    await ana.submit('follow', { opId: 'f-3', ops: addSectionOps('faq') });
    await ana.undo('follow');
    const served = (await ana.getDraft('follow')).draft;
    await expect.poll(() => JSON.stringify(agent.state), { timeout: 5000 }).toBe(JSON.stringify(served));
    expect(state().title).toBe('Followed');

    agent.abortRun();
    expect(await running).toBeNull();
    expect(failures).toEqual([]);
    // The client saw one run: RUN_STARTED first, the draft as STATE_SNAPSHOT, then deltas; the
    // agent run's own lifecycle rode inside CUSTOM weft.run.event.
    expect(seen.slice(0, 2)).toEqual(['RUN_STARTED', 'STATE_SNAPSHOT']);
    expect(seen.filter((s) => s === 'RUN_STARTED' || s === 'RUN_FINISHED' || s.startsWith('TEXT_MESSAGE'))).toEqual(['RUN_STARTED']);
    expect(seen.filter((s) => s === 'STATE_DELTA')).toHaveLength(3);
  });

  it('the plain stream is a feed of many runs, which that client refuses; ?as= takes only "run"', async () => {
    await ana.createDraft('plain', 'Plain');
    const agent = new DraftFollower({ url: `${t.url}/v1/drafts/plain/stream`, headers: { authorization: `Bearer ${ana.token}` } });
    agent.subscribe({ onRunFailed: () => {} });
    const out = await agent.runAgent().then(() => null, (e: unknown) => e);
    expect(String(out)).toContain("First event must be 'RUN_STARTED'");
    const bad = await fetch(`${t.url}/v1/drafts/plain/stream?as=runs`, { headers: { authorization: `Bearer ${ana.token}` } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: unknown }).error).toEqual({ code: 'BAD_REQUEST', path: '/as', message: 'as must be "run" (the stream as one AG-UI run), or left out.' });
  });
});
