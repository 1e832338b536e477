import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_STEP_MESSAGE, readModelSteps, StepReader } from './model-steps.ts';
import { parseLenient } from './lenient-json.ts';

const op = { op: 'add', path: '/sections/a/components/x', value: { id: 'x', component: 'Text', props: { text: 'hi' } } };

describe('readModelSteps: the tolerant JSON Lines reader', () => {
  it('reads one step per line', () => {
    const r = readModelSteps(`{"say":"Building."}\n{"ops":[${JSON.stringify(op)}]}\n{"done":true}`);
    expect(r.steps).toEqual([{ say: 'Building.' }, { ops: [op] }, { done: true }]);
    expect(r.errors).toEqual([]);
    expect(r.prose).toEqual([]);
  });

  it('reads objects spanning lines and several on one line', () => {
    const pretty = JSON.stringify({ ops: [op] }, null, 2);
    const r = readModelSteps(`${pretty}\n{"say":"a"} {"say":"b"}{"done":true}`);
    expect(r.steps).toEqual([{ ops: [op] }, { say: 'a' }, { say: 'b' }, { done: true }]);
  });

  it('sets prose and code fences aside but reads JSON inside a fence', () => {
    const r = readModelSteps(`Sure! Here is the plan:\n\`\`\`json\n{"ops":[${JSON.stringify(op)}]}\n\`\`\`\nThat's it (see [1]).\n{"done":true}`);
    expect(r.steps).toEqual([{ ops: [op] }, { done: true }]);
    expect(r.prose).toEqual(['Sure! Here is the plan:', "That's it (see [1])."]);
    expect(r.errors).toEqual([]);
  });

  it('reads trailing commas and raw line breaks inside strings', () => {
    const r = readModelSteps('{"say":"two\nlines",}\n{"ops":[{"op":"remove","path":"/sections/a",},],}');
    expect(r.steps).toEqual([{ say: 'two\nlines' }, { ops: [{ op: 'remove', path: '/sections/a' }] }]);
    expect(r.errors).toEqual([]);
  });

  it('reads a bare op, {ops:[…]} and an array of ops as one step each', () => {
    const r = readModelSteps(`${JSON.stringify(op)}\n[${JSON.stringify(op)},${JSON.stringify(op)}]`);
    expect(r.steps).toEqual([{ ops: [op] }, { ops: [op, op] }]);
  });

  it('an answer with no object gets exactly one clear error', () => {
    const r = readModelSteps('I would build a hero section with a heading.\nThen a button.');
    expect(r.steps).toEqual([]);
    expect(r.errors).toEqual([{ line: 1, message: NO_STEP_MESSAGE }]);
    expect(r.prose).toHaveLength(2);
  });

  it('reports a broken object with its line and goes on', () => {
    const r = readModelSteps('{"say":"ok"}\n{"ops": [ {"op": "add" "path": "/x"} ]}\n{"done":true}');
    expect(r.steps).toEqual([{ say: 'ok' }, { done: true }]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.line).toBe(2);
  });

  it('reports an object that is not a step, and an unclosed one at the end', () => {
    const r = readModelSteps('{"id":"x","component":"Text"}\n{"ops":[');
    expect(r.errors.map((e) => e.line)).toEqual([1, 2]);
  });

  it('a brace inside a prose line does not swallow the steps after it', () => {
    const r = readModelSteps('Use a { brace in prose\n{"done":true}');
    expect(r.steps).toEqual([{ done: true }]);
  });
});

describe('StepReader: steps come out as each object completes', () => {
  it('yields a step as soon as its closing brace arrives, whatever the chunking', () => {
    const text = `prose\n{"say":"a"}\n{"ops":[${JSON.stringify(op)}]}{"done":true}`;
    for (const size of [1, 3, 7, 64]) {
      const r = new StepReader();
      const seen: unknown[] = [];
      for (let i = 0; i < text.length; i += size) seen.push(...r.push(text.slice(i, i + size)));
      r.end();
      expect(seen).toEqual([{ say: 'a' }, { ops: [op] }, { done: true }]);
      expect(r.errors).toEqual([]);
      expect(r.prose).toEqual(['prose']);
    }
    const r = new StepReader();
    expect(r.push('{"say":"par')).toEqual([]);
    expect(r.push('tial"}')).toEqual([{ say: 'partial' }]);
  });
});

describe('readModelSteps: what models write besides JSON Lines (issue 19)', () => {
  /** Streams `text` through a StepReader `size` characters at a time: it must read as it does whole. */
  function expectSameInChunks(text: string, size: number, whole: ReturnType<typeof readModelSteps>): void {
    const r = new StepReader();
    const seen: unknown[] = [];
    for (let i = 0; i < text.length; i += size) seen.push(...r.push(text.slice(i, i + size)));
    seen.push(...r.end());
    expect(seen).toEqual(whole.steps);
    expect(r.errors).toEqual(whole.errors);
  }

  /** Read at once and in small chunks: the same steps and errors either way. */
  function read(text: string) {
    const whole = readModelSteps(text);
    for (const size of [1, 5, 29]) expectSameInChunks(text, size, whole);
    return whole;
  }

  it('a ```surface fence is one step adding its section, components and data as written', () => {
    const r = read([
      'The pricing, as a fence:',
      '```surface {"id":"pricing","catalog":"weft@1"}',
      '{"data":{"billing":"monthly"}}',
      '{"id":"switch","component":"Toggle","options":["monthly","yearly"],"value":{"path":"/billing"}}',
      '{"id":"root","component":"Stack","children":["switch"]}',
      '```',
      '{"done":true}',
    ].join('\n'));
    expect(r.errors).toEqual([]);
    expect(r.steps).toEqual([
      { ops: [{ op: 'add', path: '/sections/pricing', value: {
        id: 'pricing', kind: 'surface', catalog: 'weft@1', data: { billing: 'monthly' },
        components: {
          switch: { id: 'switch', component: 'Toggle', props: { options: ['monthly', 'yearly'], value: { path: '/billing' } } },
          root: { id: 'root', component: 'Stack', children: ['switch'] },
        },
      } }] },
      { done: true },
    ]);
  });

  it('a fence whose line is not a component is reported with its line, the rest still read', () => {
    const r = read('```surface {"id":"s"}\n{"id":"root","component":"Stack"}\nnot json\n```');
    expect(r.steps).toHaveLength(1);
    expect(r.errors).toEqual([{ line: 3, message: expect.stringContaining('Line 2 is not one JSON value') }]);
  });

  it('a fence with no id is an error, not a step; an unclosed fence at the end is still read', () => {
    expect(read('```surface\n{"id":"root","component":"Stack"}\n```').steps).toEqual([]);
    const open = read('```surface {"id":"s"}\n{"id":"root","component":"Stack"}');
    expect(open.steps).toEqual([{ ops: [expect.objectContaining({ path: '/sections/s' })] }]);
  });

  it('{"ops": {one op}} is a step of that op', () => {
    expect(read(`{"ops":${JSON.stringify(op)}}`).steps).toEqual([{ ops: [op] }]);
  });

  it('a top-level array of steps is its steps; an array of ops stays one step', () => {
    const r = read(JSON.stringify([{ ops: [op] }, { say: 'hi' }, { done: true }], null, 2));
    expect(r.steps).toEqual([{ ops: [op] }, { say: 'hi' }, { done: true }]);
    expect(read(JSON.stringify([op, op])).steps).toEqual([{ ops: [op, op] }]);
    expect(read('[{"ops":[]}, 3]').errors).toHaveLength(1);
  });

  it('JSON inside a prose sentence or a <think> block is not an unreadable step', () => {
    const r = read([
      '<think>',
      'I need {"id":"hero","kind":"surface"} first, then',
      '{"op":"add","path":"/sections/x"}',
      '</think>',
      'Each question looks like {"id":"q1","component":"Disclosure"}, under the Accordion.',
      `{"ops":[${JSON.stringify(op)}]}`,
    ].join('\n'));
    expect(r.errors).toEqual([]);
    expect(r.steps).toEqual([{ ops: [op] }]);
    expect(r.prose).toContain('Each question looks like {"id":"q1","component":"Disclosure"}, under the Accordion.');
  });

  it('hostile answers: never throws, the same steps whole or in chunks, no prototype keys (fuzzed)', () => {
    const bits = ['```surface {"id":"s"}', '```', '~~~surface', '<think>', '</think>', '{"ops":', '{"op":"add","path":"/sections/s"}', '[', ']', '{', '}', '"', '\\', ',',
      '{"id":"root","component":"Stack"}', '{"id":"__proto__","component":"Stack"}', '{"__proto__":{"polluted":1}}', '{"data":{"constructor":1}}', 'prose ', '\n', '\n', ' '];
    fc.assert(fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 40 }), fc.integer({ min: 1, max: 9 }), (parts, size) => {
      const text = parts.join('');
      const whole = readModelSteps(text);
      expectSameInChunks(text, size, whole);
      for (const st of whole.steps) if ('ops' in st) expect(Array.isArray(st.ops)).toBe(true);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    }), { numRuns: 500 });
  });

  it('a <think> opens a block only at the start of a line; one never closed is an error, not silence', () => {
    expect(read(`I will <think> about it: {"ops":[${JSON.stringify(op)}]}`).steps).toEqual([{ ops: [op] }]);
    const open = read(`<think>\nplanning {"ops":[]}\n{"ops":[${JSON.stringify(op)}]}`);
    expect(open.steps).toEqual([]);
    expect(open.errors).toEqual([{ line: 1, message: expect.stringContaining('not closed') }]);
  });

  it('a non-step object on its own line is still an error', () => {
    expect(read('{"id":"q1","component":"Disclosure"}').errors).toEqual([{ line: 1, message: expect.stringContaining('Not a step') }]);
  });
});

describe('parseLenient', () => {
  it('parses strict JSON like JSON.parse', () => {
    const v = { a: [1, -2.5e3, true, false, null, 'x\\u00e9\\n'], b: {} };
    const text = JSON.stringify(v);
    expect(parseLenient(text)).toEqual({ ok: true, value: JSON.parse(text), end: text.length });
  });

  it('never creates prototype keys and rejects what is not JSON', () => {
    const r = parseLenient('{"__proto__":{"x":1},"a":1}');
    expect(r.ok && r.value).toEqual({ a: 1 });
    expect(parseLenient("{'a':1}").ok).toBe(false);
    expect(parseLenient('{"a":undefined}').ok).toBe(false);
    expect(parseLenient('[1,2').ok).toBe(false);
  });
});
