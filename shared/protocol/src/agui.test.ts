import { EventSchemas } from '@ag-ui/core/schemas';
import { describe, expect, it } from 'vitest';
import { activityEvent, asOneRun, followRunStarted, readerActionEvent, refusedEvent, repairsEvent, runFinished, runStarted, stateDelta, stateSnapshot } from './agui.ts';

// The events we emit must parse with AG-UI's own schemas, not only with our types.
describe('AG-UI events we emit', () => {
  const meta = { version: 3, opId: 'op-1', actor: 'agent:a', turnId: 't1' };
  const cases = [
    stateSnapshot({ id: 'd', title: '', order: [], sections: {} }, meta, 1),
    stateDelta([{ op: 'replace', path: '/title', value: 'Hi' }], meta, 1),
    repairsEvent([{ rule: 'dropped_prop', path: '/sections/s/components/a/props/x', message: 'm', index: 0 }], meta, 1),
    refusedEvent([{ code: 'VALIDATION_FAILED', rule: 'cycle', kind: 'contract', path: '/p', message: 'm', index: 0 }], meta, 1),
    runStarted('d', 't1', meta, 1),
    runFinished('d', 't1', { ops: 3 }, meta, 1),
    activityEvent({ id: '7', kind: 'agent', status: 'done', label: 'Added the hero', detail: 'one section', at: 1, actor: 'bot' }, 1),
    followRunStarted('d', 'follow-1', 1),
    ...asOneRun([runStarted('d', 't1', meta, 1), runFinished('d', 't1', { ops: 3 }, meta, 1)]),
    readerActionEvent({ name: 'budget', surfaceId: 'trip', sourceComponentId: 'days', timestamp: '2026-01-01T00:00:00.000Z', context: { '/days': 6 } }, ['/days'], meta, 1),
  ];
  for (const ev of cases) {
    it(`${ev.type}${ev.type === 'CUSTOM' ? ` ${ev.name}` : ''} parses with @ag-ui/core EventSchemas`, () => {
      const parsed = EventSchemas.safeParse(ev);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    });
  }
  it('a delta with an unknown op kind is rejected by the same schema (the check can fail)', () => {
    const bad = { ...stateDelta([], meta, 1), delta: 'not-an-array' };
    expect(EventSchemas.safeParse(bad).success).toBe(false);
  });
});

describe('a draft stream as one run (?as=run)', () => {
  it('keeps state and CUSTOM events as they are and carries every other event whole inside CUSTOM weft.run.event', () => {
    const meta = { version: 3, opId: 'op-1', actor: 'a', turnId: 't1' };
    const delta = stateDelta([{ op: 'replace', path: '/title', value: 'Hi' }], meta, 1);
    const started = runStarted('d', 't1', meta, 2);
    const text = { type: 'TEXT_MESSAGE_START' as const, messageId: 'n1', role: 'assistant' as const, metadata: { weft: { version: 0, runId: 't1', seq: 2 } } };
    const out = asOneRun([delta, started, text, repairsEvent([], meta, 1)]);
    expect(out[0]).toBe(delta);
    expect(out[1]).toEqual({ type: 'CUSTOM', name: 'weft.run.event', value: started, timestamp: 2, metadata: started.metadata });
    expect(out[2]).toEqual({ type: 'CUSTOM', name: 'weft.run.event', value: text, metadata: text.metadata });
    expect(out[3]!.type).toBe('CUSTOM');
    expect((out[3] as { name: string }).name).toBe('weft.repairs');
  });
});
