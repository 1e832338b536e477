// Test-only: one valid instance of every catalog component, and draft builders.

import type { Component, Draft, JsonObject } from '@weft/core';

export interface Fixture {
  props: JsonObject;
  /** Child components (the first child is the fixture's own child when it takes children). */
  children?: Component[];
}

const text = (id: string, t = 'child text'): Component => ({ id, component: 'Text', props: { text: t } });

export const FIXTURES: Record<string, Fixture> = {
  Stack: { props: { gap: 'lg', align: 'center' }, children: [text('k1')] },
  Row: { props: { gap: 'sm', justify: 'between', wrap: true }, children: [text('k1')] },
  Grid: { props: { columns: 4, gap: 'md' }, children: [text('k1')] },
  Columns: { props: { ratio: '1:2' }, children: [text('k1')] },
  Band: { props: { tone: 'accent', padding: 'lg' }, children: [text('k1')] },
  Card: { props: { title: 'Card title', tone: 'muted' }, children: [text('k1')] },
  Spacer: { props: { size: 'xl' } },
  Divider: { props: { axis: 'horizontal' } },
  Heading: { props: { text: 'Hello world', level: 1 } },
  Text: { props: { text: 'Some **bold** text with a [link](https://example.com/)', tone: 'muted', size: 'lg' } },
  Markdown: { props: { source: '## Sub\n\n- one\n- two\n\nPara with `code`.' } },
  Image: { props: { src: 'https://images.example.com/a.png', alt: 'A picture', fit: 'contain', width: 640, height: 480 } },
  Icon: { props: { name: 'star', size: 'lg', label: 'Favourite' } },
  Button: { props: { label: 'Go', variant: 'secondary', onClick: { action: 'increment', path: '/count', by: 2 } } },
  Link: { props: { text: 'Docs', href: '/docs' } },
  Badge: { props: { text: 'New', tone: 'success' } },
  Stat: { props: { label: 'Revenue', value: 1200, trend: 'up', caption: 'vs last month' } },
  Quote: { props: { text: 'Simplicity is prerequisite for reliability.', cite: 'Dijkstra' } },
  List: { props: { items: ['alpha', 'beta', 'gamma'], ordered: true } },
  Table: { props: { columns: [{ key: 'name', label: 'Name' }, { key: 'qty', label: 'Qty' }], rows: [{ name: 'Bolt', qty: 3 }, { name: 'Nut', qty: 5 }] } },
  Chart: { props: { kind: 'bar', series: [{ label: 'Q1', value: 3 }, { label: 'Q2', value: 5 }], title: 'Sales', unit: 'k€' } },
  Video: { props: { src: 'https://video.example.com/v.mp4', title: 'Launch video' } },
  Tabs: {
    props: { value: 'tb' },
    children: [
      { id: 'ta', component: 'TabPanel', props: { title: 'First' }, children: ['ta-t'] },
      { id: 'tb', component: 'TabPanel', props: { title: 'Second' }, children: ['tb-t'] },
      text('ta-t', 'first panel'),
      text('tb-t', 'second panel'),
    ],
  },
  TabPanel: { props: { title: 'Lonely panel' }, children: [text('k1')] },
  Accordion: {
    props: { multiple: false },
    children: [
      { id: 'd1', component: 'Disclosure', props: { summary: 'One', open: true }, children: ['d1-t'] },
      text('d1-t', 'one body'),
    ],
  },
  Disclosure: { props: { summary: 'More', open: false }, children: [text('k1')] },
  Toggle: { props: { options: ['Monthly', { label: 'Yearly', value: 'yearly' }], value: 'yearly', label: 'Billing' } },
  Select: { props: { options: ['S', 'M', 'L'], value: 'M', label: 'Size' } },
  Slider: { props: { min: 0, max: 10, step: 1, value: 7, label: 'Volume' } },
  Counter: { props: { value: 3, min: 0, max: 9, label: 'Guests' } },
  Carousel: { props: { autoplay: false }, children: [text('k1')] },
  Form: {
    props: { submitLabel: 'Send', onSubmit: { action: 'set', path: '/sent', value: true } },
    children: [{ id: 'f1', component: 'TextField', props: { label: 'Email', kind: 'email' } }],
  },
  TextField: { props: { label: 'Name', value: 'Ada', kind: 'text', placeholder: 'Your name' } },
  TextArea: { props: { label: 'Message', value: 'Hi <there>', placeholder: 'Say hi' } },
  Checkbox: { props: { label: 'I agree', value: true } },
  callout: { props: { tone: 'warning', title: 'Heads up', text: 'Mind the *gap*' }, children: [text('k1')] },
  faq: { props: { items: [{ question: 'Why?', answer: 'Because.' }, { question: 'How?', answer: 'Like **this**.' }] } },
  testimonial: { props: { quote: 'It just works.', author: 'Grace', role: 'Admiral' } },
  'pricing-table': {
    props: {
      period: 'yearly',
      plans: [
        { name: 'Free', price: { monthly: 0, yearly: 0 }, features: ['1 site'], cta: { label: 'Start', href: '/signup' } },
        { name: 'Pro', price: { monthly: 12, yearly: 120 }, features: ['10 sites', 'Support'], cta: { label: 'Buy', href: 'https://shop.example.com/pro' }, popular: true },
      ],
    },
  },
};

/** A draft with one surface section whose root holds `comps[0]`'s id (the rest are siblings). */
export function draftWith(root: Component, others: Component[] = [], data: JsonObject = {}, sectionId = 'main'): Draft {
  const components: Record<string, Component> = { root };
  for (const c of others) components[c.id] = c;
  return {
    id: 'd1',
    title: 'Test',
    order: [sectionId],
    sections: { [sectionId]: { id: sectionId, kind: 'surface', catalog: 'weft@1', components, data } },
  };
}

/** A draft whose root is a Stack holding one fixture component (id `c`) and its children. */
export function fixtureDraft(name: string, props?: JsonObject, data: JsonObject = {}): Draft {
  const f = FIXTURES[name];
  if (!f) throw new Error(`no fixture for ${name}`);
  const kids = f.children ?? [];
  const ownChildren = kids.filter((k) => !kids.some((p) => p.children?.includes(k.id))).map((k) => k.id);
  const c: Component = { id: 'c', component: name, props: props ?? f.props };
  if (ownChildren.length > 0) c.children = ownChildren;
  return draftWith({ id: 'root', component: 'Stack', children: ['c'] }, [c, ...kids], data);
}
