// "Ask the agent about this" end to end: the launcher (session + /agent/briefs) with a fake
// OpenAI-compatible endpoint; the agent acts with the caller's token as a Yjs peer, in one turn.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { chromium } from 'playwright-core';
import type { ChildProcess } from 'node:child_process';
import { WeftHttpClient, WeftPeer } from '@weft/client';
import type { AgUiEvent } from '@weft/protocol';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentHandler, NO_MODEL_MESSAGE } from '../src/agent-http.ts';
import { fakeModel, startSession, stopStack } from './services.ts';

const ADMIN = 'ask-agent-e2e-admin';
const HERO = {
  id: 'hero', kind: 'surface', catalog: 'weft@1', data: {},
  components: {
    root: { id: 'root', component: 'Stack', props: { align: 'center' }, children: ['title', 'lede'] },
    title: { id: 'title', component: 'Heading', props: { text: 'Fresh beans, every month', level: 1 } },
    lede: { id: 'lede', component: 'Text', props: { text: 'Roasted to order.' } },
  },
};
const ANSWER = [
  '{"say":"A punchier title."}',
  '{"ops":[{"op":"replace","path":"/sections/hero/components/title/props/text","value":"Beans that wake you up"}]}',
  '{"done":true}',
].join('\n');
/** The second model call (the Build view's button): the lede, this time. */
const ANSWER_BROWSER = '{"ops":[{"op":"replace","path":"/sections/hero/components/lede/props/text","value":"Roasted on Monday, at your door on Wednesday."}]}\n{"say":"Made the lede concrete."}';

/** The agent handler alone on a loopback port (404 for anything it does not take). */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => boolean): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (!handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  return { server, url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}` };
}

async function post(url: string, token: string | null, body: unknown): Promise<{ status: number; json: any }> {
  const r = await fetch(`${url}/agent/briefs`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}

describe('POST /agent/briefs', () => {
  let db: TestDatabase;
  let session: { url: string; proc: ChildProcess };
  let model: Awaited<ReturnType<typeof fakeModel>>;
  let admin: WeftHttpClient;
  beforeAll(async () => {
    model = await fakeModel([ANSWER, ANSWER_BROWSER]);
    db = await createTestDatabase();
    session = await startSession(db, ADMIN, { WEFT_MODEL_URL: model.url, WEFT_MODEL: 'recorded', WEFT_SERVICES: 'session,preview' });
    admin = new WeftHttpClient(session.url, ADMIN);
    await admin.createDraft('ask');
    await admin.submit('ask', { opId: 'seed-hero', ops: [{ op: 'add', path: '/sections/hero', value: HERO }, { op: 'add', path: '/order/-', value: 'hero' }] });
  }, 60_000);
  afterAll(async () => {
    await stopStack({ session, model, db });
  });

  it('a scoped brief changes only the scoped component, in one turn on the stream, with the agent\'s presence and ghost', async () => {
    const { token } = await admin.mintToken({ actor: { id: 'ana', kind: 'human' }, scopes: { ask: ['read', 'write'] } });
    const ana = new WeftHttpClient(session.url, token);
    const before = (await ana.getDraft('ask')).draft;

    const watcher = await WeftPeer.join({ url: session.url, draftId: 'ask', token });
    const seen: { name?: unknown; selection?: unknown; ghost?: unknown }[] = [];
    watcher.provider.awareness?.on('change', () => {
      for (const p of watcher.peers()) if (p.presence?.name === 'Agent') seen.push({ name: p.presence.name, selection: p.presence.selection, ghost: p.presence.ghost });
    });
    const ac = new AbortController();
    const events: AgUiEvent[] = [];
    let turnId = '';
    const streamed = (async () => {
      try {
        for await (const { event } of ana.stream('ask', { signal: ac.signal })) {
          events.push(event);
          if (event.type === 'RUN_FINISHED' && (event as { runId?: string }).runId === turnId) break;
        }
      } catch (e) {
        if (!ac.signal.aborted) throw e;
      }
    })();
    const guard = setTimeout(() => ac.abort(), 20_000);
    await new Promise((r) => setTimeout(r, 200));

    const res = await post(session.url, token, { draftId: 'ask', brief: 'Make the title punchier.', scope: { sectionId: 'hero', componentId: 'title' } });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ runId: expect.any(String), turnId: expect.any(String), status: 'running' });
    turnId = res.json.turnId;

    let run: any;
    for (let i = 0; i < 200; i++) {
      run = await (await fetch(`${session.url}/agent/briefs/${res.json.runId}`, { headers: { authorization: `Bearer ${token}` } })).json();
      if (run.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(run.error).toBeNull();
    expect(run.status).toBe('done');
    expect(run.report.stoppedBy).toBe('done');
    expect(run.report.steps.map((s: { status: string }) => s.status)).toEqual(['applied']);
    expect(run.report.finished).not.toBeNull();
    expect(run.report.said).toEqual(['A punchier title.']);

    // Only the scoped component changed.
    const after = (await ana.getDraft('ask')).draft;
    const expected = structuredClone(before);
    expected.sections['hero']!.components['title']!.props!['text'] = 'Beans that wake you up';
    expect(after).toEqual(expected);

    // The model was told the scope: its pointer and its current JSON.
    const user = model.requests.at(-1)!.messages.find((m) => m.role === 'user')!.content;
    expect(user).toContain('Make the title punchier.');
    expect(user).toContain('/sections/hero/components/title');
    expect(user).toContain('"text": "Fresh beans, every month"');

    // One turn on the draft's stream: RUN_STARTED … RUN_FINISHED with the run's turn id.
    await streamed;
    clearTimeout(guard);
    ac.abort();
    const runs = events.filter((e) => e.type === 'RUN_STARTED' || e.type === 'RUN_FINISHED').map((e) => [e.type, (e as { runId?: string }).runId]);
    expect(runs).toEqual([['RUN_STARTED', turnId], ['RUN_FINISHED', turnId]]);
    // The steps are the caller's (the agent acts with the caller's token), in that turn.
    const steps = (await ana.events('ask')).steps.filter((s) => s.turnId === turnId);
    expect(steps.map((s) => s.actor)).toEqual(['ana']);

    // Viewers saw the agent: its presence on the scoped component, and a ghost while writing.
    expect(seen.some((p) => JSON.stringify(p.selection) === JSON.stringify({ sectionId: 'hero', componentId: 'title' }))).toBe(true);
    expect(seen.some((p) => (p.ghost as { op?: { path?: string } } | null)?.op?.path === '/sections/hero/components/title/props/text')).toBe(true);
    watcher.close();

    // Another token does not see the run.
    const other = await fetch(`${session.url}/agent/briefs/${res.json.runId}`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(other.status).toBe(404);
  }, 40_000);

  it('a read-only token is refused 403 and no draft (or no access) 404, as the session refuses, before any model call', async () => {
    const calls = model.requests.length;
    const { token: ro } = await admin.mintToken({ actor: { id: 'reader', kind: 'human' }, scopes: { ask: ['read'] } });
    const r = await post(session.url, ro, { draftId: 'ask', brief: 'Anything.', scope: { sectionId: 'hero' } });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('FORBIDDEN');
    const n = await post(session.url, ro, { draftId: 'elsewhere', brief: 'Anything.' });
    expect(n.status).toBe(404);
    expect(n.json.error.code).toBe('NOT_FOUND');
    expect((await post(session.url, null, { draftId: 'ask', brief: 'x' })).status).toBe(401);
    expect((await post(session.url, ro, { draftId: 'ask' })).json.error.code).toBe('BAD_REQUEST');
    expect(model.requests.length).toBe(calls);
  });

  it('the Build view\'s button scopes the Build chat to the selected component; the chat shows the run and the preview the change', async () => {
    const { token } = await admin.mintToken({ actor: { id: 'bea', kind: 'human' }, scopes: { ask: ['read', 'write'] } });
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 880 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${session.url}/build/ask`);
      await page.fill('#wb-token', token);
      await page.press('#wb-token', 'Enter');
      await page.click('#wb-outline [data-key="hero/lede"]', { timeout: 15_000 });
      await page.waitForSelector('#wb-inspector .wb-insp-head code:text-is("lede")');
      await page.click('#wb-ask');
      await page.waitForSelector('#wb-chat-scope:has-text("Text “lede” in section hero")');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('wb-chat-brief');
      await page.fill('#wb-chat-brief', 'Make the lede concrete.');
      await page.click('#wb-chat-build');
      await page.waitForSelector('#wb-chat-log .wb-chip:has-text("scoped to Text “lede” in section hero")', { timeout: 10_000 });
      await page.waitForSelector('#wb-chat-log [data-summary]:has-text("Done: 1 step written, 1 round")', { timeout: 15_000 });
      await page.waitForSelector('#wb-chat-log .wb-msg-agent:has-text("Made the lede concrete.")');
      await page.waitForSelector('#wb-feed .wb-item:has-text("turn finished")');
      await page.frameLocator('#wb-frame').locator('[data-component-id="lede"]:has-text("Roasted on Monday")').waitFor({ timeout: 10_000 });
      const user = model.requests.at(-1)!.messages.find((m) => m.role === 'user')!.content;
      expect(user).toContain('/sections/hero/components/lede');
      expect(user).toContain('Make the lede concrete.');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 50_000);

  it('is bounded: a second run beyond maxRuns gets 429, and a run past its time limit stops, finishing its turn', async () => {
    const { token } = await admin.mintToken({ actor: { id: 'cy', kind: 'human' }, scopes: { ask: ['read', 'write'] } });
    // A model that writes one step, then never ends until the run's signal aborts it.
    const stuck = (signal: AbortSignal) => async function* () {
      yield '{"ops":[{"op":"replace","path":"/sections/hero/components/title/props/level","value":2}]}\n';
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    };
    const handle = agentHandler({ sessionUrl: session.url, model: null, complete: stuck, maxRuns: 1, timeLimitMs: 1500 });
    const { server, url } = await serve(handle);
    try {
      const first = await post(url, token, { draftId: 'ask', brief: 'Smaller title.', scope: { sectionId: 'hero', componentId: 'title' } });
      expect(first.status).toBe(202);
      const second = await post(url, token, { draftId: 'ask', brief: 'Again.' });
      expect(second.status).toBe(429);
      expect(second.json.error.code).toBe('RATE_LIMITED');
      await handle.idle();
      const run = await (await fetch(`${url}/agent/briefs/${first.json.runId}`, { headers: { authorization: `Bearer ${token}` } })).json();
      expect(run.status).toBe('failed');
      expect(run.error.message).toContain('longer than 1500 ms');
      // The step written before the limit stays, and its turn was finished (RUN_FINISHED).
      const steps = (await admin.events('ask', 0, 1000)).steps.filter((st) => st.turnId === first.json.turnId);
      expect(steps).toHaveLength(1);
      expect((await admin.getDraft('ask')).draft.sections['hero']!.components['title']!.props!['level']).toBe(2);
      // Finished already: the session has no open turn by that id any more.
      await expect(admin.finishTurn('ask', first.json.turnId)).rejects.toMatchObject({ status: 404 });
      expect((await post(url, token, { draftId: 'ask', brief: 'Now there is room.' })).status).toBe(202);
      await handle.idle();
    } finally {
      server.close();
    }
  }, 30_000);
});

describe('POST /agent/briefs without a model endpoint', () => {
  it('answers 503 UNAVAILABLE saying what to configure', async () => {
    const handle = agentHandler({ sessionUrl: 'http://127.0.0.1:9', model: null });
    const { server, url } = await serve(handle);
    try {
      const r = await post(url, 'any-token', { draftId: 'ask', brief: 'x' });
      expect(r.status).toBe(503);
      expect(r.json).toEqual({ error: { code: 'UNAVAILABLE', message: NO_MODEL_MESSAGE } });
      expect(NO_MODEL_MESSAGE).toContain('WEFT_MODEL_URL');
      expect((await fetch(`${url}/other`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
