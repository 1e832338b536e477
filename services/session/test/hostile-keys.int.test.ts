// Hostile keys and bodies over HTTP, checked through the public API: prototype member names in
// props, data, style and ids answer a typed refusal or are stored as data, never a 500; after each
// step fold(log) = the served draft = a Yjs peer's doc (nothing served that is in no log row).
import { WeftPeer } from '@weft/client';
import { applyOpsUnchecked, FORBIDDEN_SEGMENTS } from '@weft/core';
import type { Draft, Op } from '@weft/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, addSectionOps, startTestSession } from './helpers.ts';
import type { TestSession } from './helpers.ts';

const NAMES = [...new Set([...[Object.prototype, Function.prototype, Array.prototype].flatMap((o) => Object.getOwnPropertyNames(o)), 'prototype'])];
const esc = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
const H = '/sections/hero';

function opsAt(name: string, place: number): unknown[] {
  const n = esc(name);
  return [
    [{ op: 'add', path: `${H}/style`, value: { [name]: 'wide' } }],
    [{ op: 'replace', path: '/title', value: `t-${name}` }, { op: 'add', path: `${H}/style`, value: { width: 'wide', [name]: 'x' } }],
    [{ op: 'add', path: `${H}/data/${n}`, value: { [name]: 1 } }],
    [{ op: 'add', path: `${H}/data/k`, value: { [name]: { [name]: [name] } } }],
    [{ op: 'add', path: `${H}/components/title/props/${n}`, value: 1 }],
    [{ op: 'replace', path: `${H}/components/title/props/text`, value: { path: `/${n}` } }],
    [{ op: 'add', path: `${H}/components/root/children/-`, value: name }],
    [{ op: 'add', path: '/order/-', value: name }],
  ][place]!;
}

describe('hostile keys and bodies over HTTP', () => {
  let s: TestSession;
  let peer: WeftPeer;
  const post = async (path: string, body: string): Promise<{ status: number; json: Record<string, unknown> }> => {
    const r = await fetch(`${s.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body });
    return { status: r.status, json: (await r.json()) as Record<string, unknown> };
  };
  const served = async (): Promise<{ version: number; draft: Draft }> => (await (await fetch(`${s.url}/v1/drafts/page`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as { version: number; draft: Draft };
  const folded = async (): Promise<Draft> => {
    const d: Draft = { id: 'page', title: '', order: [], sections: {} };
    for (let after = 0; ;) {
      const page = (await (await fetch(`${s.url}/v1/drafts/page/events?after=${after}&limit=1000`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as { steps: { ops: Op[] }[]; next: number | null };
      for (const st of page.steps) expect(applyOpsUnchecked(d, st.ops).ok).toBe(true);
      if (page.next === null || page.steps.length === 0) return d;
      after = page.next;
    }
  };
  const converged = async (): Promise<void> => {
    const srv = await served();
    expect(srv.draft).toEqual({ ...(await folded()), id: srv.draft.id });
    for (let i = 0; i < 200 && JSON.stringify(peer.draft()) !== JSON.stringify(srv.draft); i++) await new Promise((r) => setTimeout(r, 25));
    expect(peer.draft()).toEqual(srv.draft);
  };

  beforeAll(async () => {
    s = await startTestSession();
    await s.admin.createDraft('page', 'Page');
    await s.admin.submit('page', { opId: 'seed', ops: addSectionOps('hero') });
    peer = await WeftPeer.join({ url: s.url, draftId: 'page', token: ADMIN });
  });
  afterAll(async () => { peer?.close(); await s.close(); });

  it('a style key "constructor" (the step that answered 500 and left text in no log row) is refused typed; the draft is its log', async () => {
    const r = await post('/v1/drafts/page/ops', JSON.stringify({ opId: 'style-ctor', ops: [{ op: 'replace', path: '/title', value: 'only in a log row if applied' }, { op: 'add', path: `${H}/style`, value: { constructor: 'wide' } }] }));
    expect(r.status).toBe(200);
    expect((r.json['refused'] as { rule: string }[]).map((x) => x.rule)).toEqual(['forbidden_segment']);
    await converged();
  });

  it('every prototype name × place: 200 with applied/refused (never 5xx); fold(log) = served = peer after each', async () => {
    let n = 0;
    await fc.assert(fc.asyncProperty(fc.constantFrom(...NAMES), fc.integer({ min: 0, max: 7 }), async (name, place) => {
      const r = await post('/v1/drafts/page/ops', JSON.stringify({ opId: `p-${n++}`, ops: opsAt(name, place) }));
      expect(r.status, `${name} @${place}: ${JSON.stringify(r.json)}`).toBe(200);
      for (const x of r.json['refused'] as { rule: string; path: string }[]) expect(typeof x.rule).toBe('string');
      if (FORBIDDEN_SEGMENTS.has(name)) expect(JSON.stringify((await served()).draft)).not.toContain(`"${name}":`);
    }), { numRuns: 120 });
    await converged();
    console.log(`[hostile] ${n} prototype-name steps over HTTP, all typed; fold(log) = served = peer`);
  }, 120_000);

  it('a data value {constructor: 1} and value keys named prototype are refused typed (docs/errors.md)', async () => {
    for (const [i, key] of ['constructor', 'prototype', '__proto__'].entries()) {
      const r = await post('/v1/drafts/page/ops', `{"opId":"v-${i}","ops":[{"op":"add","path":"${H}/data/v","value":{"${key}":1}}]}`);
      expect(r.status).toBe(200);
      expect(r.json['refused']).toMatchObject([{ rule: 'forbidden_segment', path: `${H}/data/v` }]);
    }
    const ok = await post('/v1/drafts/page/ops', JSON.stringify({ opId: 'v-ok', ops: [{ op: 'add', path: `${H}/data/v`, value: { toString: 1, valueOf: { hasOwnProperty: 2 } } }] }));
    expect(ok.json['refused']).toEqual([]);
    await converged();
    expect((await served()).draft.sections['hero']!.data['v']).toEqual({ toString: 1, valueOf: { hasOwnProperty: 2 } });
  });

  it('NUL and lone surrogates in values, keys and paths are refused typed (invalid_text), never a 503 that no retry can pass', async () => {
    // Raw JSON escapes: what a client that cut an emoji in half, or a C string, sends.
    const bodies = [
      `{"opId":"t-nul","ops":[{"op":"replace","path":"/title","value":"a\\u0000b"}]}`,
      `{"opId":"t-hi","ops":[{"op":"replace","path":"/title","value":"a\\ud83d"}]}`,
      `{"opId":"t-lo","ops":[{"op":"add","path":"${H}/data/v","value":{"x":["\\ude00"]}}]}`,
      `{"opId":"t-key","ops":[{"op":"add","path":"${H}/data/v","value":{"k\\ud800":1}}]}`,
      `{"opId":"t-path","ops":[{"op":"add","path":"${H}/data/k\\udfff","value":1}]}`,
    ];
    const before = (await served()).version;
    for (const body of bodies) {
      const r = await post('/v1/drafts/page/ops', body);
      expect(r.status, body).toBe(200);
      expect(r.json['refused'], body).toMatchObject([{ code: 'VALIDATION_FAILED', rule: 'invalid_text', message: expect.stringContaining('well-formed Unicode') }]);
    }
    // Beside an op that applies, the refusal (echoing the bad path as U+FFFD) is kept in the log.
    const mixed = await post('/v1/drafts/page/ops', `{"opId":"t-mixed","ops":[{"op":"replace","path":"/title","value":"kept"},{"op":"add","path":"${H}/data/k\\ud800","value":1}]}`);
    expect(mixed.status).toBe(200);
    expect(mixed.json['refused']).toMatchObject([{ rule: 'invalid_text', path: `${H}/data/k\ufffd` }]);
    expect((await served()).draft.title).toBe('kept');
    // A whole emoji is fine; nothing refused was stored.
    const ok = await post('/v1/drafts/page/ops', JSON.stringify({ opId: 't-ok', ops: [{ op: 'replace', path: '/title', value: 'a 😀 b' }] }));
    expect(ok.json['refused']).toEqual([]);
    expect((await served()).draft.title).toBe('a 😀 b');
    expect((await served()).version).toBe(before + 2);
    await converged();
  });

  it('a 200k-deep JSON body answers a typed 400, and the service goes on', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    for (const body of [deep, `{"opId":"deep","ops":[{"op":"add","path":"${H}/data/d","value":${deep}}]}`]) {
      const r = await post('/v1/drafts/page/ops', body);
      expect(r.status).toBe(400);
      expect((r.json['error'] as { code: string }).code).toBe('BAD_REQUEST');
    }
    // 100 levels: inside the body limit, refused per op by the value limit (64).
    const hundred = '['.repeat(100) + ']'.repeat(100);
    const r = await post('/v1/drafts/page/ops', `{"opId":"deep-100","ops":[{"op":"add","path":"${H}/data/d","value":${hundred}}]}`);
    expect(r.status).toBe(200);
    expect((r.json['refused'] as { rule: string }[]).map((x) => x.rule)).toEqual(['value_too_large']);
    expect((await served()).version).toBeGreaterThan(0);
  });
});
