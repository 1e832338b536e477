import { describe, expect, it } from 'vitest';
import { checkUrl } from './url.ts';

describe('checkUrl', () => {
  it.each([
    ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
    ['HTTP://Example.com', 'http://example.com/'],
    ['/pricing', '/pricing'],
    ['/a/../b', '/b'],
    ['#faq', '#faq'],
    ['mailto:hi@example.com?subject=Hello', 'mailto:hi@example.com?subject=Hello'],
  ])('allows %s', (input, out) => {
    expect(checkUrl(input, 'link')).toEqual({ ok: true, url: out });
  });

  it.each([
    'javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'java\nscript:alert(1)',
    ' \u0001javascript:alert(1)', '&#106;avascript:alert(1)', 'javascript&colon;alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', 'vbscript:msgbox(1)', 'file:///etc/passwd',
    '//evil.example/x', '/\\evil.example', '\\\\evil', 'ftp://x', 'foo:bar', 'relative/path', '', 'https://',
    'https://user:pw@example.com/', 'java\u2028script:alert(1)', 'jav&#x09;ascript:alert(1)',
  ])('refuses %j', (input) => {
    expect(checkUrl(input, 'link').ok).toBe(false);
  });

  it('refuses non-strings', () => {
    expect(checkUrl(42, 'link').ok).toBe(false);
    expect(checkUrl({ path: '/x' }, 'image').ok).toBe(false);
  });

  it('allows assets/ only for media, and keeps it inside assets/', () => {
    expect(checkUrl('assets/hero.png', 'image')).toEqual({ ok: true, url: 'assets/hero.png' });
    expect(checkUrl('assets/hero.png', 'link').ok).toBe(false);
    expect(checkUrl('assets/../../secret', 'image').ok).toBe(false);
  });

  it('video is https only; images refuse mailto and fragments', () => {
    expect(checkUrl('http://example.com/v.mp4', 'video').ok).toBe(false);
    expect(checkUrl('https://example.com/v.mp4', 'video').ok).toBe(true);
    expect(checkUrl('mailto:a@b.c', 'image').ok).toBe(false);
    expect(checkUrl('#x', 'image').ok).toBe(false);
  });

  it('keeps only subject/body/cc/bcc in mailto, decoding names first', () => {
    const r = checkUrl('mailto:a@b.c?subject=Hi%20there&attach=/etc/passwd&%61ttach=x&cc=c@d.e&to=x@y.z', 'link');
    expect(r).toEqual({ ok: true, url: 'mailto:a@b.c?subject=Hi%20there&cc=c%40d.e', stripped: ['attach', 'attach', 'to'] });
  });

  it('drops a mailto header field that smuggles a line break', () => {
    const r = checkUrl('mailto:a@b.c?subject=x%0D%0ABcc:evil@x.y', 'link');
    expect(r.ok && r.url).toBe('mailto:a@b.c');
  });

  it('output never carries a quote or angle bracket raw', () => {
    const r = checkUrl('https://example.com/"><script>', 'link');
    expect(r.ok && /["<>]/.test(r.url)).toBe(false);
  });
});
