import { describe, expect, it } from 'vitest';
import type { AgUiEvent } from '@weft/protocol';
import { formatEvents } from './sse.ts';

/** What an SSE client holds as its last event id after each event (the id buffer only moves on an `id:` line). */
function lastIds(text: string, start: string): { type: string; lastId: string }[] {
  let last = start;
  return text.split('\n\n').filter((b) => b !== '').map((block) => {
    const fields = Object.fromEntries(block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
    if ('id' in fields) last = fields['id']!;
    return { type: fields['event']!, lastId: last };
  });
}

describe('formatEvents', () => {
  const turnStart = { type: 'RUN_STARTED', threadId: 'd', runId: 't' } as AgUiEvent;
  const delta = { type: 'STATE_DELTA', delta: [] } as AgUiEvent;
  const repairs = { type: 'CUSTOM', name: 'weft.repairs', value: [] } as AgUiEvent;

  it('moves the id to the version at its delta: a client cut off after RUN_STARTED resumes from the version before, so it still gets the delta', () => {
    expect(lastIds(formatEvents(11, [turnStart, delta, repairs]), '10')).toEqual([
      { type: 'RUN_STARTED', lastId: '10' },
      { type: 'STATE_DELTA', lastId: '11' },
      { type: 'CUSTOM', lastId: '11' },
    ]);
  });

  it('a version without a state event, and events outside versions', () => {
    expect(lastIds(formatEvents(3, [repairs]), '2')).toEqual([{ type: 'CUSTOM', lastId: '3' }]);
    expect(formatEvents(null, [turnStart])).not.toContain('id:');
  });
});
