// RFC 20c: "The API refuses a scope that is not on the page (400) before the model runs." Through
// the real door (POST /agent/briefs on the launcher, test Postgres), from an empty draft, with a
// fake model that counts the requests it gets.
import type { ChildProcess } from 'node:child_process';
import { WeftHttpClient } from '@weft/client';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeModel, startSession, stopStack } from './services.ts';

const ADMIN = 'scope-e2e-admin';

describe('a brief scoped to a part that is not on the page', () => {
  let db: TestDatabase;
  let session: { url: string; proc: ChildProcess };
  let model: Awaited<ReturnType<typeof fakeModel>>;
  let token: string;
  const brief = (scope: unknown) => fetch(`${session.url}/agent/briefs`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ draftId: 'scoped', brief: 'Make it bolder.', scope }),
  });
  beforeAll(async () => {
    model = await fakeModel(() => '{"done":true}');
    db = await createTestDatabase();
    session = await startSession(db, ADMIN, { WEFT_MODEL_URL: model.url, WEFT_MODEL: 'fake' });
    const admin = new WeftHttpClient(session.url, ADMIN);
    await admin.createDraft('scoped');
    ({ token } = await admin.mintToken({ actor: { id: 'writer', kind: 'human' }, scopes: { scoped: ['read', 'write'] } }));
  }, 60_000);
  afterAll(async () => {
    await stopStack({ session, model, db });
  });

  it('is refused 400 with the pointer of the scope field, and the model is never asked', async () => {
    // The empty draft has no section at all; "constructor" is no part either (own keys only).
    for (const sectionId of ['hero', 'constructor']) {
      const res = await brief({ sectionId });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: unknown }).error).toEqual({ code: 'BAD_REQUEST', path: '/scope/sectionId', message: expect.stringContaining(`no section "${sectionId}"`) });
    }
    const admin = new WeftHttpClient(session.url, ADMIN);
    await admin.submit('scoped', { opId: 'seed', ops: [{ op: 'add', path: '/sections/hero', value: { id: 'hero', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Heading', props: { text: 'Hi' } } } } }] });
    const res = await brief({ sectionId: 'hero', componentId: 'cta' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { path: string } }).error.path).toBe('/scope/componentId');
    expect(model.requests).toHaveLength(0);
    // A part that is on the page runs (the model is asked).
    const ok = await brief({ sectionId: 'hero', componentId: 'root' });
    expect(ok.status).toBe(202);
    for (let i = 0; i < 100 && model.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(model.requests.length).toBeGreaterThan(0);
  }, 40_000);
});
