import { describe, expect, it } from 'vitest';
import { attr, escapeHtml, jsonForScript } from './escape.ts';

describe('escaping', () => {
  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(escapeHtml('plain')).toBe('plain');
  });

  it('quotes attributes', () => {
    expect(attr('title', '" onmouseover="x')).toBe(' title="&quot; onmouseover=&quot;x"');
  });

  it('makes JSON inert inside a script element and round-trips it', () => {
    const value = { a: '</script><script>alert(1)</script>', b: '<!-- -->', c: '\u2028\u2029', d: 'a&b' };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
