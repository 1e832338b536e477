// The briefs corpus through the agent's real door: POST /agent/briefs on the session (test
// Postgres), a fake OpenAI-compatible model answering with the recorded texts, the page read back
// over HTTP and checked against its brief. One case per class the corpus was written to catch.
import type { ChildProcess } from 'node:child_process';
import { defaultCatalog } from '@weft/core';
import { WeftHttpClient } from '@weft/client';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../bench/brief-cases.ts';
import type { Case } from '../bench/brief-cases.ts';
import { fakeModel, startSession, stopStack } from './services.ts';

const ADMIN = 'briefs-e2e-admin';
const cases = loadCases((n) => defaultCatalog.getEntry(n) !== undefined);
const pick = (name: string): Case => cases.find((c) => `${c.brief.id}.${c.style}` === name)!;

describe('the briefs corpus through POST /agent/briefs', () => {
  let db: TestDatabase;
  let session: { url: string; proc: ChildProcess };
  let model: Awaited<ReturnType<typeof fakeModel>>;
  let admin: WeftHttpClient;
  let queue: string[] = [];
  beforeAll(async () => {
    model = await fakeModel(() => queue.shift() ?? '{"done":true}');
    db = await createTestDatabase();
    session = await startSession(db, ADMIN, { WEFT_MODEL_URL: model.url, WEFT_MODEL: 'recorded' });
    admin = new WeftHttpClient(session.url, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await stopStack({ session, model, db });
  });

  // Sloppy landing (a held chain, camelCase ids, {"ops":{op}}, <think>), a chain of 8 steps into
  // a held dashboard, a chatty edit with positional paths, a scoped edit with text for label.
  for (const name of ['landing.sloppy', 'dashboard.pretty', 'edit.chatty', 'scope.chatty']) {
    it(`${name}: every step written, the turn finished, the page as briefed`, async () => {
      const c = pick(name);
      const draftId = name.replace('.', '-');
      await admin.createDraft(draftId);
      if (c.brief.seed.length > 0) await admin.submit(draftId, { opId: `${draftId}-seed`, ops: c.brief.seed.map((s) => ({ op: 'add', path: `/sections/${s.id}`, value: s })) });
      const { token } = await admin.mintToken({ actor: { id: 'writer', kind: 'human' }, scopes: { [draftId]: ['read', 'write'] } });
      queue = [...c.answers];
      const res = await fetch(`${session.url}/agent/briefs`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ draftId, brief: c.brief.text, ...(c.brief.scope ? { scope: c.brief.scope } : {}) }) });
      expect(res.status).toBe(202);
      const { runId } = (await res.json()) as { runId: string };
      let run: any = { status: 'running' };
      for (let i = 0; i < 300 && run.status === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        run = await (await fetch(`${session.url}/agent/briefs/${runId}`, { headers: { authorization: `Bearer ${token}` } })).json();
      }
      expect(run.error).toBeNull();
      expect(run.report.finished).not.toBeNull();
      expect(run.report.steps.map((s: { status: string }) => s.status).filter((s: string) => s !== 'applied' && s !== 'repaired')).toEqual([]);
      expect(run.report.rounds).toBe(1);
      expect(c.brief.check((await admin.getDraft(draftId)).draft)).toEqual([]);
    }, 40_000);
  }
});
