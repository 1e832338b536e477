// A child written before its section, in an earlier submission of the same turn (RFC "Held
// steps"): it waits, lands in the step that adds the section, and is refused if the turn ends first.
import { describe, expect, it } from 'vitest';
import { emptyDraft } from '@weft/core';
import type { Op } from '@weft/core';
import { MemoryLog } from '@weft/store';
import { Room } from './room.ts';
import type { SubmitOutcome, SubmitRequest } from './types.ts';

const agent = { id: 'bot', kind: 'agent' as const };
const req = (opId: string, ops: Op[], turnId: string | null = 't1'): SubmitRequest => ({ opId, bodyHash: JSON.stringify(ops), ops, actor: agent, ...(turnId ? { turnId } : {}) });
const section = (id: string): Op => ({ op: 'add', path: `/sections/${id}`, value: { id, kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: [] } } } });
const child = (sid: string, cid: string): Op[] => [
  { op: 'add', path: `/sections/${sid}/components/${cid}`, value: { id: cid, component: 'Text', props: { text: `the ${cid}` } } },
  { op: 'add', path: `/sections/${sid}/components/root/children/-`, value: cid },
];
const value = (o: SubmitOutcome) => {
  if (!o.ok) throw new Error(`${o.error.code}: ${o.error.message}`);
  return o.value;
};

function room(): Room {
  const log = new MemoryLog();
  log.createDraft('d');
  return new Room('d', emptyDraft('d'), 0, 0, { log, now: () => 1_000_000, opsPerTurn: 500, opsPerSecond: 1000, maxBatch: 64, onCommitted: () => {}, onBroken: () => {}, resubmit: async () => { throw new Error('no resubmit'); } });
}

describe('ops held across the submissions of a turn', () => {
  it('[TH1] a child sent before its section waits (held, not refused) and lands in the step that adds the section', async () => {
    const r = room();
    const first = value(await r.submit(req('kids', child('faq', 'q1'))));
    expect(first.refused).toEqual([]);
    expect(first.held?.map((h) => [h.rule, h.index])).toEqual([['missing_section', 0], ['missing_section', 1]]);
    expect(first.version).toBe(0); // nothing applied yet: no version written
    const second = value(await r.submit(req('faq', [section('faq')])));
    expect(second.refused).toEqual([]);
    expect(second.held).toBeUndefined();
    const faq = r.committedView().draft.sections['faq']!;
    expect(faq.components['root']!.children).toEqual(['q1']);
    expect(faq.components['q1']).toMatchObject({ component: 'Text', props: { text: 'the q1' } });
  });

  it('[TH2] without a turn, or in another turn, a child before its section is refused at once', async () => {
    const r = room();
    const alone = value(await r.submit(req('kids', child('faq', 'q1'), null)));
    expect(alone.refused.map((x) => x.rule)).toContain('missing_section');
    expect(alone.held).toBeUndefined();
    value(await r.submit(req('kids-t2', child('faq', 'q2'), 't2')));
    value(await r.submit(req('faq', [section('faq')], 't3')));
    expect(r.committedView().draft.sections['faq']!.components['root']!.children).toEqual([]);
  });

  it('[TH3] what is still waiting when the turn finishes is refused then, by submission', async () => {
    const r = room();
    value(await r.submit(req('kids', child('faq', 'q1'))));
    const expired = r.expireHeld('t1');
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({ opId: 'kids', actor: 'bot' });
    expect(expired[0]!.refused.map((x) => [x.rule, x.kind, x.index])).toEqual([['missing_section', 'emission', 0], ['missing_section', 'emission', 1]]);
    expect(expired[0]!.refused[0]!.message).toContain('held until turn t1 finished');
    // Gone: a later section in that turn brings nothing with it.
    value(await r.submit(req('faq', [section('faq')])));
    expect(r.committedView().draft.sections['faq']!.components['root']!.children).toEqual([]);
    expect(r.expireHeld('t1')).toEqual([]);
  });

  it('[TH4] a retry of the held submission is not held twice; the section then brings one child', async () => {
    const r = room();
    value(await r.submit(req('kids', child('faq', 'q1'))));
    value(await r.submit(req('kids', child('faq', 'q1'))));
    value(await r.submit(req('faq', [section('faq')])));
    expect(r.committedView().draft.sections['faq']!.components['root']!.children).toEqual(['q1']);
  });
});
