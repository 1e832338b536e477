import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventSchemas } from '@ag-ui/core/schemas';
import { parseReportedEvents, RunLimits } from './runs.ts';

describe('parseReportedEvents (what an agent may report into its run)', () => {
  it('keeps the AG-UI events of a run as sent, and they parse with @ag-ui/core', () => {
    const events = [
      { type: 'STEP_STARTED', stepName: 'round 1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'n1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n1', delta: 'Hi 🍞' },
      { type: 'TEXT_MESSAGE_END', messageId: 'n1' },
      { type: 'TOOL_CALL_START', toolCallId: 's1', toolCallName: 'patch_draft' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 's1', delta: '{"ops":[' },
      { type: 'TOOL_CALL_END', toolCallId: 's1' },
      { type: 'TOOL_CALL_RESULT', messageId: 's1-r', toolCallId: 's1', content: '{"steps":[]}', role: 'tool' },
      { type: 'CUSTOM', name: 'weft.ghost', value: { id: 's1', label: 'a Card', outline: [], path: null } },
      { type: 'RUN_FINISHED', result: { steps: 1 }, outcome: { type: 'cancelled' } },
    ];
    const r = parseReportedEvents({ events });
    expect(r).toEqual({ ok: true, value: events });
    for (const e of events.slice(0, -1)) expect(EventSchemas.safeParse(e).success, e.type).toBe(true);
  });
  it('refuses the whole report, listing every problem with its pointer', () => {
    const r = parseReportedEvents({ events: [
      { type: 'STATE_DELTA', delta: [] },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n1', delta: 'a\u0000b', chainOfThought: 'x' },
      { type: 'TOOL_CALL_START', toolCallId: '../x' },
      { type: 'CUSTOM', name: 'weft.refused', value: [] },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'user' },
      { type: 'RUN_FINISHED', outcome: { type: 'interrupt', interrupts: [] } },
    ] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.path)).toEqual([
      '/events/0/type', '/events/1/delta', '/events/1/chainOfThought', '/events/2/toolCallId', '/events/2/toolCallName',
      '/events/3/name', '/events/4/role', '/events/5/outcome',
    ]);
    expect(parseReportedEvents({}).ok).toBe(false);
    expect(parseReportedEvents({ events: Array.from({ length: RunLimits.eventsPerReport + 1 }, () => ({ type: 'TEXT_MESSAGE_END', messageId: 'm' })) }).ok).toBe(false);
    expect(parseReportedEvents({ events: [{ type: 'TOOL_CALL_ARGS', toolCallId: 's', delta: 'x'.repeat(RunLimits.textChars + 1) }] }).ok).toBe(false);
    expect(parseReportedEvents({ events: [{ type: 'CUSTOM', name: 'weft.ghost', value: { label: '\ud800' } }] }).ok).toBe(false);
  });
  it('never throws on hostile input, and what it keeps has only the fields it knows', () => {
    fc.assert(fc.property(fc.anything(), fc.array(fc.dictionary(fc.oneof(fc.constantFrom('type', 'messageId', 'delta', 'toolCallId', 'role', '__proto__', 'constructor'), fc.string()), fc.oneof(fc.constantFrom('TEXT_MESSAGE_CONTENT', 'TOOL_CALL_ARGS', 'CUSTOM', 'assistant'), fc.anything()))), (junk, events) => {
      parseReportedEvents(junk);
      const r = parseReportedEvents({ events });
      if (r.ok) for (const e of r.value) expect(Object.getPrototypeOf(e)).toBe(Object.prototype);
    }), { numRuns: 500 });
  });
});
