// What the palette and the empty-state starters add: small trees of catalog components that arrive
// usable (tabs with two panels, a chart with a series…), turned into flat ops with fresh ids.
// Pure data; the server's pipeline validates them like any other edit.
import type { JsonObject, Op, SurfaceSection } from '@weft/core';
import { compPath, freshId } from './tree.ts';

export interface Blueprint { component: string; props?: JsonObject; children?: Blueprint[] }

/** Served by the preview service (app.ts), so a new Image shows something instead of a 404. */
export const PLACEHOLDER_IMAGE = '/preview/assets/placeholder.png';

const text = (t: string): Blueprint => ({ component: 'Text', props: { text: t } });

/** Palette entries whose catalog example alone would arrive empty or broken. */
const PALETTE: Readonly<Record<string, Blueprint>> = {
  Tabs: { component: 'Tabs', children: [
    { component: 'TabPanel', props: { title: 'First tab' }, children: [text('What the first tab says.')] },
    { component: 'TabPanel', props: { title: 'Second tab' }, children: [text('What the second tab says.')] },
  ] },
  Accordion: { component: 'Accordion', children: [
    { component: 'Disclosure', props: { summary: 'First question' }, children: [text('The first answer.')] },
    { component: 'Disclosure', props: { summary: 'Second question' }, children: [text('The second answer.')] },
  ] },
  Chart: { component: 'Chart', props: { kind: 'bar', series: [{ label: 'Mon', value: 3 }, { label: 'Tue', value: 5 }, { label: 'Wed', value: 4 }, { label: 'Thu', value: 7 }, { label: 'Fri', value: 6 }] } },
  Table: { component: 'Table', props: { columns: [{ key: 'name', label: 'Name' }, { key: 'role', label: 'Role' }], rows: [{ name: 'Ada', role: 'Engineer' }, { name: 'Grace', role: 'Admiral' }] } },
  Image: { component: 'Image', props: { src: PLACEHOLDER_IMAGE, alt: 'Placeholder image' } },
  Card: { component: 'Card', props: { title: 'Card title' }, children: [text('What this card is about.')] },
  Carousel: { component: 'Carousel', children: [
    { component: 'Card', props: { title: 'First slide' }, children: [text('Slide one.')] },
    { component: 'Card', props: { title: 'Second slide' }, children: [text('Slide two.')] },
  ] },
  Form: { component: 'Form', props: { submitLabel: 'Send' }, children: [{ component: 'TextField', props: { label: 'Name' } }, { component: 'TextArea', props: { label: 'Message' } }] },
  Grid: { component: 'Grid', props: { columns: 3 }, children: [1, 2, 3].map((i) => ({ component: 'Card', props: { title: `Item ${i}` }, children: [text('A short description.')] })) },
  Columns: { component: 'Columns', props: { ratio: '1:1' }, children: [text('Left column.'), text('Right column.')] },
  Row: { component: 'Row', props: { gap: 'md', justify: 'start' }, children: [{ component: 'Button', props: { label: 'Get started', href: '/start' } }, { component: 'Link', props: { text: 'Learn more', href: '/about' } }] },
  Band: { component: 'Band', props: { tone: 'muted' }, children: [{ component: 'Heading', props: { text: 'A band of colour', level: 2 } }] },
  Stack: { component: 'Stack', props: { gap: 'md' }, children: [text('Stacked content.')] },
  TabPanel: { component: 'TabPanel', props: { title: 'New tab' }, children: [text('What this tab says.')] },
  Disclosure: { component: 'Disclosure', props: { summary: 'A question' }, children: [text('Its answer.')] },
};

/** What the palette adds for `name`: a usable blueprint, else the catalog example as props. */
export function paletteBlueprint(name: string, example: JsonObject): Blueprint {
  return Object.hasOwn(PALETTE, name) ? PALETTE[name]! : { component: name, props: structuredClone(example) };
}

export interface Starter { id: string; label: string; description: string; root: Blueprint[]; /** the section's data model to start with */ data?: JsonObject }

/** Empty-state starters: whole sections made of catalog components. */
export const STARTERS: readonly Starter[] = [
  { id: 'hero', label: 'Hero', description: 'A headline, a sentence and a call to action', root: [
    { component: 'Heading', props: { text: 'Build something people want', level: 1 } },
    text('One sentence on what this page offers and who it is for.'),
    PALETTE['Row']!,
  ] },
  { id: 'features', label: 'Features', description: 'Three cards in a grid', root: [
    { component: 'Heading', props: { text: 'Features', level: 2 } },
    { component: 'Grid', props: { columns: 3 }, children: [
      { component: 'Card', props: { title: 'Fast' }, children: [text('Changes show up for everyone at once.')] },
      { component: 'Card', props: { title: 'Safe' }, children: [text('Every edit is checked before it lands.')] },
      { component: 'Card', props: { title: 'Together' }, children: [text('People and agents build side by side.')] },
    ] },
  ] },
  // The Toggle and the table share /period, so a reader switches the prices the description promises.
  { id: 'pricing', label: 'Pricing', description: 'Plans with monthly and yearly prices', data: { period: 'monthly' }, root: [
    { component: 'Heading', props: { text: 'Pricing', level: 2 } },
    { component: 'Toggle', props: { label: 'Billing period', options: [{ label: 'Monthly', value: 'monthly' }, { label: 'Yearly', value: 'yearly' }], value: { path: '/period' } } },
    { component: 'pricing-table', props: { period: { path: '/period' }, plans: [
      { name: 'Starter', price: { monthly: 0, yearly: 0 }, features: ['One project', 'Community support'] },
      { name: 'Pro', price: { monthly: 12, yearly: 120 }, features: ['Unlimited projects', 'Priority support'] },
    ] } },
  ] },
  { id: 'faq', label: 'FAQ', description: 'Questions and answers', root: [
    { component: 'Heading', props: { text: 'Questions', level: 2 } },
    { component: 'faq', props: { items: [
      { question: 'Can I try it for free?', answer: 'Yes: the Starter plan costs nothing.' },
      { question: 'Can I cancel any time?', answer: 'Yes, from your account page.' },
    ] } },
  ] },
];

type Flat = Record<string, JsonObject>;

/** Gives every node of `bp` a fresh id (unique in `taken`), returns the top id and fills `out`. */
function flatten(bp: Blueprint, taken: SurfaceSection['components'], out: Flat): string {
  const probe = { components: { ...taken, ...out } } as unknown as SurfaceSection;
  const id = freshId(probe, bp.component);
  out[id] = { id, component: bp.component } as JsonObject; // reserve before the children
  const kids = (bp.children ?? []).map((c) => flatten(c, taken, out));
  out[id] = { id, component: bp.component, ...(bp.props ? { props: structuredClone(bp.props) } : {}), ...(kids.length ? { children: kids } : {}) } as JsonObject;
  return id;
}

/** Ops adding `bp` as a subtree of section `s` (not yet linked to a parent): the components, top id. */
export function blueprintOps(s: SurfaceSection, bp: Blueprint): { id: string; ops: Op[] } {
  const out: Flat = {};
  const id = flatten(bp, s.components, out);
  return { id, ops: Object.entries(out).map(([cid, v]): Op => ({ op: 'add', path: compPath(s.id, cid), value: v })) };
}

/** A whole section from a starter: `{ id, ops }` with one `add /sections/<id>` (repair appends it to order). */
export function starterSectionOps(sections: Readonly<Record<string, unknown>>, starter: Starter, catalogId = 'weft@1'): { id: string; ops: Op[] } {
  let id = starter.id;
  for (let n = 2; Object.hasOwn(sections, id); n++) id = `${starter.id}-${n}`;
  const out: Flat = {};
  const empty = {} as SurfaceSection['components'];
  const kids = starter.root.map((bp) => flatten(bp, empty, out));
  const components = { root: { id: 'root', component: 'Stack', props: { gap: 'md' }, children: kids }, ...out };
  return { id, ops: [{ op: 'add', path: `/sections/${id}`, value: { id, kind: 'surface', catalog: catalogId, data: structuredClone(starter.data ?? {}), components } as unknown as JsonObject }] };
}
