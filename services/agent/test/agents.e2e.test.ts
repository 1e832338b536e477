// The reference agents against the real session service (spawned through the launcher on a test
// Postgres database) and a local fake OpenAI-compatible endpoint that replays recorded answers.
import type { ChildProcess } from 'node:child_process';
import { WeftHttpClient, WeftPeer } from '@weft/client';
import type { AgUiEvent } from '@weft/protocol';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANDING_SCRIPT } from '../src/landing-script.ts';
import { buildFromBrief } from '../src/model-builder.ts';
import { chatCompletions } from '../src/model-client.ts';
import { parseModelConfig } from '../src/model-config.ts';
import { catalogPromptText } from '../src/prompt.ts';
import { runScript } from '../src/scripted-builder.ts';
import { HttpBuildTransport, PeerBuildTransport } from '../src/transport.ts';
import { loadCorpus, mismatches } from './corpus.ts';
import { fakeModel, startSession, stopStack } from './services.ts';

const ADMIN = 'agents-e2e-admin';

/** Collects the draft's AG-UI events until RUN_FINISHED of `runId()`. */
function collectRun(client: WeftHttpClient, draftId: string): { done: Promise<AgUiEvent[]>; runId: { value: string } } {
  const runId = { value: '' };
  const ac = new AbortController();
  const done = (async () => {
    const seen: AgUiEvent[] = [];
    try {
      for await (const { event } of client.stream(draftId, { signal: ac.signal })) {
        seen.push(event);
        if (event.type === 'RUN_FINISHED' && (event as { runId?: string }).runId === runId.value) break;
      }
    } catch (e) {
      if (!ac.signal.aborted) throw e;
    } finally {
      ac.abort();
    }
    return seen;
  })();
  setTimeout(() => ac.abort(), 3_000).unref();
  return { done, runId };
}

describe('reference agents against the session (HTTP door)', () => {
  let db: TestDatabase;
  let session: { url: string; proc: ChildProcess };
  let admin: WeftHttpClient;
  beforeAll(async () => {
    db = await createTestDatabase();
    session = await startSession(db, ADMIN);
    admin = new WeftHttpClient(session.url, ADMIN);
  });
  afterAll(async () => {
    await stopStack({ session, db });
  });

  const agentClient = async (draftId: string): Promise<WeftHttpClient> => {
    await admin.createDraft(draftId);
    const { token } = await admin.mintToken({ actor: { id: `bot-${draftId}`, kind: 'agent' }, scopes: { [draftId]: ['read', 'write'] } });
    return new WeftHttpClient(session.url, token);
  };

  it('the scripted builder builds the landing page: one typo repaired, one step refused then fixed', async () => {
    const c = await agentClient('script');
    const t = await new HttpBuildTransport(c, 'script').open();
    const events = await runScript(t, LANDING_SCRIPT);
    await t.close();
    expect(events.map((e) => (e.result.refused.length ? 'refused' : e.result.repairs.some((n) => n.rule === 'snapped_name') ? 'repaired' : 'applied'))).toEqual(LANDING_SCRIPT.map((s) => s.expect));
    const { draft } = await c.getDraft('script');
    expect(draft.order).toEqual(['hero', 'features', 'pricing', 'faq', 'cta']);
  });

  it('the scripted builder also runs as a Yjs peer, with presence and a ghost while writing', async () => {
    const c = await agentClient('peer');
    const peer = await WeftPeer.join({ url: session.url, draftId: 'peer', token: c.token });
    const watcher = await WeftPeer.join({ url: session.url, draftId: 'peer', token: c.token });
    const t = new PeerBuildTransport(peer);
    const ghosts: unknown[] = [];
    watcher.provider.awareness?.on('change', () => {
      for (const p of watcher.peers()) if (p.presence?.ghost) ghosts.push(p.presence.ghost);
    });
    const events = await runScript(t, LANDING_SCRIPT, { pauseMs: 30 });
    expect(events.filter((e) => e.result.refused.length > 0).map((e) => e.index)).toEqual([LANDING_SCRIPT.findIndex((s) => s.expect === 'refused')]);
    await new Promise((r) => setTimeout(r, 200));
    expect(watcher.draft().order).toEqual(['hero', 'features', 'pricing', 'faq', 'cta']);
    expect(ghosts.length).toBeGreaterThan(0);
    await t.close();
    watcher.close();
  });

  it('the model builder streams a recorded answer into one turn, sends emission defects back (contract violations as final), and builds the intended page', async () => {
    const corpus = loadCorpus();
    const typos = corpus.find((c) => c.name.startsWith('10-'))!;
    // The recorded answer (its stalls section breaks the catalog: final) plus a step whose pointer
    // lacks its leading "/" (an emission defect: asked again, and fixed in the second answer).
    const faq = (path: string) => `{"ops":[{"op":"add","path":"${path}","value":{"id":"faq","kind":"surface","catalog":"weft@1","data":{},"components":{"root":{"id":"root","component":"Heading","props":{"text":"Questions"}}}}}]}`;
    const model = await fakeModel([`${typos.answer}\n${faq('sections/faq')}`, faq('/sections/faq')]);
    const c = await agentClient('model');
    const t = await new HttpBuildTransport(c, 'model').open();
    const cfg = parseModelConfig({ WEFT_MODEL_URL: model.url, WEFT_MODEL: 'recorded' });
    if (!cfg.ok) throw new Error(cfg.error);
    const run = collectRun(c, 'model');
    run.runId.value = 'turn-model-e2e';
    const report = await buildFromBrief({ brief: 'A night market page.', transport: t, complete: chatCompletions(cfg.value), systemPrompt: catalogPromptText(), turnId: 'turn-model-e2e' });
    await t.close();
    model.server.close();

    expect(report.stoppedBy).toBe('done');
    expect(report.rounds).toBe(2);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]!.stream).toBe(true);
    expect(model.requests[0]!.messages[0]!.role).toBe('system');
    expect(model.requests[1]!.messages.at(-1)!.content).toMatch(/sections\/faq \(invalid_pointer\)[^]*final[^]*\/sections\/stalls\/components\/root\/props \(invalid_props\)/);
    expect(report.steps.flatMap((s) => s.refused.map((r) => [r.rule, r.kind]))).toEqual([['invalid_props', 'contract'], ['invalid_pointer', 'emission']]);
    const { draft } = await c.getDraft('model');
    expect(mismatches(draft, { ...typos.expect, order: [...typos.expect.order, 'faq'] })).toEqual([]);

    // One turn: RUN_STARTED on the stream, RUN_FINISHED through the finish route with its summary.
    expect(report.finished).not.toBeNull();
    expect(report.finished!['ops']).toBeGreaterThanOrEqual(4);
    const events = await run.done;
    const started = events.filter((e) => e.type === 'RUN_STARTED') as unknown as { runId: string }[];
    expect(started.map((e) => e.runId)).toEqual(['turn-model-e2e']);
    const steps = await c.events('model');
    expect(new Set(steps.steps.filter((s) => s.actor === 'bot-model').map((s) => s.turnId))).toEqual(new Set(['turn-model-e2e']));
  });

  it('the session\'s turn budget stops the model builder', async () => {
    const corpus = loadCorpus();
    const many = corpus.map((c) => c.answer).join('\n');
    const model = await fakeModel([many]);
    const c = await agentClient('budget');
    const t = await new HttpBuildTransport(c, 'budget').open();
    const cfg = parseModelConfig({ WEFT_MODEL_URL: model.url, WEFT_MODEL: 'recorded', WEFT_MODEL_STREAM: '0' });
    if (!cfg.ok) throw new Error(cfg.error);
    const report = await buildFromBrief({ brief: 'Everything.', transport: t, complete: chatCompletions(cfg.value), systemPrompt: 'x', opsPerTurn: 10 });
    await t.close();
    model.server.close();
    expect(report.stoppedBy).toBe('budget');
    expect(report.opsUsed).toBeLessThanOrEqual(10);
  });
});
