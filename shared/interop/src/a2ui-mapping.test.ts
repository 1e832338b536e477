import { describe, expect, it } from 'vitest';
import { emptyDraft, validateDraft } from '@weft/core';
import type { SurfaceSection } from '@weft/core';
import { readConformanceJson } from '../test/conformance.ts';
import { A2UI_CHILD_LINKS } from './a2ui-child-links.ts';
import { fromA2ui } from './a2ui-import.ts';

const V = 'v0.9';
function one(components: unknown[], data?: unknown, create: Record<string, unknown> = {}) {
  const msgs: unknown[] = [
    { version: V, createSurface: { surfaceId: 'S_1', catalogId: 'c', ...create } },
    { version: V, updateComponents: { surfaceId: 'S_1', components } },
  ];
  if (data !== undefined) msgs.push({ version: V, updateDataModel: { surfaceId: 'S_1', value: data } });
  const r = fromA2ui(msgs);
  const s = r.value[0] as SurfaceSection;
  const d = emptyDraft('d');
  d.sections[s.id] = s;
  d.order.push(s.id);
  expect(validateDraft(d).refusals).toEqual([]);
  return { s, notes: r.notes, codes: r.notes.map((n) => n.code) };
}

describe('A2UI child links come from the schema $refs', () => {
  it('A2UI_CHILD_LINKS equals the ComponentId/ChildList props found in basic_catalog.json', () => {
    const cat = readConformanceJson('a2ui-v0.9', 'basic_catalog.json') as { components: Record<string, { allOf: Array<{ properties?: Record<string, unknown> }> }> };
    const derived: Record<string, unknown[]> = {};
    const refKind = (v: unknown): 'id' | 'list' | undefined => {
      const ref = (v as { $ref?: string } | undefined)?.$ref ?? '';
      return ref.endsWith('#/$defs/ComponentId') ? 'id' : ref.endsWith('#/$defs/ChildList') ? 'list' : undefined;
    };
    for (const [name, def] of Object.entries(cat.components)) {
      const links: unknown[] = [];
      for (const part of def.allOf) {
        for (const [prop, schema] of Object.entries(part.properties ?? {})) {
          const k = refKind(schema);
          if (k) links.push({ prop, kind: k });
          const items = (schema as { items?: { properties?: Record<string, unknown> } }).items?.properties;
          for (const [key, s2] of Object.entries(items ?? {})) if (refKind(s2) === 'id') links.push({ prop, kind: 'items', key });
        }
      }
      if (links.length > 0) derived[name] = links;
    }
    expect(derived).toEqual(A2UI_CHILD_LINKS);
  });
});

describe('A2UI component mapping (PROTOCOLS.md §5)', () => {
  it('Text variants: h1–h5 → Heading, caption → muted small Text, body → Text', () => {
    const { s } = one([
      { id: 'root', component: 'Column', children: ['a', 'b', 'c'] },
      { id: 'a', component: 'Text', text: 'T', variant: 'h3' },
      { id: 'b', component: 'Text', text: 'c', variant: 'caption' },
      { id: 'c', component: 'Text', text: { path: 'x' } },
    ]);
    expect(s.components['a']).toEqual({ id: 'a', component: 'Heading', props: { text: 'T', level: 3 } });
    expect(s.components['b']).toEqual({ id: 'b', component: 'Text', props: { text: 'c', tone: 'muted', size: 'sm' } });
    expect(s.components['c']).toEqual({ id: 'c', component: 'Text', props: { text: { path: '/x' } } });
  });

  it('Row justify mapped, List → Stack (horizontal → Row), Card child → children, Tabs → Tabs + TabPanels', () => {
    const { s } = one([
      { id: 'root', component: 'Card', child: 'col' },
      { id: 'col', component: 'Column', children: ['row', 'list', 'tabs'] },
      { id: 'row', component: 'Row', children: [], justify: 'spaceBetween', align: 'center' },
      { id: 'list', component: 'List', children: [], direction: 'horizontal' },
      { id: 'tabs', component: 'Tabs', tabs: [{ title: 'One', child: 't1' }, { title: 'Two', child: 't2' }] },
      { id: 't1', component: 'Text', text: '1' },
      { id: 't2', component: 'Text', text: '2' },
    ]);
    expect(s.components['root']).toEqual({ id: 'root', component: 'Card', children: ['col'] });
    expect(s.components['row']).toEqual({ id: 'row', component: 'Row', props: { justify: 'between', align: 'center' }, children: [] });
    expect(s.components['list']?.component).toBe('Row');
    expect(s.components['tabs']?.children).toEqual(['tabs-tab-1', 'tabs-tab-2']);
    expect(s.components['tabs-tab-2']).toEqual({ id: 'tabs-tab-2', component: 'TabPanel', props: { title: 'Two' }, children: ['t2'] });
  });

  it('Button: Text child → label, openUrl → href, server event → note; Modal → Disclosure', () => {
    const { s, codes } = one([
      { id: 'root', component: 'Column', children: ['go', 'send', 'm'] },
      { id: 'go', component: 'Button', child: 'go-t', variant: 'primary', action: { functionCall: { call: 'openUrl', args: { url: 'https://a2ui.org' } } } },
      { id: 'go-t', component: 'Text', text: 'Open' },
      { id: 'send', component: 'Button', child: 'send-t', action: { event: { name: 'submit' } } },
      { id: 'send-t', component: 'Text', text: 'Send' },
      { id: 'm', component: 'Modal', trigger: 'm-btn', content: 'm-body' },
      { id: 'm-btn', component: 'Button', child: 'm-btn-t', action: { event: { name: 'open' } } },
      { id: 'm-btn-t', component: 'Text', text: 'Details' },
      { id: 'm-body', component: 'Text', text: 'Inside' },
    ]);
    expect(s.components['go']).toEqual({ id: 'go', component: 'Button', props: { label: 'Open', variant: 'primary', href: 'https://a2ui.org' } });
    expect(s.components['send']?.props).toEqual({ label: 'Send' });
    expect(s.components['m']).toEqual({ id: 'm', component: 'Disclosure', props: { summary: 'Details' }, children: ['m-body'] });
    expect(s.components['go-t']).toBeUndefined();
    expect(codes).toContain('action-dropped');
  });

  it('ChoicePicker → Toggle (2–8 exclusive) or Select; Slider keeps its name', () => {
    const opts = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `L${i}`, value: `v${i}` }));
    const { s, codes } = one([
      { id: 'root', component: 'Column', children: ['few', 'many', 'multi', 'sl'] },
      { id: 'few', component: 'ChoicePicker', options: opts(3), value: { path: '/choice' } },
      { id: 'many', component: 'ChoicePicker', options: opts(9), value: ['v1'], label: 'Pick' },
      { id: 'multi', component: 'ChoicePicker', options: opts(2), value: ['v0', 'v1'], variant: 'multipleSelection' },
      { id: 'sl', component: 'Slider', value: { path: '/vol' }, max: 11, min: 1, label: 'Volume' },
    ]);
    expect(s.components['few']?.component).toBe('Toggle');
    expect(s.components['few']?.props?.['value']).toEqual({ path: '/choice' });
    expect(s.components['many']).toMatchObject({ component: 'Select', props: { label: 'Pick', value: 'v1' } });
    expect(s.components['multi']?.component).toBe('Select');
    expect(s.components['sl']).toEqual({ id: 'sl', component: 'Slider', props: { min: 1, max: 11, value: { path: '/vol' }, label: 'Volume' } });
    expect(codes).toContain('component-mapped');
  });

  it('components with no equivalent are left out with a note, and unlinked from their parent', () => {
    const { s, notes } = one([
      { id: 'root', component: 'Row', children: ['icon', 'img', 'tf', 'cb', 'dt', 'keep'] },
      { id: 'icon', component: 'Icon', name: 'home' },
      { id: 'img', component: 'Image', url: 'https://x/y.png' },
      { id: 'tf', component: 'TextField', label: 'Name' },
      { id: 'cb', component: 'CheckBox', label: 'OK', value: true },
      { id: 'dt', component: 'DateTimeInput', value: '2026-01-01' },
      { id: 'keep', component: 'Divider' },
    ]);
    expect(s.components['root']?.children).toEqual(['keep']);
    expect(notes.filter((n) => n.code === 'component-dropped' && n.lossy)).toHaveLength(5);
  });

  it('functions: plain formatString → concat, known ones renamed, others noted', () => {
    const { s, notes } = one([
      { id: 'root', component: 'Column', children: ['a', 'b', 'c'] },
      { id: 'a', component: 'Text', text: { call: 'formatString', args: { value: 'Hi ${/user/name}, ${count} left' }, returnType: 'string' } },
      { id: 'b', component: 'Text', text: { call: 'formatCurrency', args: { value: { path: '/p' }, currency: 'EUR' }, returnType: 'string' } },
      { id: 'c', component: 'Text', text: { call: 'formatString', args: { value: 'x ${formatDate(value:${/d}, format:\'MMM\')}' }, returnType: 'string' } },
    ]);
    expect(s.components['a']?.props?.['text']).toEqual({ call: 'concat', args: { parts: ['Hi ', { path: '/user/name' }, ', ', { path: '/count' }, ' left'] } });
    expect(s.components['b']?.props?.['text']).toEqual({ call: 'formatCurrency', args: { value: { path: '/p' }, currency: 'EUR' } });
    expect(notes.some((n) => n.code === 'function-unknown' && n.path === '/1/updateComponents/components/3/text')).toBe(true);
  });

  it('templates expand once from data with absolute paths; theme → style-unmapped; ids renamed with the map kept', () => {
    const { s, notes, codes } = one(
      [
        { id: 'root', component: 'Column', children: { componentId: 'Item_Row', path: '/items' } },
        { id: 'Item_Row', component: 'Text', text: { path: 'name' } },
      ],
      { items: [{ name: 'a' }, { name: 'b' }] },
      { theme: { primaryColor: '#ff0000' } },
    );
    expect(s.id).toBe('s-1');
    expect(s.components['root']?.children).toEqual(['item-row-0', 'item-row-1']);
    expect(s.components['item-row-1']?.props?.['text']).toEqual({ path: '/items/1/name' });
    expect(codes).toContain('template-expanded');
    expect(codes).toContain('style-unmapped');
    expect(notes.find((n) => n.code === 'id-renamed' && n.detail?.['from'] === 'Item_Row-1')?.detail).toEqual({ from: 'Item_Row-1', to: 'item-row-1' });
  });

  it('data: set at a path, remove without value, later components replace earlier ones', () => {
    const r = fromA2ui([
      { version: V, createSurface: { surfaceId: 's', catalogId: 'c' } },
      { version: V, updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Text', text: 'old' }] } },
      { version: V, updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Text', text: 'new', variant: 'h1' }] } },
      { version: V, updateDataModel: { surfaceId: 's', path: '/a/b', value: 1 } },
      { version: V, updateDataModel: { surfaceId: 's', path: '/c', value: 2 } },
      { version: V, updateDataModel: { surfaceId: 's', path: '/c' } },
    ]);
    expect(r.value[0]?.components['root']).toEqual({ id: 'root', component: 'Heading', props: { text: 'new', level: 1 } });
    expect(r.value[0]?.data).toEqual({ a: { b: 1 } });
  });

  it('reads a JSON array string, a {messages} wrapper and JSON Lines alike', () => {
    const msgs = [
      { version: V, createSurface: { surfaceId: 's', catalogId: 'c' } },
      { version: V, updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Divider' }] } },
    ];
    const expected = fromA2ui(msgs).value;
    expect(fromA2ui(JSON.stringify(msgs)).value).toEqual(expected);
    expect(fromA2ui(JSON.stringify({ messages: msgs })).value).toEqual(expected);
    expect(fromA2ui(msgs.map((m) => JSON.stringify(m)).join('\n')).value).toEqual(expected);
    expect(fromA2ui(msgs, { sectionId: 'mine' }).value[0]?.id).toBe('mine');
  });
});
