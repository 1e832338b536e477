// XSS corpus (OWASP filter-evasion strings) through every string of every component fixture,
// every URL prop, the data model (via bindings), component and section ids. The output may hold
// no executable script, no event-handler attribute, no style attribute and no dangerous URL.

import { describe, expect, it } from 'vitest';
import type { Component, Draft, Json, JsonObject } from '@weft/core';
import { FIXTURES, fixtureDraft, draftWith } from './fixtures.testkit.ts';
import { xssFindings } from './html-scan.testkit.ts';
import { renderPage } from './page.ts';
import { renderDraft } from './render.ts';

export const PAYLOADS: readonly string[] = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '<svg/onload=alert(1)>',
  '<img src="javascript:alert(1)">',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java\rscript:alert(1)',
  ' \u0001javascript:alert(1)',
  '\u0000javascript:alert(1)',
  'jav&#x09;ascript:alert(1)',
  '&#106;avascript:alert(1)',
  '&#x6A;&#x61;&#x76;&#x61;script:alert(1)',
  'javascript&colon;alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  '//evil.example/x.js',
  '/\\evil.example',
  '</script><script>alert(1)</script>',
  '<!--<script>alert(1)//-->',
  '<style>*{background:url("javascript:alert(1)")}</style>',
  'x" style="background:url(javascript:alert(1))',
  "x' onmouseover='alert(1)",
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '[click](javascript:alert(1))',
  '**[x](data:text/html,hi)**',
  '[x](JaVaScRiPt:alert(1))',
  '`<script>`',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<object data="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '\u2028\u2029<script>alert(1)</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '{{constructor.constructor("alert(1)")()}}',
];

const ALLOWED_TAGS = new Set([
  'section', 'div', 'span', 'p', 'a', 'button', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'img', 'svg', 'path', 'rect',
  'circle', 'line', 'polyline', 'polygon', 'text', 'title', 'strong', 'em', 'code', 'pre', 'ul', 'ol', 'li', 'blockquote',
  'cite', 'footer', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'figure', 'figcaption', 'details', 'summary', 'input',
  'label', 'fieldset', 'legend', 'select', 'option', 'output', 'textarea', 'form', 'aside', 'script',
  // page shell
  'html', 'head', 'meta', 'style', 'body', 'main',
]);

/** Every path to a string inside a JSON value, and a setter that returns a copy with it replaced. */
function stringSlots(v: Json, path: (string | number)[] = []): (string | number)[][] {
  if (typeof v === 'string') return [path];
  if (Array.isArray(v)) return v.flatMap((x, i) => stringSlots(x, [...path, i]));
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => stringSlots(x, [...path, k]));
  return [];
}
function setAt(v: Json, path: (string | number)[], value: Json): Json {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy = structuredClone(v) as Record<string | number, Json>;
  copy[head as string] = setAt(copy[head as string] as Json, rest, value);
  return copy as Json;
}

const URL_PROPS: [string, string][] = [['Image', 'src'], ['Link', 'href'], ['Button', 'href'], ['Video', 'src']];

function check(html: string): void {
  const findings = xssFindings(html, ALLOWED_TAGS);
  expect(findings).toEqual([]);
  expect(html).not.toMatch(/<script(?![^>]*type="application\/json")/i);
  // The same, by regex over the tags alone: data blocks and quoted (escaped) values removed.
  const tagsOnly = html.replace(/<script type="application\/json"[^>]*>[^<]*<\/script>/g, '').replace(/"[^"]*"/g, '""');
  expect(tagsOnly).not.toMatch(/<[^>]*\son\w+\s*=/i);
  expect(tagsOnly).not.toMatch(/<[^>]*\sstyle\s*=/i);
}

describe('XSS corpus', () => {
  for (const [name, fixture] of Object.entries(FIXTURES)) {
    it(`every string prop of ${name}`, () => {
      const slots = stringSlots(fixture.props);
      expect(slots.length).toBeGreaterThan(name === 'Spacer' || name === 'Divider' || name === 'Accordion' || name === 'Carousel' || name === 'Slider' || name === 'Counter' || name === 'Grid' || name === 'Checkbox' ? -1 : 0);
      for (const slot of slots) {
        for (const p of PAYLOADS) {
          const props = setAt(fixture.props, slot, p) as JsonObject;
          check(renderDraft(fixtureDraft(name, props)).html);
          // Without the catalog check too, so the renderer's own guards see every payload.
          check(renderDraft(fixtureDraft(name, props), { checkProps: false }).html);
          // The same payload arriving through the data model.
          const bound = setAt(fixture.props, slot.slice(0, 1), { path: '/x' }) as JsonObject;
          check(renderDraft(fixtureDraft(name, bound, { x: slot.length === 1 ? p : (setAt(fixture.props[String(slot[0])] ?? null, slot.slice(1), p)) })).html);
        }
      }
    });
  }

  it('every URL prop refuses every dangerous payload and says so', () => {
    for (const [name, prop] of URL_PROPS) {
      for (const p of PAYLOADS) {
        const props = { ...FIXTURES[name]!.props, [prop]: p };
        const r = renderDraft(fixtureDraft(name, props));
        check(r.html);
        expect(r.notes.some((n) => n.rule === 'invalid_url' && n.componentId === 'c')).toBe(true);
      }
    }
  });

  it('actions: navigate/share hrefs and action text', () => {
    for (const p of PAYLOADS) {
      for (const onClick of [{ action: 'navigate', href: p }, { action: 'share', href: p, text: p }, { action: 'copy', text: p }, { action: 'set', path: '/a', value: p }]) {
        check(renderDraft(fixtureDraft('Button', { label: 'x', onClick })).html);
      }
    }
  });

  it('ids, section ids, catalog names and the data model', () => {
    for (const p of PAYLOADS) {
      const root: Component = { id: 'root', component: 'Stack', children: [p, 'u'] };
      const d: Draft = draftWith(root, [
        { id: p, component: 'Text', props: { text: 'x' } },
        { id: 'u', component: p, props: {} },
      ], { data: p, [p]: [p] }, p);
      d.sections[p]!.catalog = p;
      check(renderDraft(d).html);
      check(renderPage(d, { title: p, scripts: [p] }));
    }
  });
});
