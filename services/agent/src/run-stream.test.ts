import { describe, expect, it } from 'vitest';
import { EventSchemas } from '@ag-ui/core/schemas';
import { verifyEvents } from '@ag-ui/client';
import type { BaseEvent } from '@ag-ui/client';
import { from, lastValueFrom, toArray } from 'rxjs';
import type { AgUiEvent } from '@weft/protocol';
import { buildFromBrief } from './model-builder.ts';
import { RunStream } from './run-stream.ts';
import { LocalBuildTransport } from './transport.ts';
import { CHAT_ROUND_1, CHAT_ROUND_2 } from '../test/chat-turn.ts';

/** A model that answers round 1 then round 2, `size` characters at a time. */
const model = (answers: string[], size: number) => {
  let i = 0;
  return async function* () {
    const t = answers[Math.min(i++, answers.length - 1)]!;
    for (let a = 0; a < t.length; a += size) yield t.slice(a, a + size);
  };
};

async function turn(size: number): Promise<{ events: AgUiEvent[]; ghostOps: unknown[] }> {
  const events: AgUiEvent[] = [];
  const ghostOps: unknown[] = [];
  const rs = new RunStream({ emit: (e) => events.push(...e), prefix: 'run1', ghostEveryMs: 0, ghostOp: (op) => ghostOps.push(op) });
  await buildFromBrief({ brief: 'A bakery', transport: new LocalBuildTransport(), complete: rs.wrap(model([CHAT_ROUND_1, CHAT_ROUND_2], size)), systemPrompt: 'p', onStep: (r) => rs.step(r) });
  rs.finish();
  return { events, ghostOps };
}

describe('RunStream: a model-driven turn as AG-UI events as the model writes', () => {
  for (const size of [1, 7, 10_000]) {
    it(`notes stream as TEXT_MESSAGE_*, steps as TOOL_CALL_* with their exact text, results once judged (chunks of ${size})`, async () => {
      const { events, ghostOps } = await turn(size);
      for (const e of events) expect(EventSchemas.safeParse(e).success, JSON.stringify(e)).toBe(true);
      // AG-UI's own verifier accepts the run (opened and closed around it as the session does).
      const run = [{ type: 'RUN_STARTED', threadId: 'd', runId: 'run1' }, ...events, { type: 'RUN_FINISHED', threadId: 'd', runId: 'run1' }];
      expect((await lastValueFrom(from(run as unknown as BaseEvent[]).pipe(verifyEvents(), toArray()))).length).toBe(run.length);

      const notes = new Map<string, string>();
      const args = new Map<string, string>();
      for (const e of events) {
        if (e.type === 'TEXT_MESSAGE_CONTENT') notes.set(e.messageId, (notes.get(e.messageId) ?? '') + e.delta);
        if (e.type === 'TOOL_CALL_ARGS') args.set(e.toolCallId, (args.get(e.toolCallId) ?? '') + e.delta);
      }
      expect([...notes.values()]).toEqual(['A hero for the bakery first, then a closing band.', 'The band again, whole this time.']);
      const lines = [...CHAT_ROUND_1.split('\n'), ...CHAT_ROUND_2.split('\n')].filter((l) => l.startsWith('{"ops"'));
      expect([...args.values()]).toEqual(lines);
      const results = events.filter((e) => e.type === 'TOOL_CALL_RESULT').map((e) => JSON.parse((e as { content: string }).content).steps.map((s: { status: string; held: boolean }) => `${s.status}${s.held ? ' (held)' : ''}`));
      expect(results).toEqual([['repaired'], ['refused'], ['repaired']]);
      expect(events.filter((e) => e.type === 'STEP_STARTED').map((e) => (e as { stepName: string }).stepName)).toEqual(['round 1', 'round 2']);
      if (size < 100) {
        // Ghosts grow while a step is written and end when it is judged; presence gets the op being written.
        const ghosts = events.filter((e) => e.type === 'CUSTOM').map((e) => (e as unknown as { value: { id: string; outline: unknown[]; done?: boolean } }).value);
        const first = ghosts.filter((g) => g.id === 'run1-step2');
        expect(first.some((g) => g.outline.length === 4)).toBe(true);
        expect(first.at(-1)!.done).toBe(true);
        expect(ghostOps.some((op) => (op as { path?: string } | null)?.path === '/sections/hero')).toBe(true);
        expect(ghostOps.at(-1)).toBeNull();
      }
    });
  }

  it('a step cut short stays open and gets no result (the session closes it and keeps none of it)', async () => {
    const events: AgUiEvent[] = [];
    const rs = new RunStream({ emit: (e) => events.push(...e), prefix: 'r', ghostEveryMs: 0 });
    const ac = new AbortController();
    const cut = async function* () {
      yield '{"say":"Hi"}\n{"ops":[{"op":"add","path":"/sections/a","value":{"id":"a"';
      ac.abort();
      throw new Error('aborted');
    };
    await expect(buildFromBrief({ brief: 'x', transport: new LocalBuildTransport(), complete: rs.wrap(cut), systemPrompt: 'p', onStep: (r) => rs.step(r) })).rejects.toThrow('aborted');
    rs.finish();
    const types = events.map((e) => e.type);
    expect(types).toContain('TOOL_CALL_START');
    expect(types).not.toContain('TOOL_CALL_END');
    expect(types).not.toContain('TOOL_CALL_RESULT');
    expect(types.filter((t) => t === 'TEXT_MESSAGE_END')).toHaveLength(1);
  });
});
