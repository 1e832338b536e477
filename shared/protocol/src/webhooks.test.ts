import { describe, expect, it } from 'vitest';
import { stepMessages, turnFinishedMessage, wholeRefusalMessage } from './webhooks.ts';
import type { LoggedStepLike } from './webhooks.ts';

const step = (over: Partial<LoggedStepLike> = {}): LoggedStepLike => ({
  position: 41, draftId: 'home', version: 7, opId: 'op-1', actor: 'ann', actorKind: 'human', sessionId: null, turnId: null, kind: 'do',
  ops: [{ op: 'replace', path: '/title', value: 'Hi' }], notes: [], refused: [], createdAt: new Date('2026-12-01T10:00:00.000Z'), ...over,
});

describe('webhook payloads', () => {
  it('a committed step is one draft.version.committed with a stable id and body', () => {
    const [m, ...rest] = stepMessages(step());
    expect(rest).toEqual([]);
    expect(m!.eventId).toBe('evt_home_7_41_committed');
    // The same draft id and version in a later life of the draft (deleted, made again): another id.
    expect(stepMessages(step({ position: 99 }))[0]!.eventId).toBe('evt_home_7_99_committed');
    expect(JSON.parse(m!.body)).toEqual({
      type: 'draft.version.committed', timestamp: '2026-12-01T10:00:00.000Z',
      data: { draftId: 'home', version: 7, opId: 'op-1', actor: { id: 'ann', kind: 'human' }, sessionId: null, turnId: null, kind: 'do', ops: [{ op: 'replace', path: '/title', value: 'Hi' }], repairs: [], refusedCount: 0, committedAt: '2026-12-01T10:00:00.000Z' },
    });
    // The same step always gives the same bytes (several dispatchers, restarts).
    expect(stepMessages(step())[0]!.body).toBe(m!.body);
  });

  it('refusals beside a commit add draft.step.refused; ops past 16 KB are left out, not cut', () => {
    const refused = [{ code: 'VALIDATION_FAILED', rule: 'path_not_found', path: '/x', message: 'no', index: 1 }] as never;
    const big = [{ op: 'replace', path: '/title', value: 'x'.repeat(17_000) }] as never;
    const ms = stepMessages(step({ refused, ops: big }));
    expect(ms.map((m) => m.type)).toEqual(['draft.version.committed', 'draft.step.refused']);
    const committed = JSON.parse(ms[0]!.body).data;
    expect(committed.opsOmitted).toBe(true);
    expect(committed.ops).toBeUndefined();
    expect(committed.refusedCount).toBe(1);
    expect(JSON.parse(ms[1]!.body).data).toMatchObject({ version: 7, refused: [{ path: '/x' }] });
  });

  it('turns and whole refusals', () => {
    const at = new Date('2026-12-01T11:00:00.000Z');
    const t = turnFinishedMessage('evt_home_turn_x', { draftId: 'home', turnId: 't1', actor: { id: 'bot', kind: 'agent' }, version: 3, summary: { ops: 2 } }, at);
    expect(t.eventId).toBe('evt_home_turn_x');
    expect(JSON.parse(t.body)).toMatchObject({ type: 'draft.turn.finished', data: { turnId: 't1', finishedAt: at.toISOString() } });
    const r = wholeRefusalMessage('evt_x', { draftId: 'home', opId: 'o', actor: { id: 'bot', kind: 'agent' }, turnId: null, refused: [] }, at);
    expect(JSON.parse(r.body).data.version).toBeNull();
  });
});
