import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCatalog, defaultCatalog } from './catalog.ts';
import { defineEntry } from './builtin.ts';
import { opt, req, str } from './schema.ts';

const md = readFileSync(new URL('../../../../docs/catalog.md', import.meta.url), 'utf8');

describe('catalog', () => {
  it('[CT1] has exactly the components of docs/catalog.md', () => {
    const names = [...md.matchAll(/^\| ([A-Za-z-]+) \| /gm)].map((m) => m[1]!).filter((n) => n !== 'name');
    const fnNames = ['formatDate', 'formatNumber', 'formatCurrency', 'pluralize', 'concat', 'length', 'required', 'minLength', 'maxLength', 'email', 'range', 'add', 'multiply', 'sum'];
    expect(names.filter((n) => !fnNames.includes(n)).sort()).toEqual([...defaultCatalog.componentNames].sort());
  });
  it('[CT2] every example passes its own schema and holds every required prop', () => {
    for (const e of Object.values(defaultCatalog.entries)) {
      expect(defaultCatalog.checkProps(e.name, e.example, '/p'), e.name).toBeNull();
      for (const r of e.required) expect(Object.hasOwn(e.example, r), `${e.name}.${r}`).toBe(true);
      expect(e.props['additionalProperties']).toBe(false);
    }
  });
  it('[CT4] every alias names one of the entry\'s props and is not a prop itself', () => {
    for (const e of Object.values(defaultCatalog.entries)) {
      const props = e.props['properties'] as object;
      for (const [from, to] of Object.entries(e.aliases)) expect([e.name, from, Object.hasOwn(props, to), Object.hasOwn(props, from)]).toEqual([e.name, from, true, false]);
    }
  });
  it('[invalid_props] refuses unknown props, wrong types and out-of-range values', () => {
    expect(defaultCatalog.checkProps('Heading', { text: 'a', level: 9 }, '/p')?.rule).toBe('invalid_props');
    expect(defaultCatalog.checkProps('Heading', { text: 'a', colour: 'red' }, '/p')?.message).toContain('colour');
    expect(defaultCatalog.checkProps('Heading', { level: 2 }, '/p')?.rule).toBe('invalid_props');
    expect(defaultCatalog.checkProps('Text', { text: 'x'.repeat(10_001) }, '/p')?.rule).toBe('invalid_props');
  });
  it('[CT3] bindable props accept a literal, {path} or a call; others only literals', () => {
    expect(defaultCatalog.checkProps('Heading', { text: { path: '/h' } }, '/p')).toBeNull();
    expect(defaultCatalog.checkProps('Heading', { text: { call: 'concat', args: { parts: ['a', { path: '/b' }] } } }, '/p')).toBeNull();
    expect(defaultCatalog.checkProps('Image', { src: 'assets/a.png', alt: { path: '/alt' } }, '/p')?.rule).toBe('invalid_props');
    expect(defaultCatalog.getEntry('Heading')!.bindable).toEqual(['text']);
  });
  it('[invalid_binding] refuses a binding with a bad pointer', () => {
    expect(defaultCatalog.checkProps('Heading', { text: { path: 'nope' } }, '/p')?.rule).toBe('invalid_binding');
    expect(defaultCatalog.checkProps('Heading', { text: { path: '/__proto__/x' } }, '/p')?.rule).toBe('forbidden_segment');
  });
  it('[invalid_url] applies the URL policy, nested too', () => {
    expect(defaultCatalog.checkProps('Link', { text: 'a', href: 'javascript:alert(1)' }, '/p')?.rule).toBe('invalid_url');
    expect(defaultCatalog.checkProps('Link', { text: 'a', href: '//evil.example' }, '/p')?.rule).toBe('invalid_url');
    expect(defaultCatalog.checkProps('Link', { text: 'a', href: 'mailto:a@b.c' }, '/p')).toBeNull();
    expect(defaultCatalog.checkProps('Image', { src: 'assets/x.png', alt: 'x' }, '/p')).toBeNull();
    expect(defaultCatalog.checkProps('Video', { src: 'http://x.example/v', title: 'v' }, '/p')?.rule).toBe('invalid_url');
    const plans = [{ name: 'A', price: { monthly: 1, yearly: 2 }, cta: { label: 'Buy', href: 'javascript:x' } }];
    expect(defaultCatalog.checkProps('pricing-table', { plans }, '/p')?.path).toBe('/p/plans/0/cta/href');
  });
  it('[invalid_action] checks actions and their fields', () => {
    expect(defaultCatalog.checkProps('Button', { label: 'a', onClick: { action: 'set', path: '/x', value: 1 } }, '/p')).toBeNull();
    expect(defaultCatalog.checkProps('Button', { label: 'a', onClick: { action: 'navigate', href: 'javascript:1' } }, '/p')?.rule).toBe('invalid_url');
    expect(defaultCatalog.checkProps('Button', { label: 'a', onClick: { action: 'toggle' } }, '/p')?.rule).toBe('invalid_action');
    expect(defaultCatalog.checkProps('Button', { label: 'a', onClick: { action: 'scrollTo', target: 'hero', extra: 1 } }, '/p')?.rule).toBe('invalid_action');
  });
  it('[invalid_condition] checks conditions inside TextField checks', () => {
    expect(defaultCatalog.checkProps('TextField', { label: 'E', checks: [{ condition: { eq: [{ path: '/a' }, 1] }, message: 'm' }] }, '/p')).toBeNull();
    expect(defaultCatalog.checkProps('TextField', { label: 'E', checks: [{ condition: { maybe: [] }, message: 'm' }] }, '/p')?.rule).toBe('invalid_condition');
  });
  it('[CT4] createCatalog adds theme blocks', () => {
    const hero = defineEntry({ name: 'hero-banner', group: 'block', description: 'x', children: 'none', props: { title: req(str()), sub: opt(str()) }, example: { title: 'Hi' } });
    const c = createCatalog([hero], 'blog@1');
    expect(c.getEntry('hero-banner')?.required).toEqual(['title']);
    expect(c.checkProps('hero-banner', { title: 1 }, '/p')?.rule).toBe('invalid_props');
    expect(c.componentNames).toContain('Stack');
    expect(defaultCatalog.getEntry('hero-banner')).toBeUndefined();
    expect(defaultCatalog.getEntry('constructor')).toBeUndefined();
  });
});
