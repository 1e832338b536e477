import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fixtureDraft } from './fixtures.testkit.ts';
import { decodeEntities } from './html-scan.testkit.ts';
import { cspWithStyleHash, renderPage } from './page.ts';
import type { RenderNote } from './notes.ts';

describe('renderPage', () => {
  const draft = fixtureDraft('Heading');

  it('is a full document with a strict CSP that allows our <style> by hash and no inline script', () => {
    const html = renderPage(draft, { title: 'A <title>', scripts: ['/_weft/morph.js', 'https://cdn.example.com/x.js', 'javascript:alert(1)'] });
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const hash = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    const csp = decodeEntities(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '');
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain(`style-src 'self' ${hash}`);
    expect(csp).toContain("img-src 'self' https: data:");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(html).toContain('<title>A &lt;title&gt;</title>');
    // Only the same-origin script survives; it is external, never inline.
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="/_weft/morph.js" defer>', '<script type="application/json" data-weft-state data-section-id="main">']);
    expect(html).toContain('data-component-id="c">Hello world</h1>');
    expect(html.startsWith('<!doctype html>')).toBe(true);
  });

  it('hands the render notes to onNotes', () => {
    let got: RenderNote[] = [];
    renderPage(fixtureDraft('Link', { text: 'x', href: 'javascript:void 0' }), { title: 't', onNotes: (n) => { got = n; } });
    expect(got.map((n) => n.rule)).toEqual(['invalid_url']);
  });

  it('adds the style hash to a custom CSP', () => {
    expect(cspWithStyleHash("default-src 'none'; style-src 'self'", 'a{}')).toMatch(/^default-src 'none'; style-src 'self' 'sha256-[A-Za-z0-9+/=]+'$/);
    expect(cspWithStyleHash("default-src 'none'", 'a{}')).toMatch(/; style-src 'sha256-/);
  });
});
