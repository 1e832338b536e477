// RFC "Held steps" across submissions, through the public API: in one turn, a child sent before
// its section waits and lands with it; one whose section never comes is refused when the turn
// finishes, on the draft's stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeftHttpClient } from '@weft/client';
import { ADMIN, startTestSession } from './helpers.ts';
import type { TestSession } from './helpers.ts';

const section = (id: string) => ({ op: 'add', path: `/sections/${id}`, value: { id, kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: [] } } } });
const child = (sid: string, cid: string) => [
  { op: 'add', path: `/sections/${sid}/components/${cid}`, value: { id: cid, component: 'Text', props: { text: `the ${cid}` } } },
  { op: 'add', path: `/sections/${sid}/components/root/children/-`, value: cid },
];
type Result = { version: number; refused: { rule: string }[]; held?: { rule: string; kind: string; path: string }[] };

describe('a child sent before its section, in the same turn', () => {
  let s: TestSession;
  let bot: WeftHttpClient;
  beforeAll(async () => {
    s = await startTestSession();
    await s.admin.createDraft('page', '');
    bot = await s.as('bot', { page: ['read', 'write'] }, 'agent');
  });
  afterAll(async () => s?.close());

  it('waits (held) and lands in the submission that adds the section', async () => {
    const first = await bot.request<Result>('POST', '/v1/drafts/page/ops', { opId: 'kids', turnId: 't1', ops: child('faq', 'q1') });
    expect(first.refused).toEqual([]);
    expect(first.held?.map((h) => [h.rule, h.kind, h.path])).toEqual([
      ['missing_section', 'emission', '/sections/faq/components/q1'], ['missing_section', 'emission', '/sections/faq/components/root/children/-'],
    ]);
    const second = await bot.request<Result>('POST', '/v1/drafts/page/ops', { opId: 'faq', turnId: 't1', ops: [section('faq')] });
    expect(second.refused).toEqual([]);
    const { draft, version } = await s.admin.getDraft('page');
    expect(version).toBe(second.version);
    expect(draft.sections['faq']!.components['root']!.children).toEqual(['q1']);
    expect(draft.sections['faq']!.components['q1']).toMatchObject({ props: { text: 'the q1' } });
    await bot.request('POST', '/v1/drafts/page/turns/t1/finish');
  });

  it('is refused on the stream when the turn finishes before its section comes', async () => {
    const ac = new AbortController();
    const res = await fetch(`${s.url}/v1/drafts/page/stream`, { headers: { authorization: `Bearer ${ADMIN}` }, signal: ac.signal });
    let text = '';
    const reading = (async () => {
      const reader = res.body!.getReader();
      for (;;) {
        const r = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (r.done) return;
        text += Buffer.from(r.value).toString();
      }
    })();
    const held = await bot.request<Result>('POST', '/v1/drafts/page/ops', { opId: 'late-kids', turnId: 't2', ops: child('late', 'q9') });
    expect(held.held).toHaveLength(2);
    // The turn has a committed step too, so it is open and can be finished.
    await bot.request('POST', '/v1/drafts/page/ops', { opId: 't2-title', turnId: 't2', ops: [{ op: 'replace', path: '/title', value: 'Page' }] });
    await bot.request('POST', '/v1/drafts/page/turns/t2/finish');
    const t0 = Date.now();
    while (!text.includes('held until turn t2 finished') && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    await reading;
    expect(text).toContain('weft.refused');
    expect(text).toContain('"opId":"late-kids"');
    expect(text).toContain('held until turn t2 finished');
    expect((await s.admin.getDraft('page')).draft.sections['late']).toBeUndefined();
  });
});
