// Undo planning from the log, pure: stacks per actor, redo cleared by a new change, turn scope,
// and conflicts with someone else's later change — no database.
import { describe, expect, it } from 'vitest';
import type { Json, Op } from '@weft/core';
import type { StoredStep } from '@weft/store';
import { planUndo } from './undo.ts';

let v = 0;
function s(actor: string, ops: Op[], inverse: Op[], extra: Partial<StoredStep> = {}): StoredStep {
  v += 1;
  return {
    draftId: 'd', version: v, position: v, createdAt: new Date(0), opId: `o${v}`, bodyHash: 'h', actor, actorKind: 'human',
    sessionId: null, turnId: null, ops, inverse, notes: [], refused: [], yUpdate: null, kind: 'do', undoOf: [], ...extra,
  };
}
const set = (path: string, value: Json): Op => ({ op: 'replace', path, value });

describe('planUndo', () => {
  it('[UN1] undoes the actor\'s last step with its stored inverse; nothing to undo for someone without steps', () => {
    v = 0;
    const h = [s('ann', [set('/title', 'A')], [set('/title', '')]), s('bob', [set('/sections/x/style/tone', 'muted')], [set('/sections/x/style/tone', 'plain')])];
    expect(planUndo(h, 'ann', 'step', 'undo')).toEqual({ ok: true, ops: [set('/title', '')], undoOf: [1], kind: 'undo', since: 1 });
    expect(planUndo(h, 'cy', 'step', 'undo')).toMatchObject({ ok: false, code: 'NOTHING_TO_UNDO' });
  });

  it('[UN2] redo follows an undo; a new change clears it', () => {
    v = 0;
    const h = [s('ann', [set('/title', 'A')], [set('/title', '')])];
    h.push(s('ann', [set('/title', '')], [set('/title', 'A')], { kind: 'undo', undoOf: [1] }));
    expect(planUndo(h, 'ann', 'step', 'redo')).toMatchObject({ ok: true, ops: [set('/title', 'A')], undoOf: [2], kind: 'redo' });
    expect(planUndo(h, 'ann', 'step', 'undo')).toMatchObject({ ok: false, code: 'NOTHING_TO_UNDO' });
    h.push(s('ann', [set('/title', 'B')], [set('/title', '')]));
    expect(planUndo(h, 'ann', 'step', 'redo')).toMatchObject({ ok: false, code: 'NOTHING_TO_UNDO' });
    expect(planUndo(h, 'ann', 'step', 'undo')).toMatchObject({ ok: true, undoOf: [3] });
  });

  it('[UN3] turn scope undoes every step of the last turn, newest first', () => {
    v = 0;
    const h = [
      s('bot', [set('/title', '1')], [set('/title', '')], { turnId: 'T' }),
      s('bot', [set('/sections/a/style/tone', 'muted')], [set('/sections/a/style/tone', 'plain')], { turnId: 'T' }),
    ];
    expect(planUndo(h, 'bot', 'turn', 'undo')).toMatchObject({ ok: true, undoOf: [2, 1], ops: [set('/sections/a/style/tone', 'plain'), set('/title', '')], since: 1 });
    expect(planUndo(h, 'bot', 'step', 'undo')).toMatchObject({ ok: true, undoOf: [2] });
  });

  it('[UN4] a later change by someone else to what the undo rewrites is UNDO_CONFLICT naming it; elsewhere is fine', () => {
    v = 0;
    const h = [s('ann', [set('/sections/a/components/t/props/text', 'A')], [set('/sections/a/components/t/props/text', '')])];
    h.push(s('bob', [set('/title', 'B')], [set('/title', '')]));
    expect(planUndo(h, 'ann', 'step', 'undo').ok).toBe(true);
    h.push(s('bob', [set('/sections/a/components/t/props', { text: 'bob' })], [set('/sections/a/components/t/props', {})]));
    expect(planUndo(h, 'ann', 'step', 'undo')).toMatchObject({ ok: false, code: 'UNDO_CONFLICT', actor: 'bob', version: 3, path: '/sections/a/components/t/props' });
  });

  it('[UN5] array elements count as their whole array (indices shift under concurrent inserts)', () => {
    v = 0;
    const h = [s('ann', [{ op: 'add', path: '/order/-', value: 'a' }], [{ op: 'remove', path: '/order/0' }])];
    h.push(s('bob', [{ op: 'add', path: '/order/0', value: 'b' }], [{ op: 'remove', path: '/order/0' }]));
    expect(planUndo(h, 'ann', 'step', 'undo')).toMatchObject({ ok: false, code: 'UNDO_CONFLICT', path: '/order/0' });
  });
});
