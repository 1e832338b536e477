// One test per catalog component: its semantic markup and data-component-id on the outer element.

import { describe, expect, it } from 'vitest';
import { catalogNames } from './bindings.ts';
import { FIXTURES, fixtureDraft } from './fixtures.testkit.ts';
import { scanTags } from './html-scan.testkit.ts';
import { renderSection } from './render.ts';

/** The fixture component's HTML (inside the root Stack) and its notes. */
function render(name: string): { html: string; inner: string; notes: ReturnType<typeof renderSection>['notes'] } {
  const r = renderSection(fixtureDraft(name), 'main');
  const start = r.html.indexOf('data-component-id="root"');
  const open = r.html.indexOf('>', start) + 1;
  return { html: r.html, inner: r.html.slice(open), notes: r.notes };
}

/** The first tag of the fixture component must carry data-component-id="c". */
function outer(inner: string): { name: string; attrs: Map<string, string> } {
  const t = scanTags(inner).find((x) => x.attrs.some(([n, v]) => n === 'data-component-id' && v === 'c'));
  if (!t) throw new Error(`no element with data-component-id="c" in ${inner.slice(0, 300)}`);
  return { name: t.name, attrs: new Map(t.attrs) };
}

const EXPECT: Record<string, { tag: string; contains: string[] }> = {
  Stack: { tag: 'div', contains: ['weft-stack weft-gap-lg weft-align-center', 'child text'] },
  Row: { tag: 'div', contains: ['weft-row weft-gap-sm', 'weft-justify-between', 'weft-wrap'] },
  Grid: { tag: 'div', contains: ['weft-grid weft-cols-4'] },
  Columns: { tag: 'div', contains: ['weft-columns weft-ratio-1-2'] },
  Band: { tag: 'div', contains: ['weft-band weft-tone-accent weft-pad-lg'] },
  Card: { tag: 'div', contains: ['<h3 class="weft-card-title">Card title</h3>', 'child text'] },
  Spacer: { tag: 'div', contains: ['weft-space-xl', 'aria-hidden="true"'] },
  Divider: { tag: 'hr', contains: ['weft-divider'] },
  Heading: { tag: 'h1', contains: ['>Hello world</h1>'] },
  Text: { tag: 'p', contains: ['<strong>bold</strong>', '<a href="https://example.com/"', 'weft-tone-muted weft-size-lg'] },
  Markdown: { tag: 'div', contains: ['<h2>Sub</h2>', '<ul><li>one</li><li>two</li></ul>', '<code>code</code>'] },
  Image: { tag: 'img', contains: ['src="https://images.example.com/a.png"', 'alt="A picture"', 'loading="lazy"', 'width="640"', 'weft-fit-contain'] },
  Icon: { tag: 'span', contains: ['<svg', 'role="img"', 'aria-label="Favourite"'] },
  Button: { tag: 'button', contains: ['type="button"', 'data-weft-action="increment"', 'data-weft-action-json="{&quot;action&quot;:&quot;increment&quot;,&quot;path&quot;:&quot;/count&quot;,&quot;by&quot;:2}"', '>Go</button>'] },
  Link: { tag: 'a', contains: ['href="/docs"', '>Docs</a>'] },
  Badge: { tag: 'span', contains: ['weft-badge weft-tone-success', '>New<'] },
  Stat: { tag: 'div', contains: ['Revenue', '1200', 'weft-trend-up', 'vs last month'] },
  Quote: { tag: 'blockquote', contains: ['<cite>Dijkstra</cite>', 'Simplicity'] },
  List: { tag: 'ol', contains: ['<li>alpha</li><li>beta</li><li>gamma</li>'] },
  Table: { tag: 'div', contains: ['<thead><tr><th scope="col">Name</th><th scope="col">Qty</th></tr></thead>', '<tr><td>Bolt</td><td>3</td></tr>'] },
  Chart: { tag: 'figure', contains: ['<svg class="weft-chart-svg weft-chart-bar"', '<rect', 'Sales', 'k€'] },
  Video: { tag: 'figure', contains: ['href="https://video.example.com/v.mp4"', 'Launch video'] },
  Tabs: { tag: 'div', contains: ['type="radio"', '>First</label>', '>Second</label>', 'first panel', 'second panel'] },
  TabPanel: { tag: 'div', contains: ['Lonely panel', 'child text'] },
  Accordion: { tag: 'div', contains: ['<details', 'name="w-main-c-acc"', ' open><summary>One</summary>', 'one body'] },
  Disclosure: { tag: 'details', contains: ['<summary>More</summary>', 'child text'] },
  Toggle: { tag: 'fieldset', contains: ['<legend class="weft-field-label">Billing</legend>', 'value="yearly" checked', 'value="Monthly">'] },
  Select: { tag: 'div', contains: ['<select', '<option value="M" selected>M</option>', '>Size</label>'] },
  Slider: { tag: 'div', contains: ['type="range"', 'min="0"', 'max="10"', 'value="7"', '<output'] },
  Counter: { tag: 'div', contains: ['type="number"', 'value="3"', 'max="9"', '>Guests</label>'] },
  Carousel: { tag: 'div', contains: ['weft-carousel', '<li class="weft-slide">', 'child text'] },
  Form: { tag: 'form', contains: ['method="dialog"', 'type="email"', '<button class="weft-button weft-variant-primary" type="submit">Send</button>', 'data-weft-action="set"'] },
  TextField: { tag: 'div', contains: ['<input class="weft-input" type="text"', 'value="Ada"', 'placeholder="Your name"', '>Name</label>'] },
  TextArea: { tag: 'div', contains: ['<textarea', '>Hi &lt;there&gt;</textarea>'] },
  Checkbox: { tag: 'div', contains: ['type="checkbox"', ' checked>', '>I agree</label>'] },
  callout: { tag: 'aside', contains: ['weft-callout weft-tone-warning', 'role="note"', 'Heads up', '<em>gap</em>', 'child text'] },
  faq: { tag: 'div', contains: ['<details class="weft-faq-item"><summary>Why?</summary>', '<strong>this</strong>'] },
  testimonial: { tag: 'figure', contains: ['<blockquote><p>It just works.</p></blockquote>', 'Grace', 'Admiral'] },
  'pricing-table': { tag: 'div', contains: ['data-period="yearly"', '>120<', '/yr', 'href="/signup"', 'href="https://shop.example.com/pro"', '<div class="weft-plan weft-plan-popular"><span class="weft-plan-badge">Most popular</span><h3 class="weft-plan-name">Pro</h3>'] },
};

describe('every catalog component renders as semantic HTML', () => {
  it('has a fixture and an expectation for every catalog entry', () => {
    expect(Object.keys(FIXTURES).sort()).toEqual(catalogNames().sort());
    expect(Object.keys(EXPECT).sort()).toEqual(catalogNames().sort());
  });

  for (const [name, exp] of Object.entries(EXPECT)) {
    it(`${name}`, () => {
      const { inner, notes } = render(name);
      expect(notes).toEqual([]);
      expect(outer(inner).name).toBe(exp.tag);
      for (const s of exp.contains) expect(inner).toContain(s);
      expect(inner).not.toContain('weft-placeholder');
    });
  }

  it('Button with href (or a navigate action) is a link, never an inline handler', () => {
    const a = renderSection(fixtureDraft('Button', { label: 'Buy', href: 'https://shop.example.com/' }), 'main').html;
    expect(a).toMatch(/<a class="weft-button weft-variant-primary" data-component-id="c" href="https:\/\/shop.example.com\/" rel="noopener noreferrer nofollow">Buy<\/a>/);
    const nav = renderSection(fixtureDraft('Button', { label: 'Go', onClick: { action: 'navigate', href: '/next' } }), 'main').html;
    expect(nav).toContain('href="/next"');
    expect(nav).toContain('data-weft-action="navigate"');
  });

  it('Tabs opens the panel named by value and no other', () => {
    const { inner } = render('Tabs');
    expect(inner).toContain('id="w-main-tb-tab" checked>');
    expect(inner).not.toContain('id="w-main-ta-tab" checked');
  });

  it('Chart draws line, area and pie too', () => {
    for (const kind of ['line', 'area', 'pie']) {
      const html = renderSection(fixtureDraft('Chart', { kind, series: [{ label: 'a', value: 1 }, { label: 'b', value: 3 }] }), 'main').html;
      expect(html).toContain(`weft-chart-${kind}`);
      expect(html).toMatch(kind === 'pie' ? /<path class="weft-c0" d="M/ : /<polyline/);
    }
  });

  it('pricing-table shows the monthly prices by default', () => {
    const props = { ...FIXTURES['pricing-table']!.props };
    delete props['period'];
    const html = renderSection(fixtureDraft('pricing-table', props), 'main').html;
    expect(html).toContain('>12<');
    expect(html).toContain('/mo');
  });
});
