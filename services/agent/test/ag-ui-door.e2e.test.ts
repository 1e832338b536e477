// POST /agent/ag-ui driven by the official AG-UI client, as an AG-UI front end drives an agent:
// an HttpAgent with the draft as its thread and the brief as a user message, against the launcher
// (session + agent) and a fake OpenAI-compatible model. One run comes back that the client's own
// checks accept; its messages hold the model's note and step, its state is the draft as served.
import type { ChildProcess } from 'node:child_process';
import { HttpAgent } from '@ag-ui/client';
import { WeftHttpClient } from '@weft/client';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeModel, startSession, stopStack } from './services.ts';

const ADMIN = 'ag-ui-door-e2e-admin';
const HERO = {
  id: 'hero', kind: 'surface', catalog: 'weft@1', data: {},
  components: {
    root: { id: 'root', component: 'Stack', children: ['title'] },
    title: { id: 'title', component: 'Heading', props: { text: 'Coffee, monthly', level: 1 } },
  },
};
const ANSWER = [
  '{"say":"A hero for the club."}',
  JSON.stringify({ ops: [{ op: 'add', path: '/sections/hero', value: HERO }] }),
  '{"done":true}',
].join('\n');

describe('POST /agent/ag-ui through @ag-ui/client', () => {
  let db: TestDatabase;
  let session: { url: string; proc: ChildProcess };
  let model: Awaited<ReturnType<typeof fakeModel>>;
  let ana: WeftHttpClient;
  beforeAll(async () => {
    model = await fakeModel([ANSWER]);
    db = await createTestDatabase();
    session = await startSession(db, ADMIN, { WEFT_MODEL_URL: model.url, WEFT_MODEL: 'recorded' });
    const admin = new WeftHttpClient(session.url, ADMIN);
    await admin.createDraft('club', 'Coffee club');
    const { token } = await admin.mintToken({ actor: { id: 'ana', kind: 'human' }, scopes: { club: ['read', 'write'] } });
    ana = new WeftHttpClient(session.url, token);
  }, 60_000);
  afterAll(async () => { await stopStack({ session, model, db }); });

  it('an HttpAgent runs a brief on an empty draft: one valid run, the note and the step as messages, state = the draft', async () => {
    const agent = new HttpAgent({ url: `${session.url}/agent/ag-ui`, headers: { authorization: `Bearer ${ana.token}` }, threadId: 'club' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'A hero for a coffee club' });
    const failures: unknown[] = [];
    const types: string[] = [];
    agent.subscribe({ onRunFailed: ({ error }) => { failures.push(error); }, onEvent: ({ event }) => { types.push(event.type); } });
    await agent.runAgent({ runId: 'ui-run-1' });
    expect(failures).toEqual([]);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    const served = (await ana.getDraft('club')).draft;
    expect(served.order).toEqual(['hero']);
    expect(agent.state).toEqual(served);
    const said = agent.messages.filter((m) => m.role === 'assistant');
    expect(said.some((m) => typeof m.content === 'string' && m.content.includes('A hero for the club.'))).toBe(true);
    expect(said.flatMap((m) => ('toolCalls' in m && m.toolCalls ? m.toolCalls : [])).map((c) => c.function.name)).toContain('patch_draft');
    // The same run is the draft's: kept with it, under the agent's turn.
    const runs = (await (await fetch(`${session.url}/v1/drafts/club/runs`, { headers: { authorization: `Bearer ${ana.token}` } })).json()) as { runs: { status: string; brief: string }[] };
    expect(runs.runs[0]).toMatchObject({ status: 'done', brief: 'A hero for a coffee club' });
  });

  it('refuses what is not a RunAgentInput, a brief the token may not write, and a scope not on the page, each with its pointer', async () => {
    const send = async (body: unknown, token = ana.token) => {
      const r = await fetch(`${session.url}/agent/ag-ui`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, error: ((await r.json()) as { error: { code: string; path?: string } }).error };
    };
    const input = (over: Record<string, unknown>) => ({ threadId: 'club', runId: 'r', state: {}, messages: [{ id: 'u', role: 'user', content: 'Make it bold' }], tools: [], context: [], forwardedProps: {}, ...over });
    expect(await send({})).toMatchObject({ status: 400, error: { code: 'BAD_REQUEST', path: '/threadId' } });
    expect(await send(input({ messages: [] }))).toMatchObject({ status: 400, error: { path: '/messages' } });
    expect(await send(input({ threadId: '../x' }))).toMatchObject({ status: 400, error: { path: '/threadId' } });
    expect(await send(input({ forwardedProps: { scope: { sectionId: 'nowhere' } } }))).toMatchObject({ status: 400, error: { path: '/forwardedProps/scope/sectionId' } });
    expect((await send(input({ threadId: 'someone-elses' }))).status).toBe(404);
  });
});
