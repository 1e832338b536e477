import { describe, expect, it } from 'vitest';
import type { Component, Draft } from '@weft/core';
import { draftWith, fixtureDraft } from './fixtures.testkit.ts';
import { anyBroken } from './notes.ts';
import { renderDraft, renderSection } from './render.ts';

const stack = (children: string[]): Component => ({ id: 'root', component: 'Stack', children });

describe('bindings resolve to their initial state', () => {
  const data = { user: { name: 'Ada' }, count: 2, items: ['x', 'y'], rows: [{ a: 'r1' }], series: [{ label: 'p', value: 4 }], show: false, tab: 'tb' };

  it('{path} and function calls, via core', () => {
    const d = draftWith(stack(['h', 't']), [
      { id: 'h', component: 'Heading', props: { text: { path: '/user/name' } } },
      { id: 't', component: 'Text', props: { text: { call: 'pluralize', args: { count: { path: '/count' }, one: 'one item', other: 'many items' } } } },
    ], data);
    const { html, notes } = renderSection(d, 'main');
    expect(html).toContain('data-component-id="h" data-weft-bind="h:text">Ada</h2>');
    expect(html).toContain('>many items</p>');
    expect(notes).toEqual([]);
  });

  it('list-valued props: List.items, Table.rows, Chart.series', () => {
    const d = draftWith(stack(['l', 'tb', 'ch']), [
      { id: 'l', component: 'List', props: { items: { path: '/items' } } },
      { id: 'tb', component: 'Table', props: { columns: [{ key: 'a', label: 'A' }], rows: { path: '/rows' } } },
      { id: 'ch', component: 'Chart', props: { kind: 'bar', series: { path: '/series' } } },
    ], data);
    const { html, notes } = renderSection(d, 'main');
    expect(html).toContain('<li>x</li><li>y</li>');
    expect(html).toContain('<td>r1</td>');
    expect(html).toContain('<rect class="weft-c0"');
    expect(notes).toEqual([]);
  });

  it('bound control values: Toggle, Slider, Checkbox, TextField, Tabs', () => {
    const d = fixtureDraft('Slider', { max: 10, label: 'Vol', value: { path: '/count' } }, data);
    expect(renderSection(d, 'main').html).toContain('value="2"');
    const t = fixtureDraft('Tabs', { value: { path: '/tab' } }, data);
    expect(renderSection(t, 'main').html).toContain('id="w-main-tb-tab" checked');
  });

  it('a binding to nothing renders what it can and says so', () => {
    const d = draftWith(stack(['h', 's', 'p']), [
      { id: 'h', component: 'Heading', props: { text: { path: '/nope' } } },
      { id: 's', component: 'Stat', props: { label: 'Users', value: 3, caption: { path: '/nope' } } },
      { id: 'p', component: 'pricing-table', props: { period: { path: '/period' }, plans: [{ name: 'A', price: { monthly: 1, yearly: 10 } }] } },
    ], { period: 'weekly' });
    const { html, notes } = renderSection(d, 'main');
    expect(html).toContain('class="weft-placeholder" data-component-id="h"');
    expect(html).toContain('<span class="weft-stat-value"><span class="weft-stat-number">3</span></span></div>');
    expect(html).toContain('data-period="monthly"');
    expect(notes.map((n) => [n.componentId, n.rule, n.severity])).toEqual([
      ['h', 'invalid_binding', 'broken'], ['h', 'invalid_props', 'broken'], ['s', 'invalid_binding', 'broken'], ['p', 'invalid_props', 'approximate'],
    ]);
    expect(notes[0]?.message).toContain('"/nope" resolves to nothing');
  });
});

describe('visibility', () => {
  it('a false condition keeps the component in the DOM, hidden; a true one wraps it shown', () => {
    const d = draftWith(stack(['a', 'b']), [
      { id: 'a', component: 'Text', props: { text: 'hidden one' }, visible: { eq: [{ path: '/show' }, true] } },
      { id: 'b', component: 'Text', props: { text: 'shown one' }, visible: { not: { eq: [{ path: '/show' }, true] } } },
    ], { show: false });
    const { html, notes } = renderSection(d, 'main');
    expect(html).toMatch(/<div class="weft-cond" data-weft-cond="a" data-weft-visible="false" hidden><p class="[^"]*" data-component-id="a">hidden one<\/p><\/div>/);
    expect(html).toMatch(/<div class="weft-cond" data-weft-cond="b" data-weft-visible="true"><p class="[^"]*" data-component-id="b">shown one<\/p><\/div>/);
    expect(notes).toEqual([]);
  });
});

describe('placeholders and notes: nothing degrades quietly', () => {
  it('an unknown component is kept as a labelled placeholder', () => {
    const d = draftWith(stack(['x']), [{ id: 'x', component: 'Foo', props: { a: 1 } }]);
    const { html, notes } = renderSection(d, 'main');
    expect(html).toContain('<div class="weft-placeholder" data-component-id="x" role="note">Unknown component “Foo” (kept, not rendered)</div>');
    expect(notes).toEqual([{ componentId: 'x', sectionId: 'main', rule: 'unknown_component', message: 'Foo is not in the catalog', severity: 'broken' }]);
  });

  it('a missing required prop gives a placeholder naming the prop', () => {
    const d = draftWith(stack(['h']), [{ id: 'h', component: 'Heading', props: { level: 3 } }]);
    const { html, notes } = renderSection(d, 'main');
    expect(html).toMatch(/data-component-id="h" role="note">Heading “h” not rendered: [^<]*required property &#39;text&#39;/);
    expect(notes.map((n) => n.rule)).toEqual(['invalid_props']);
  });

  it('props that misfit the catalog entry give a placeholder with the catalog\'s reason', () => {
    const d = draftWith(stack(['b']), [{ id: 'b', component: 'Badge', props: { text: 'x', tone: 'purple' } }]);
    const { html, notes } = renderSection(d, 'main');
    expect(html).toMatch(/<div class="weft-placeholder" data-component-id="b" role="note">Badge “b” not rendered: [^<]*tone/);
    expect(notes.map((n) => [n.rule, n.severity])).toEqual([['invalid_props', 'broken']]);
    expect(anyBroken(notes)).toBe(true);
  });

  it('a bound enum value that misfits falls back to the default with an approximate note', () => {
    const d = fixtureDraft('Tabs', { value: { path: '/t' } }, { t: 'zz' });
    const { html, notes } = renderSection(d, 'main');
    expect(html).toContain('id="w-main-ta-tab" checked');
    expect(notes.map((n) => [n.rule, n.severity])).toEqual([['invalid_props', 'approximate']]);
    expect(anyBroken(notes)).toBe(false);
  });

  it('a refused URL renders inert with an invalid_url note', () => {
    const d = draftWith(stack(['l', 'i']), [
      { id: 'l', component: 'Link', props: { text: 'x', href: 'javascript:alert(1)' } },
      { id: 'i', component: 'Image', props: { src: 'data:image/svg+xml,<svg onload=alert(1)>', alt: 'pic' } },
    ]);
    const { html, notes } = renderSection(d, 'main');
    expect(html).toContain('<span class="weft-link weft-inert-link" data-component-id="l">x</span>');
    expect(html).toContain('<div class="weft-image weft-image-missing" data-component-id="i" role="img" aria-label="pic">');
    expect(notes.map((n) => [n.componentId, n.sectionId, n.rule])).toEqual([['l', 'main', 'invalid_url'], ['i', 'main', 'invalid_url']]);
  });

  it('a mailto with an attach field keeps the link, drops the field and notes it', () => {
    const d = draftWith(stack(['l']), [{ id: 'l', component: 'Link', props: { text: 'mail', href: 'mailto:a@b.c?attach=/etc/passwd&subject=Hi' } }]);
    const { html, notes } = renderSection(d, 'main');
    expect(html).toContain('href="mailto:a@b.c?subject=Hi"');
    expect(notes.map((n) => [n.rule, n.severity])).toEqual([['invalid_url', 'approximate']]);
  });

  it('missing children, cycles, double parents, leaves with children, unreachable and missing root', () => {
    const d = draftWith(stack(['a', 'ghost', 'b']), [
      { id: 'a', component: 'Card', children: ['a2'] },
      { id: 'a2', component: 'Stack', children: ['a'] },
      { id: 'b', component: 'Stack', children: ['a2'] },
      { id: 'h', component: 'Heading', props: { text: 'x' }, children: ['orphan'] },
      { id: 'orphan', component: 'Text', props: { text: 'o' } },
      { id: 'lost', component: 'Text', props: { text: 'l' } },
    ]);
    const { html, notes } = renderSection(d, 'main');
    expect(notes.map((n) => [n.componentId, n.rule])).toEqual([
      ['a', 'cycle'], ['ghost', 'missing_child'], ['a2', 'double_parent'],
      ['h', 'unreachable'], ['orphan', 'unreachable'], ['lost', 'unreachable'],
    ]);
    expect(html).toContain('data-component-id="ghost" role="note">Missing component “ghost”');
    const empty: Draft = { id: 'd', title: '', order: ['s'], sections: { s: { id: 's', kind: 'surface', catalog: 'weft@1', components: {}, data: {} } } };
    expect(renderDraft(empty).notes.map((n) => n.rule)).toEqual(['missing_root']);
  });

  it('a leaf with children and a missing section are flagged', () => {
    const d = draftWith({ id: 'root', component: 'Heading', props: { text: 'x' }, children: ['t'] }, [{ id: 't', component: 'Text', props: { text: 'y' } }]);
    expect(renderSection(d, 'main').notes.map((n) => n.rule)).toEqual(['children_not_allowed']);
    const r = renderSection(d, 'nope');
    expect(r.html).toContain('weft-placeholder');
    expect(r.notes.map((n) => n.rule)).toEqual(['path_not_found']);
  });

  it('is total on garbage: non-object components, bad conditions, bad props', () => {
    const junk = {
      id: 'd', title: 't', order: ['s', 's', 'zz'],
      sections: { s: { id: 's', kind: 'surface', catalog: 'weft@1', data: {}, components: {
        root: { id: 'root', component: 'Stack', children: ['n', 'q', 'v', 'g', 7] },
        n: null,
        q: { id: 'q', component: 'Table', props: { columns: 'nope', rows: 5 } },
        v: { id: 'v', component: 'Text', props: { text: 'x' }, visible: { weird: true } },
        g: { id: 'g', component: 'Grid', props: { columns: 99 }, children: 'abc' },
      } } },
    } as unknown as Draft;
    const r = renderDraft(junk);
    expect(r.html).toContain('data-section-id="s"');
    expect(r.html.match(/data-section-id="s"/g)).toHaveLength(2); // section + its data script, once
    expect(r.notes.length).toBeGreaterThan(3);
    const unchecked = renderDraft(junk, { checkProps: false });
    expect(unchecked.notes.map((n) => [n.componentId, n.rule])).toEqual([
      ['n', 'missing_child'], ['q', 'invalid_props'], ['q', 'invalid_props'], ['q', 'invalid_props'],
      ['v', 'invalid_condition'], ['g', 'invalid_props'], ['', 'path_not_found'],
    ]);
    expect(unchecked.html).toContain('data-weft-visible="true"><p');
  });
});

describe('sections and the page body', () => {
  it('renders sections in order with ids, style classes and the escaped data model', () => {
    const d = draftWith(stack([]), [], { note: '</script><script>alert(1)</script>' });
    d.sections['main']!.style = { width: 'wide', tone: 'muted' };
    d.sections['two'] = { id: 'two', kind: 'surface', catalog: 'weft@1', components: { root: { id: 'root', component: 'Divider' } }, data: {} };
    d.order = ['two', 'main'];
    const { html } = renderDraft(d);
    expect(html.indexOf('id="s-two"')).toBeLessThan(html.indexOf('id="s-main"'));
    expect(html).toContain('<section class="weft-section weft-width-wide weft-tone-muted weft-motion-none" id="s-main" data-section-id="main" data-catalog="weft@1" data-weft-surface>');
    expect(html).toContain('<script type="application/json" data-weft-state data-section-id="main">{"note":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"}</script>');
    expect(renderDraft(d, { embedData: false }).html).not.toContain('<script');
  });

  it('is deterministic: same draft, same HTML', () => {
    const d = fixtureDraft('Chart', { kind: 'pie', series: [{ label: 'a', value: 1 }, { label: 'b', value: 2 }, { label: 'c', value: 3.3333 }] });
    expect(renderDraft(d).html).toBe(renderDraft(structuredClone(d)).html);
  });
});

describe('options', () => {
  it('checkProps: false skips the catalog check but the renderer still guards itself', () => {
    const d = draftWith(stack(['b', 'l']), [
      { id: 'b', component: 'Badge', props: { text: 'x', tone: 'purple' } },
      { id: 'l', component: 'Link', props: { text: 'x', href: 'javascript:alert(1)' } },
    ]);
    const { html, notes } = renderSection(d, 'main', { checkProps: false });
    expect(html).toContain('weft-badge weft-tone-neutral');
    expect(html).not.toContain('javascript:');
    expect(notes.map((n) => [n.componentId, n.rule, n.severity])).toEqual([['b', 'invalid_props', 'approximate'], ['l', 'invalid_url', 'broken']]);
  });
});
