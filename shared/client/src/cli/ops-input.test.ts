import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseOpsInput } from './ops-input.ts';

const op = (v: string) => ({ op: 'replace', path: '/title', value: v });

describe('weft submit input', () => {
  it('a JSON array of ops, a step, or one op: one step', () => {
    expect(parseOpsInput(JSON.stringify([op('a'), op('b')]))).toEqual({ ok: true, steps: [{ ops: [op('a'), op('b')] }] });
    expect(parseOpsInput(JSON.stringify({ opId: 'x', turnId: 't', ops: [op('a')] }))).toEqual({ ok: true, steps: [{ opId: 'x', turnId: 't', ops: [op('a')] }] });
    expect(parseOpsInput(JSON.stringify(op('a')))).toEqual({ ok: true, steps: [{ ops: [op('a')] }] });
    // {"ops": {one op}} is a step of that op, as the server and the model reader read it.
    expect(parseOpsInput(JSON.stringify({ opId: 'y', ops: op('a') }))).toEqual({ ok: true, steps: [{ opId: 'y', ops: [op('a')] }] });
    expect(parseOpsInput(`${JSON.stringify({ ops: op('a') })}
${JSON.stringify({ ops: [op('b')] })}`)).toEqual({ ok: true, steps: [{ ops: [op('a')] }, { ops: [op('b')] }] });
  });

  it('JSON Lines: all ops → one step; all steps → each in order', () => {
    expect(parseOpsInput(`${JSON.stringify(op('a'))}\n\n${JSON.stringify(op('b'))}\n`)).toEqual({ ok: true, steps: [{ ops: [op('a'), op('b')] }] });
    const two = [{ opId: '1', ops: [op('a')] }, { opId: '2', ops: [op('b')] }].map((s) => JSON.stringify(s)).join('\n');
    expect(parseOpsInput(two)).toEqual({ ok: true, steps: [{ opId: '1', ops: [op('a')] }, { opId: '2', ops: [op('b')] }] });
  });

  it('bad input names the line or item and what is expected', () => {
    expect(parseOpsInput('')).toMatchObject({ ok: false, message: expect.stringContaining('no input') });
    expect(parseOpsInput(`${JSON.stringify(op('a'))}\n{oops`)).toMatchObject({ ok: false, message: expect.stringMatching(/^line 2: not JSON/) });
    expect(parseOpsInput(`${JSON.stringify({ ops: [] })}\n${JSON.stringify(op('a'))}`)).toMatchObject({ ok: false, message: expect.stringMatching(/^line 2: an op among steps/) });
    expect(parseOpsInput(JSON.stringify([op('a'), 5]))).toMatchObject({ ok: false, message: 'item 1: not a JSON Patch op ({"op": …, "path": …})' });
    expect(parseOpsInput(JSON.stringify({ ops: [], __proto__x: 1 }))).toMatchObject({ ok: false });
  });

  it('fuzz: any text gives steps or a one-line message, never a throw', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json(), fc.array(fc.json()).map((a) => a.join('\n'))), (text) => {
      const r = parseOpsInput(text);
      if (r.ok) for (const s of r.steps) expect(Array.isArray(s.ops)).toBe(true);
      else expect(r.message).not.toMatch(/\n/);
    }), { numRuns: 500 });
  });
});
