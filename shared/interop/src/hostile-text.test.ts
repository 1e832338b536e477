// Issue 14: every reader of model-supplied text in interop is total and linear. The lenient JSON
// parser, the JSON Lines step reader (whole and streamed in random chunks) and the surface-fence
// reader are fuzzed over arbitrary Unicode weighted towards U+2028/2029, NUL, lone surrogates,
// JSON and fence punctuation, plus very long and very nested input: each returns a result (ok or
// a typed error), never throws, never hangs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLenient } from './lenient-json.ts';
import { readModelSteps, StepReader } from './model-steps.ts';
import { checkBodySurfaces, findSurfaceFences, parseSurfaceFence } from './surface-fence.ts';
import { fromA2ui } from './a2ui-import.ts';
import { A2uiStream } from './a2ui-stream.ts';
import { fromJsonRender } from './json-render.ts';

const TRICKY = ['\u2028', '\u2029', '\u0000', '\ud800', '\udfff', '\r', '\n', '\t', ' ', '{', '}', '[', ']', '"', '\\', ',', ':', '"id":', '"root"', '"component":"Text"', '{"data":', '"__proto__"', '"constructor"', 'true', 'null', '1e999', '-', '```', '```surface {"id":"s"}\n', '~~~surface {"id":"s"}\n', '~~~', '````', 'a', '😀'];
const tricky = fc.array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 80 }).map((p) => p.join(''));
const hostile = fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 200 }), fc.json({ maxDepth: 4 }));

describe('interop text readers under hostile input', () => {
  it('parseLenient: ok with an end inside the text, or a failure with an offset', () => {
    fc.assert(fc.property(hostile, (s) => {
      const r = parseLenient(s);
      if (r.ok) expect(r.end).toBeLessThanOrEqual(s.length);
      else expect(typeof r.at).toBe('number');
    }), { numRuns: 3000 });
  });

  it('StepReader: the same steps whole or in random chunks, never a throw', () => {
    fc.assert(fc.property(hostile, fc.array(fc.nat(30), { maxLength: 10 }), (s, cuts) => {
      const whole = readModelSteps(s);
      const r = new StepReader();
      const steps = [];
      let at = 0;
      for (const c of cuts) { steps.push(...r.push(s.slice(at, at + c))); at += c; }
      steps.push(...r.push(s.slice(at)), ...r.end());
      expect(steps).toEqual(whole.steps);
    }), { numRuns: 1500 });
  });

  it('surface fences: found, parsed (streaming or not) and checked without a throw', () => {
    fc.assert(fc.property(hostile, hostile, (a, b) => {
      const md = `${a}\n\`\`\`surface {"id":"f"}\n${b}\n${a}`;
      for (const f of findSurfaceFences(md)) {
        const p = parseSurfaceFence(f.body, f.info, { streaming: !f.closed });
        expect(p.section.kind).toBe('surface');
      }
      const checked = checkBodySurfaces(md);
      for (const r of checked.refusals) expect(typeof r.message).toBe('string');
    }), { numRuns: 1500 });
  });

  it('A2UI (JSON Lines text or messages, whole or streamed) and json-render input: converted with notes, never a throw', () => {
    const a2uiMsg = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record({ version: fc.constant('v0.9'), createSurface: fc.record({ surfaceId: fc.constantFrom('s', '__proto__', 'constructor', ''), catalogId: fc.string() }) }),
      fc.record({ version: fc.constant('v0.9'), updateComponents: fc.record({ surfaceId: fc.constantFrom('s', '__proto__'), components: fc.array(fc.record({ id: fc.constantFrom('root', 'a', '__proto__', 'toString'), component: fc.constantFrom('Text', 'Column', 'Row', 'Button', 'Nope'), text: hostile, child: fc.constantFrom('a', 'root'), children: fc.array(fc.constantFrom('a', 'root', 'x')) }), { maxLength: 5 }) }) }),
      fc.record({ version: fc.constant('v0.9'), updateDataModel: fc.record({ surfaceId: fc.constant('s'), path: fc.constantFrom('/', '/a', '/__proto__/x', 'bad'), value: fc.jsonValue({ maxDepth: 3 }) }) }),
    );
    fc.assert(fc.property(fc.array(a2uiMsg, { maxLength: 8 }), hostile, (msgs, text) => {
      expect(Array.isArray(fromA2ui(msgs).value)).toBe(true);
      expect(Array.isArray(fromA2ui(`${msgs.map((m) => JSON.stringify(m)).join('\n')}\n${text}`).value)).toBe(true);
      const stream = new A2uiStream();
      for (const m of msgs) expect(Array.isArray(stream.push(m))).toBe(true);
      expect(fromJsonRender(msgs[0] ?? text).value.kind).toBe('surface');
      expect(({} as Record<string, unknown>)['x']).toBeUndefined();
    }), { numRuns: 1000 });
  });

  it('fuzz finds, kept as regressions: repeated/cyclic children and nested repeats stay linear', () => {
    // A Button's label search went through repeated, cyclic children without a visited set: 6
    // repeats of "root" under root made 14 million notes and took 6 s; 8 overflowed the stack.
    const comps = [{ id: 'root', component: 'Column', children: Array(8).fill('root') }, { id: 'toString', component: 'Button', child: 'root' }];
    const r = fromA2ui([{ version: 'v0.9', updateComponents: { surfaceId: 's', components: comps } }]);
    expect(r.notes.length).toBeLessThan(50);
    // json-render: a repeat inside a repeat over 300 items would be 90 000 elements.
    const xs = Array.from({ length: 300 }, (_, i) => i);
    const spec = { root: 'r', state: { xs }, elements: { r: { type: 'Stack', repeat: { statePath: '/xs' }, children: ['a'] }, a: { type: 'Stack', repeat: { statePath: '/xs' }, children: ['t'] }, t: { type: 'Text', props: { text: 'x' } } } };
    const j = fromJsonRender(spec);
    expect(Object.keys(j.value.components).length).toBeLessThanOrEqual(1001);
    expect(j.notes.some((n) => n.message.includes('More than 1000 elements'))).toBe(true);
  });

  it('prototype names are data or a refusal, never a prototype', () => {
    const p = parseSurfaceFence('{"id":"__proto__","component":"Text"}\n{"id":"constructor","component":"Text","props":{"text":"x"}}\n{"id":"toString","component":"Text","props":{"text":"y"}}\n{"id":"root","component":"Stack","children":["toString"]}\n{"data":{"__proto__":{"polluted":1},"ok":1}}', 'surface {"id":"x"}');
    expect(Object.getPrototypeOf(p.section.components)).toBe(Object.prototype);
    expect(p.errors.map((e) => e.line)).toEqual([1, 2]);
    expect(Object.keys(p.section.components).sort()).toEqual(['root', 'toString']);
    expect(p.notes.some((n) => n.message.includes('written again'))).toBe(false);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(checkBodySurfaces('```surface {"id":"__proto__"}\n{"id":"root","component":"Text","props":{"text":"a"}}\n```').refusals.length).toBeGreaterThan(0);
  });

  it('fence problems carry invalid_surface; an entry source in a fence is invalid_source', () => {
    const r = checkBodySurfaces('```surface {"id":"a"}\n{"data":{"$source":"drafts"}}\n{"id":"root","component":"Text","props":{"text":"x"}}\n```\n```surface {"id":"a"}\n```\n```surface {"id":"b"}\nnope');
    expect(r.refusals.map((x) => x.rule).sort()).toEqual(['invalid_source', 'invalid_surface', 'invalid_surface', 'invalid_surface', 'missing_root']);
  });

  it('long and deep input finishes (a quadratic pass would hang here)', () => {
    const deep = '['.repeat(200_000);
    expect(parseLenient(deep).ok).toBe(false);
    expect(readModelSteps('{"ops":'.repeat(50_000)).errors.length).toBeGreaterThan(0);
    const manyData = `\`\`\`surface {"id":"d"}\n${Array.from({ length: 20_000 }, (_, i) => `{"data":{"k${i}":${i}}}`).join('\n')}\n\`\`\``;
    expect(Object.keys(parseSurfaceFence(findSurfaceFences(manyData)[0]!.body, 'surface {"id":"d"}').section.data)).toHaveLength(20_000);
    const manyFences = '```surface {"id":"a"}\n'.repeat(20_000);
    expect(findSurfaceFences(manyFences).length).toBeGreaterThan(0);
    expect(typeof parseLenient(`"${'\u2028\u0000\\u00'.repeat(50_000)}"`).ok).toBe('boolean');
  });
});
