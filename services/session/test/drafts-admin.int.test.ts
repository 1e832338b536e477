// Drafts whose ids are Object.prototype member names, scoped tokens reading the list, and the
// admin's delete. Checked through HTTP only.
import { WeftPeer } from '@weft/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, addSectionOps, startTestSession } from './helpers.ts';
import type { TestSession } from './helpers.ts';

describe('drafts named like prototype members; admin delete', () => {
  let s: TestSession;
  const call = async (method: string, path: string, token: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const r = await fetch(`${s.url}${path}`, { method, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: r.status, json: (await r.json()) as Record<string, unknown> };
  };
  const tokenFor = async (scopes: Record<string, ('read' | 'write')[]>): Promise<string> =>
    (await s.admin.mintToken({ actor: { id: `u-${Object.keys(scopes).join('-').replace('*', 'all')}`, kind: 'human' }, scopes })).token;

  beforeAll(async () => {
    s = await startTestSession();
    for (const id of ['constructor', 'home']) {
      await s.admin.createDraft(id, id);
      await s.admin.submit(id, { opId: `seed-${id}`, ops: addSectionOps('hero') });
    }
  });
  afterAll(async () => s.close());

  it('a draft named "constructor" is ordinary: scoped tokens list and read exactly what they may', async () => {
    const homeOnly = await tokenFor({ home: ['read'] });
    const list = await call('GET', '/v1/drafts', homeOnly);
    expect(list.status).toBe(200);
    expect((list.json['drafts'] as { id: string }[]).map((d) => d.id)).toEqual(['home']);
    expect((await call('GET', '/v1/drafts/constructor', homeOnly)).status).toBe(404);

    const ctorOnly = await tokenFor(Object.fromEntries([['constructor', ['read', 'write'] as ('read' | 'write')[]]]));
    expect(((await call('GET', '/v1/drafts', ctorOnly)).json['drafts'] as { id: string }[]).map((d) => d.id)).toEqual(['constructor']);
    expect((await call('GET', '/v1/drafts/constructor', ctorOnly)).status).toBe(200);
    expect((await call('GET', '/v1/drafts/home', ctorOnly)).status).toBe(404);
    const write = await call('POST', '/v1/drafts/constructor/ops', ctorOnly, { opId: 'c-1', ops: [{ op: 'replace', path: '/title', value: 'Ctor' }] });
    expect(write.status).toBe(200);
    // And as a Yjs peer (Hocuspocus keyed its per-socket document maps by name on plain objects:
    // "constructor" found Object's function and the socket was closed; patched to null prototypes).
    const peer = await WeftPeer.join({ url: s.url, draftId: 'constructor', token: ctorOnly });
    try {
      expect(peer.draft().title).toBe('Ctor');
    } finally {
      peer.close();
    }
  });

  it('only the admin deletes a draft; it is gone from every route, others are untouched, the id starts empty again', async () => {
    const writer = await tokenFor({ '*': ['read', 'write'] });
    const refused = await call('DELETE', '/v1/drafts/constructor', writer);
    expect(refused.status).toBe(403);
    expect((refused.json['error'] as { code: string }).code).toBe('FORBIDDEN');

    expect(await call('DELETE', '/v1/drafts/constructor', ADMIN)).toEqual({ status: 200, json: { deleted: 'constructor' } });
    expect((await call('GET', '/v1/drafts/constructor', ADMIN)).status).toBe(404);
    expect((await call('GET', '/v1/drafts/constructor/events', ADMIN)).status).toBe(404);
    const ops = await call('POST', '/v1/drafts/constructor/ops', ADMIN, { opId: 'after-delete', ops: [{ op: 'replace', path: '/title', value: 'x' }] });
    expect([ops.status, (ops.json['error'] as { code: string }).code]).toEqual([404, 'NOT_FOUND']);
    expect(((await call('GET', '/v1/drafts', ADMIN)).json['drafts'] as { id: string }[]).map((d) => d.id)).toEqual(['home']);
    expect((await call('DELETE', '/v1/drafts/constructor', ADMIN)).status).toBe(404);
    expect((await call('GET', '/v1/drafts/home', ADMIN)).json['version']).toBe(2);

    // Recreated, it starts from empty: no old step, opIds free again.
    expect((await call('POST', '/v1/drafts', ADMIN, { id: 'constructor' })).status).toBe(201);
    const fresh = await call('GET', '/v1/drafts/constructor', ADMIN);
    expect(fresh.json).toMatchObject({ version: 0, draft: { sections: {} } });
    expect((await call('POST', '/v1/drafts/constructor/ops', ADMIN, { opId: 'seed-constructor', ops: addSectionOps('hero') })).json['version']).toBe(1);
  });
});

describe('the drafts list follows the page title', () => {
  let s: TestSession;
  beforeAll(async () => { s = await startTestSession(); });
  afterAll(async () => s.close());
  const titles = async (): Promise<Record<string, string>> =>
    Object.fromEntries((await s.admin.listDrafts()).drafts.map((d) => [d.id, d.title]));

  it('after a rename over HTTP, by a Yjs peer, by an undo, and when many drafts are renamed at once', async () => {
    await s.admin.createDraft('shop', 'Old name');
    await s.admin.submit('shop', { opId: 'rename-1', ops: [{ op: 'replace', path: '/title', value: 'Spring sale' }] });
    expect((await titles())['shop']).toBe('Spring sale');
    // A step that leaves the title alone keeps it.
    await s.admin.submit('shop', { opId: 'add-hero', ops: addSectionOps('hero') });
    expect((await titles())['shop']).toBe('Spring sale');
    const peer = await WeftPeer.join({ url: s.url, draftId: 'shop', token: ADMIN });
    try {
      peer.applyOps([{ op: 'replace', path: '/title', value: 'Summer sale' }]);
      await expect.poll(async () => (await titles())['shop'], { timeout: 5000 }).toBe('Summer sale');
    } finally {
      peer.close();
    }
    await s.admin.undo('shop');
    expect((await titles())['shop']).toBe('Spring sale');
    // Several drafts' renames in one tick go out in one statement (the store's group commit).
    const ids = Array.from({ length: 6 }, (_, i) => `many-${i}`);
    for (const id of ids) await s.admin.createDraft(id, `Draft ${id}`);
    await Promise.all(ids.map((id) => s.admin.submit(id, { opId: `r-${id}`, ops: [{ op: 'replace', path: '/title', value: `Renamed ${id}` }] })));
    const after = await titles();
    expect(ids.map((id) => after[id])).toEqual(ids.map((id) => `Renamed ${id}`));
    expect(after['shop']).toBe('Spring sale');
  });
});
