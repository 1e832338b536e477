import { describe, expect, it } from 'vitest';
import { renderInline } from './inline.ts';
import { renderMarkdown } from './markdown.ts';

const none = (): void => {};

describe('inline markdown', () => {
  it('formats bold, em, code and links', () => {
    expect(renderInline('a **b** *c* `d*e*` [f](https://x.example/y_z*)', none)).toBe(
      'a <strong>b</strong> <em>c</em> <code>d*e*</code> <a href="https://x.example/y_z*" rel="noopener noreferrer nofollow">f</a>',
    );
  });

  it('escapes first: raw HTML stays text', () => {
    expect(renderInline('<b>x</b> **<i>**', none)).toBe('&lt;b&gt;x&lt;/b&gt; <strong>&lt;i&gt;</strong>');
  });

  it('a refused link keeps its text, loses its href, and is reported', () => {
    const refused: string[] = [];
    const html = renderInline('[click](javascript:alert(1))', (u) => refused.push(u));
    expect(html).not.toContain('href');
    expect(html).toContain('click');
    expect(refused).toHaveLength(1);
  });
});

describe('block markdown', () => {
  it('renders headings, lists, quotes, code and paragraphs', () => {
    const html = renderMarkdown('# Title\n\nSome *text*\nmore\n\n- a\n- b\n\n1. one\n\n> quoted\n\n```\n<x>\n```\n\n---', none);
    expect(html).toBe(
      '<h1>Title</h1><p>Some <em>text</em> more</p><ul><li>a</li><li>b</li></ul><ol><li>one</li></ol>' +
        '<blockquote><p>quoted</p></blockquote><pre><code>&lt;x&gt;</code></pre><hr>',
    );
  });

  it('an unclosed fence is closed by the end of input', () => {
    expect(renderMarkdown('```\ncode', none)).toBe('<pre><code>code</code></pre>');
  });
});
