// Issue 14: model-supplied text must never stall or kill the renderer. Every text door of render
// (inline markdown, block markdown, and the whole walk for Text/Markdown/Heading/List bodies) is
// fuzzed over arbitrary Unicode weighted towards what breaks parsers: U+2028/2029, NUL, lone
// surrogates, CR, markdown punctuation, very long and very nested input. Each must return a
// string with only our tags; the walk must give HTML or a placeholder with a broken note.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftWith } from './fixtures.testkit.ts';
import { renderInline } from './inline.ts';
import { renderMarkdown } from './markdown.ts';
import { renderDraft } from './render.ts';

const none = (): void => {};
const TRICKY = ['\u2028', '\u2029', '\u0000', '\ud800', '\udfff', '\r', '\n', '\n\n', '\t', ' ', '#', '# ', '>', '> ', '-', '- ', '1. ', '*', '**', '_', '`', '```', '~~~', '[', ']', '(', ')', '](', '<', '&', '"', 'a', 'é', '😀', '\u200b', '\ufeff'];
const tricky = fc.array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 80 }).map((p) => p.join(''));
export const hostileText = fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 200 }));

/** The only tags the markdown renderers write. */
const OURS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'hr', 'strong', 'em', 'a', 'span']);
function tagsOf(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => (m[1] ?? '').toLowerCase());
}

describe('hostile text is rendered, never loops or throws', () => {
  it('the U+2028 heading that once looped forever', () => {
    expect(renderMarkdown('# a\u2028b', none)).toBe('<h1>a\u2028b</h1>');
    expect(renderMarkdown('#\u2028b', none)).toBe('<h1>b</h1>');
    expect(renderMarkdown('- a\u2029b\n1. c\u2028', none)).toBe('<ul><li>a\u2029b</li></ul><ol><li>c\u2028</li></ol>');
    expect(renderMarkdown('> q\u2028\n# \u2028', none)).toBe('<blockquote><p>q</p></blockquote><h1></h1>');
  });

  it('NUL never reaches the HTML, code blocks included (a fuzz find)', () => {
    expect(renderMarkdown('```\n\u0000', none)).toBe('<pre><code></code></pre>');
  });

  it('block and inline markdown over fuzzed Unicode: a string with only our tags', () => {
    fc.assert(fc.property(hostileText, (s) => {
      for (const html of [renderMarkdown(s, none), renderInline(s, none)]) {
        expect(typeof html).toBe('string');
        for (const t of tagsOf(html)) expect(OURS.has(t)).toBe(true);
        expect(html).not.toContain('\u0000');
      }
    }), { numRuns: 3000 });
  });

  it('every line kind repeated 50 000 times finishes (linear; a quadratic pass would hang here)', () => {
    for (const unit of ['# a\u2028b\n', '- x\n', '> ', '>\n', '```\n', '**a', '[a](', '`', '*', '- - - x\n', '[' , '](' , '\u2028', '1. \u2029\n']) {
      const s = unit.repeat(50_000);
      expect(typeof renderMarkdown(s, none)).toBe('string');
      expect(typeof renderInline(s, none)).toBe('string');
    }
  });

  it('very nested quotes and lists are bounded', () => {
    expect(renderMarkdown('>'.repeat(100_000) + ' deep', none)).toContain('deep');
    expect(renderMarkdown(`${'  '.repeat(10_000)}- item`, none)).toContain('item');
  });

  it('the whole walk: a Text, Markdown, Heading and List of hostile text render or become a broken placeholder', () => {
    fc.assert(fc.property(hostileText, hostileText, (a, b) => {
      const draft = draftWith(
        { id: 'root', component: 'Stack', children: ['t', 'm', 'h', 'l'] },
        [
          { id: 't', component: 'Text', props: { text: a } },
          { id: 'm', component: 'Markdown', props: { source: `${a}\n${b}` } },
          { id: 'h', component: 'Heading', props: { text: b } },
          { id: 'l', component: 'List', props: { items: [a, b] } },
        ],
      );
      const r = renderDraft(draft);
      expect(r.html).toContain('data-component-id="m"');
      for (const n of r.notes) expect(['broken', 'approximate']).toContain(n.severity);
    }), { numRuns: 500 });
  });
});

describe('a section whose render throws', () => {
  it('becomes a placeholder with a broken note, and the other sections still render', () => {
    const draft = draftWith({ id: 'root', component: 'Text', props: { text: 'fine' } });
    const evil = { kind: 'surface', id: 'evil', catalog: 'weft@1', data: {}, get components(): never { throw new Error('boom'); } };
    (draft.sections as Record<string, unknown>)['evil'] = evil;
    draft.order.push('evil');
    const r = renderDraft(draft);
    expect(r.html).toContain('fine');
    expect(r.html).toContain('data-section-id="evil"');
    expect(r.notes).toContainEqual(expect.objectContaining({ sectionId: 'evil', severity: 'broken', rule: 'invalid_section' }));
  });
});
