// Surfaces inside prose (RFC §5): fences render as live surfaces between the paragraphs, stream
// line by line, and hostile fence input never throws. The healing pass only changes the view.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftWith } from './fixtures.testkit.ts';
import { heal } from './prose.ts';
import { renderDraft } from './render.ts';
import { renderInline } from './inline.ts';

const md = (source: string) => renderDraft(draftWith({ id: 'root', component: 'Markdown', props: { source } }));
const pricing = [
  '```surface {"id":"pricing","catalog":"weft@1"}',
  '{"data":{"billing":"monthly"}}',
  '{"id":"root","component":"Stack","children":["switch","note"]}',
  '{"id":"switch","component":"Toggle","props":{"options":["monthly","yearly"],"value":{"path":"/billing"}}}',
  '{"id":"note","component":"Text","props":{"text":{"path":"/billing"}}}',
  '```',
].join('\n');
const faq = ['~~~surface {"id":"faq"}', '{"id":"root","component":"Heading","props":{"text":"Questions?"}}', '~~~'].join('\n');

describe('surface fences in Markdown', () => {
  it('prose and two fences: both surfaces render live between the paragraphs', () => {
    const r = md(`Our plans changed.\n\n${pricing}\n\nAnd some *questions*:\n\n${faq}\n\nAsk in the comments.`);
    const order = [...r.html.matchAll(/<p>Our plans|<section class="weft-section weft-inline-surface[^>]*data-section-id="main-root-(pricing|faq)"|<p>And some <em>questions<\/em>|<p>Ask in/g)].map((m) => m[1] ?? m[0]);
    expect(order).toEqual(['<p>Our plans', 'pricing', '<p>And some <em>questions</em>', 'faq', '<p>Ask in']);
    expect(r.html).toContain('data-weft-model="/billing"');
    expect(r.html).toContain('<script type="application/json" data-weft-state data-section-id="main-root-pricing">{"billing":"monthly"}</script>');
    expect(r.html).toContain('>Questions?</h2>');
    expect(r.interactive).toBe(true);
    expect(r.notes.filter((n) => n.severity === 'broken')).toEqual([]);
    expect(r.html).not.toContain('<pre><code>');
  });

  it('a streamed fence renders each completed line and ignores the unfinished tail', () => {
    const lines = pricing.split('\n');
    // root + switch complete, the note line cut mid-way, no closing fence yet
    const streamed = `Intro\n\n${lines.slice(0, 4).join('\n')}\n${lines[4]!.slice(0, 30)}`;
    const r = md(streamed);
    expect(r.html).toContain('data-component-id="switch"');
    expect(r.html).toContain('Missing component “note”'); // named by root, its line not complete yet
    expect(r.notes.some((n) => n.message.includes('not one JSON value'))).toBe(false);
    expect(r.notes).toContainEqual(expect.objectContaining({ severity: 'approximate', message: expect.stringContaining('still open') }));
    // before root arrives: a placeholder, not half a surface
    const early = md(`Intro\n\n${lines.slice(0, 2).join('\n')}\n{"id":"ro`);
    expect(early.html).toContain('Surface “pricing” is loading…');
    expect(early.html).not.toContain('data-section-id="main-root-pricing"');
    // each further completed line shows
    const steps = [3, 4, 5].map((k) => md(`Intro\n\n${lines.slice(0, k).join('\n')}`).html);
    expect(steps[0]).toContain('data-component-id="root"');
    expect(steps[1]).toContain('data-component-id="switch"');
    expect(steps[2]).toContain('data-component-id="note"');
  });

  it('same validation as page surfaces: a duplicate fence id, unknown components kept and flagged, bad lines noted', () => {
    const dup = md(`${faq}\n\n${faq}`);
    expect(dup.notes).toContainEqual(expect.objectContaining({ rule: 'invalid_surface', severity: 'broken' }));
    expect(dup.html).toContain('appears twice');
    const odd = md('```surface {"id":"odd"}\n{"id":"root","component":"Widget"}\nnot json\n```');
    expect(odd.notes).toContainEqual(expect.objectContaining({ rule: 'unknown_component', componentId: 'root' }));
    expect(odd.notes).toContainEqual(expect.objectContaining({ rule: 'invalid_surface', message: expect.stringContaining('Line 2') }));
    expect(odd.html).toContain('Unknown component “Widget”');
  });

  it('a Text body with a fence becomes prose with a surface; fences inside a fence are not expanded', () => {
    const r = renderDraft(draftWith({ id: 'root', component: 'Text', props: { text: `Before\n${faq}\nAfter` } }));
    expect(r.html).toContain('>Questions?</h2>');
    const inner = JSON.stringify({ id: 'root', component: 'Markdown', props: { source: faq } });
    const nested = md(`\`\`\`\`surface {"id":"outer"}\n${inner}\n\`\`\`\``);
    expect(nested.html).toContain('Surface inside a surface');
  });

  it('fuzzed fence input never throws and always yields a section', () => {
    const part = fc.oneof(fc.constantFrom('```surface {"id":"f"}', '~~~surface {"id":"g"}', '```', '~~~', '{"id":"root","component":"Stack","children":["a"]}', '{"id":"a","component":"Text","props":{"text":"x"}}', '{"data":{"__proto__":1}}', '{"id":"__proto__","component":"Text"}', '{"id":', '\u2028', '\u0000', '\ud800', ''), fc.string({ unit: 'binary', maxLength: 30 }));
    fc.assert(fc.property(fc.array(part, { maxLength: 30 }), (parts) => {
      const r = md(parts.join('\n'));
      expect(r.html).toContain('data-component-id="root"');
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    }), { numRuns: 1500 });
  });
});

describe('healing while text streams (the view only)', () => {
  const none = (): void => {};
  it('closes an open **, *, ` and link at the end; finished text renders as written', () => {
    expect(renderInline(heal('a **bold'), none)).toBe('a <strong>bold</strong>');
    expect(renderInline(heal('an *em'), none)).toBe('an <em>em</em>');
    expect(renderInline(heal('run `npm'), none)).toBe('run <code>npm</code>');
    expect(renderInline(heal('see [the docs](https://exa'), none)).toBe('see the docs');
    for (const done of ['5 * 3 = 15', 'a **b** c', 'x `y` z', '[a](https://e.example/)', 'end *']) expect(heal(done)).toBe(done);
    expect(heal('line one **open\nline two')).toBe('line one **open\nline two');
  });
});
