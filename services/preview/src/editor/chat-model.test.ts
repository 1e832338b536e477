import { describe, expect, it } from 'vitest';
import { describeArgs, runSummary, Transcript } from './chat-model.ts';

const m = (seq: number) => ({ metadata: { weft: { version: 1, runId: 'r1', seq, actor: 'ana' } } });
const RESULT = (status: string, extra: Record<string, unknown> = {}) => JSON.stringify({ steps: [{ status, held: false, repairs: [{ rule: 'rewrote_path', path: '/order/-', message: 'appended' }], refused: [], ...extra }] });
const EVENTS = [
  { type: 'RUN_STARTED', threadId: 'd', runId: 'r1', input: { threadId: 'd', runId: 'r1', messages: [{ id: 'b', role: 'user', content: 'A bakery' }], tools: [], context: [], forwardedProps: { scope: { sectionId: 'hero', componentId: 'title' } } }, ...m(1) },
  { type: 'STEP_STARTED', stepName: 'round 1', ...m(2) },
  { type: 'TEXT_MESSAGE_START', messageId: 'n1', role: 'assistant', ...m(3) },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n1', delta: 'Hel', ...m(4) },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n1', delta: 'lo', ...m(5) },
  { type: 'TEXT_MESSAGE_END', messageId: 'n1', ...m(6) },
  { type: 'TOOL_CALL_START', toolCallId: 's1', toolCallName: 'patch_draft', ...m(7) },
  { type: 'TOOL_CALL_ARGS', toolCallId: 's1', delta: '{"ops":[{"op":"add","path":"/sections/hero","value":{"id":"hero","components":{"root":{}}}}]}', ...m(8) },
  { type: 'CUSTOM', name: 'weft.ghost', value: { id: 's1', label: 'a Stack (root)', outline: [{ id: 'root', component: 'Stack', text: null, depth: 0 }], path: '/sections/hero' }, ...m(9) },
  { type: 'TOOL_CALL_END', toolCallId: 's1', ...m(10) },
  { type: 'TOOL_CALL_RESULT', messageId: 's1-r', toolCallId: 's1', content: RESULT('refused', { refused: [{ rule: 'missing_child', path: '/x', message: 'no' }] }), role: 'tool', ...m(11) },
  { type: 'STEP_STARTED', stepName: 'round 2', ...m(12) },
  { type: 'TOOL_CALL_START', toolCallId: 's2', toolCallName: 'patch_draft', ...m(13) },
  { type: 'TOOL_CALL_END', toolCallId: 's2', ...m(14) },
  { type: 'TOOL_CALL_RESULT', messageId: 's2-r', toolCallId: 's2', content: RESULT('repaired'), role: 'tool', ...m(15) },
  { type: 'RUN_FINISHED', threadId: 'd', runId: 'r1', result: { rounds: 2, stoppedBy: 'done' }, ...m(16) },
];

describe('the Build chat transcript (a fold of AG-UI run events)', () => {
  it('reads a run into its brief, scope, notes, steps with outcomes, rounds and summary', () => {
    const t = new Transcript();
    for (const e of EVENTS.slice(0, 9)) t.apply(e);
    const live = t.runs.get('r1')!;
    expect(live).toMatchObject({ brief: 'A bakery', scope: { sectionId: 'hero', componentId: 'title' }, actor: 'ana', status: 'running' });
    expect(live.items[1]).toMatchObject({ kind: 'step', ghost: { label: 'a Stack (root)' }, outcome: null });
    for (const e of EVENTS.slice(9)) t.apply(e);
    const r = t.runs.get('r1')!;
    expect(r.items.map((i) => i.kind)).toEqual(['note', 'step', 'round', 'step']);
    expect(r.items[0]).toMatchObject({ text: 'Hello', done: true });
    // A step whose only repair is keeping /order in step shows as applied.
    expect(r.items.filter((i) => i.kind === 'step').map((i) => (i as { outcome: { status: string }[] }).outcome[0]!.status)).toEqual(['refused', 'applied']);
    expect(r.items[1]).toMatchObject({ ghost: null });
    expect(runSummary(r)).toBe('1 step written, 1 refused, then fixed, 2 rounds');
  });
  it('applies each event once: the stored transcript then the live stream overlapping it', () => {
    const t = new Transcript();
    for (const e of EVENTS) t.apply(e);
    for (const e of EVENTS.slice(3, 6)) expect(t.apply(e)).toBeNull();
    expect((t.runs.get('r1')!.items[0] as { text: string }).text).toBe('Hello');
    expect(t.apply({ type: 'STATE_DELTA', delta: [], metadata: { weft: { version: 2 } } })).toBeNull(); // not a run's
  });
  it('a run read again from its stored transcript fills in what the live stream missed', () => {
    const t = new Transcript();
    for (const e of EVENTS.filter((_, i) => i !== 4 && i !== 10)) t.apply(e); // a delta and a result lost
    expect((t.runs.get('r1')!.items[0] as { text: string }).text).toBe('Hel');
    t.replace('r1', EVENTS);
    expect((t.runs.get('r1')!.items[0] as { text: string }).text).toBe('Hello');
    expect(runSummary(t.runs.get('r1')!)).toBe('1 step written, 1 refused, then fixed, 2 rounds');
  });

  it('says what a step does from its text after a reload', () => {
    expect(describeArgs((EVENTS[7] as { delta: string }).delta)).toBe('add a section of 1 component /sections/hero');
    expect(describeArgs('{"ops":[')).toBe('a step that does not parse as JSON');
  });
});
