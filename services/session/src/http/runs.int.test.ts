// The agent-run door over HTTP (docs/api.md "Agent runs") on real Postgres: who may open and
// report, what a report may hold (hostile input refused whole, with every pointer, nothing
// kept), the transcript as stored, Stop, the end, and a restart ending a run left running.
import fc from 'fast-check';
import { EventSchemas } from '@ag-ui/core/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeftHttpClient } from '@weft/client';
import { startTestSession } from '../../test/helpers.ts';
import type { TestSession } from '../../test/helpers.ts';

let t: TestSession;
let ana: WeftHttpClient;
let reader: WeftHttpClient;
let bo: WeftHttpClient;
beforeAll(async () => {
  t = await startTestSession();
  await t.admin.createDraft('runs');
  ana = await t.as('ana', { runs: ['read', 'write'] });
  bo = await t.as('bo', { runs: ['read', 'write'] });
  reader = await t.as('rae', { runs: ['read'] });
}, 60_000);
afterAll(async () => { await t?.close(); });

const call = async (c: WeftHttpClient, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
  const r = await fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
  return { status: r.status, json: await r.json() };
};
const report = (c: WeftHttpClient, runId: string, events: unknown[]) => call(c, 'POST', `/v1/drafts/runs/runs/${runId}/events`, { events });

describe('agent runs over HTTP', () => {
  it('opens a run (write only), takes reports from its own actor only, keeps complete parts merged, ends it once', async () => {
    expect((await call(reader, 'POST', '/v1/drafts/runs/runs', { runId: 'r1', brief: 'A bakery' })).status).toBe(403);
    expect((await call(reader, 'POST', '/v1/drafts/runs/runs', { brief: 7 })).status).toBe(403); // who first, then what: no 400 for a reader
    expect((await call(ana, 'POST', '/v1/drafts/nope/runs', { runId: 'r1', brief: 'x' })).status).toBe(404);
    for (const bad of [{ runId: '../x', brief: 'x' }, { runId: 'r1', brief: '' }, { runId: 'r1', brief: 'a\u0000b' }, { runId: 'r1', brief: 'x', scope: { sectionId: 5 } }, 'null', '[]']) {
      const r = await call(ana, 'POST', '/v1/drafts/runs/runs', bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.json.error.code).toBe('BAD_REQUEST');
    }
    const opened = await call(ana, 'POST', '/v1/drafts/runs/runs', { runId: 'r1', brief: 'A bakery', scope: { sectionId: 'hero' }, model: 'm' });
    expect(opened.status).toBe(201);
    expect(opened.json).toMatchObject({ runId: 'r1', status: 'running', actor: 'ana' });
    expect((await call(ana, 'POST', '/v1/drafts/runs/runs', { runId: 'r1', brief: 'again' })).status).toBe(409);

    // Someone else's run: not found, and nothing of it changes.
    expect((await report(bo, 'r1', [])).status).toBe(404);
    const ok1 = await report(ana, 'r1', [
      { type: 'TEXT_MESSAGE_START', messageId: 'n1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n1', delta: 'Hel' },
      { type: 'TOOL_CALL_START', toolCallId: 's1', toolCallName: 'patch_draft' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 's1', delta: '{"ops":' },
    ]);
    expect(ok1).toMatchObject({ status: 200, json: { cancel: false, summary: null } });
    // Hostile: refused whole with every pointer; what came before stays as it was.
    const bad = await report(ana, 'r1', [
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n1', delta: 'lo' },
      { type: 'STATE_DELTA', delta: [{ op: 'remove', path: '/sections' }] },
      { type: 'CUSTOM', name: 'weft.refused', value: [] },
      { type: 'TEXT_MESSAGE_END', messageId: 'n1', chainOfThought: 'secret' },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.json.error.errors.map((e: { path: string }) => e.path)).toEqual(['/events/1/type', '/events/2/name', '/events/3/chainOfThought']);
    expect((await call(ana, 'POST', '/v1/drafts/runs/runs/r1/events', '{"events":[')).status).toBe(400);
    expect((await report(ana, 'r1', [{ type: 'TEXT_MESSAGE_CONTENT', messageId: 'never-opened', delta: 'x' }])).status).toBe(400);
    const ok2 = await report(ana, 'r1', [
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n1', delta: 'lo' },
      { type: 'TEXT_MESSAGE_END', messageId: 'n1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 's1', delta: '[]}' },
      { type: 'TOOL_CALL_END', toolCallId: 's1' },
      { type: 'TOOL_CALL_RESULT', messageId: 's1-r', toolCallId: 's1', content: '{"steps":[]}', role: 'tool' },
      { type: 'CUSTOM', name: 'weft.ghost', value: { id: 's2', label: 'a Card', outline: [], path: null } },
      { type: 'TOOL_CALL_START', toolCallId: 's2', toolCallName: 'patch_draft' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 's2', delta: '{"ops":[{"op":"add","pa' },
      { type: 'RUN_FINISHED', result: { rounds: 1 } },
    ]);
    expect(ok2.status).toBe(200);
    expect(ok2.json.summary).toMatchObject({ steps: 0, ops: 0 });
    expect((await report(ana, 'r1', [])).status).toBe(404); // ended: no longer running

    const run = (await call(reader, 'GET', '/v1/drafts/runs/runs/r1')).json;
    expect(run).toMatchObject({ status: 'done', result: { rounds: 1, steps: 0 }, scope: { sectionId: 'hero' }, model: 'm' });
    // Merged parts, the cut step and the ghost not kept; every stored event is AG-UI.
    expect(run.events.map((e: { type: string }) => e.type)).toEqual(['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT', 'RUN_FINISHED']);
    expect(run.events[2].delta).toBe('Hello');
    expect(run.events[5].delta).toBe('{"ops":[]}');
    expect(run.events[0].input.messages[0].content).toBe('A bakery');
    for (const e of run.events) expect(EventSchemas.safeParse(e).success, e.type).toBe(true);
    expect(run.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', threadId: 'runs', runId: 'r1' });
  });

  it('Stop: any writer asks, the agent hears it in its next report and ends the run cancelled', async () => {
    await call(ana, 'POST', '/v1/drafts/runs/runs', { runId: 'r2', brief: 'Long' });
    expect((await call(reader, 'POST', '/v1/drafts/runs/runs/r2/cancel')).status).toBe(403);
    expect((await call(bo, 'POST', '/v1/drafts/runs/runs/r2/cancel')).status).toBe(202);
    expect((await call(bo, 'POST', '/v1/drafts/runs/runs/zz/cancel')).status).toBe(404);
    expect((await report(ana, 'r2', [])).json.cancel).toBe(true);
    await report(ana, 'r2', [{ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } }]);
    const list = (await call(reader, 'GET', '/v1/drafts/runs/runs')).json.runs;
    expect(list.map((r: { runId: string; status: string }) => `${r.runId}:${r.status}`).slice(0, 2)).toEqual(['r2:cancelled', 'r1:done']);
    expect((await call(bo, 'POST', '/v1/drafts/runs/runs/r2/cancel')).status).toBe(404);
  });

  it('the run\'s own Lynx-style stream follows a live run: its transcript so far, then delta … repair … done', async () => {
    await call(ana, 'POST', '/v1/drafts/runs/runs', { runId: 'lx', brief: 'Live' });
    await report(ana, 'lx', [{ type: 'TEXT_MESSAGE_START', messageId: 'n', role: 'assistant' }, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n', delta: 'Writing' }, { type: 'TEXT_MESSAGE_END', messageId: 'n' }]);
    const res = await fetch(`${t.url}/v1/drafts/runs/runs/lx/stream`, { headers: { authorization: `Bearer ${reader.token}` } });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = res.text();
    await report(ana, 'lx', [
      { type: 'TOOL_CALL_START', toolCallId: 's', toolCallName: 'patch_draft' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 's', delta: '{"ops":[{"op":"replace","path":"/title","value":"T"}]}' },
      { type: 'TOOL_CALL_END', toolCallId: 's' },
      { type: 'TOOL_CALL_RESULT', messageId: 's-r', toolCallId: 's', content: JSON.stringify({ steps: [{ status: 'refused', held: false, repairs: [], refused: [{ path: '/title', message: 'no' }] }] }), role: 'tool' },
    ]);
    await report(ana, 'lx', [{ type: 'RUN_FINISHED' }]);
    const frames = (await text).split('\n\n').filter(Boolean).map((f) => ({ event: /^event: (.*)$/m.exec(f)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(f)![1]!) }));
    expect(frames.map((f) => f.event)).toEqual(['delta', 'delta', 'repair', 'done']);
    expect(frames[0]!.data).toEqual({ text: 'Writing', messageId: 'n' });
    expect(frames[2]!.data.steps[0].refused[0].path).toBe('/title');
    expect(frames[3]!.data).toMatchObject({ runId: 'lx', outcome: 'success', steps: [{ status: 'refused' }], draft: { id: 'runs' } });
    // An unknown run is 404; a read token may follow.
    expect((await fetch(`${t.url}/v1/drafts/runs/runs/none/stream`, { headers: { authorization: `Bearer ${reader.token}` } })).status).toBe(404);
  });

  it('never answers 500 to a fuzzed report', async () => {
    await call(ana, 'POST', '/v1/drafts/runs/runs', { runId: 'fz', brief: 'fuzz' });
    await fc.assert(fc.asyncProperty(fc.array(fc.oneof(fc.anything(), fc.record({ type: fc.constantFrom('TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TOOL_CALL_ARGS', 'CUSTOM', 'TOOL_CALL_RESULT'), messageId: fc.string(), toolCallId: fc.string(), delta: fc.string(), role: fc.string(), name: fc.string(), value: fc.anything() }, { requiredKeys: ['type'] })), { maxLength: 8 }), async (events) => {
      const r = await report(ana, 'fz', events);
      expect([200, 400]).toContain(r.status);
    }), { numRuns: 60 });
  }, 60_000);

  it('a restart ends a run its process left running, with RUN_ERROR in its transcript', async () => {
    await call(ana, 'POST', '/v1/drafts/runs/runs', { runId: 'r3', brief: 'Interrupted' });
    await report(ana, 'r3', [{ type: 'TEXT_MESSAGE_START', messageId: 'n', role: 'assistant' }, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n', delta: 'half' }]);
    await t.restart();
    let run: any;
    for (let i = 0; i < 50; i++) {
      run = (await call(reader, 'GET', '/v1/drafts/runs/runs/r3')).json;
      if (run.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(run).toMatchObject({ status: 'failed', error: { code: 'UNAVAILABLE' } });
    expect(run.events.map((e: { type: string }) => e.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
  });
});
