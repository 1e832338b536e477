// Every component of docs/catalog.md. Edit the table and this file together (a test compares
// the names).
import type { JsonObject } from '../draft.ts';
import type { CatalogEntry, ChildrenPolicy, JSONSchema } from './types.ts';
import type { PropDef } from './schema.ts';
import { action, arr, bindable, bool, checks, int, num, obj, oneOf, opt, req, str, url } from './schema.ts';

export interface EntryDef {
  name: string;
  group: CatalogEntry['group'];
  description: string;
  props: Record<string, PropDef>;
  children: ChildrenPolicy;
  example: JsonObject;
  aliases?: Record<string, string>;
}

/** Turns a definition into a CatalogEntry with its full props schema. */
export function defineEntry(d: EntryDef): CatalogEntry {
  const properties: Record<string, JSONSchema> = {};
  const required: string[] = [];
  const bindableProps: string[] = [];
  for (const [k, p] of Object.entries(d.props)) {
    properties[k] = p.schema;
    if (p.required) required.push(k);
    if (p.schema['x-bindable'] === true) bindableProps.push(k);
  }
  return {
    name: d.name,
    group: d.group,
    description: d.description,
    props: { type: 'object', properties, required, additionalProperties: false },
    required,
    bindable: bindableProps,
    children: d.children,
    example: d.example,
    aliases: d.aliases ?? {},
  };
}

const GAP = oneOf(['none', 'sm', 'md', 'lg'], 'md');
const ICONS = [
  'arrow-right', 'arrow-left', 'check', 'close', 'menu', 'search', 'star', 'heart', 'user', 'mail', 'phone', 'calendar',
  'clock', 'map-pin', 'globe', 'info', 'warning', 'plus', 'minus', 'download', 'upload', 'external-link', 'play', 'pause',
] as const;
export const ICON_NAMES: readonly string[] = ICONS;
const OPTION = { anyOf: [str({ maxLength: 200 }), obj({ label: str({ maxLength: 200 }), value: { type: ['string', 'number', 'boolean'] } }, ['label', 'value'])] };
const SCALAR = { type: ['string', 'number', 'boolean'] };

const defs: EntryDef[] = [
  // Layout
  { name: 'Stack', group: 'layout', description: 'Vertical stack of children.', children: 'any',
    props: { gap: opt(GAP), align: opt(oneOf(['stretch', 'start', 'center', 'end'])) }, example: { gap: 'md' } },
  { name: 'Row', group: 'layout', description: 'Horizontal row of children.', children: 'any',
    props: { gap: opt(GAP), align: opt(oneOf(['center', 'start', 'end', 'stretch'])), justify: opt(oneOf(['start', 'center', 'end', 'between', 'around'])), wrap: opt(bool()) },
    example: { gap: 'md', justify: 'start' } },
  { name: 'Grid', group: 'layout', description: 'Grid of equal columns.', children: 'any',
    props: { columns: opt(int(1, 6, 3)), gap: opt(GAP) }, example: { columns: 3 } },
  { name: 'Columns', group: 'layout', description: 'Columns with a width ratio.', children: 'any',
    props: { ratio: opt(oneOf(['1:1', '1:2', '2:1', '1:1:1'])), gap: opt(GAP) }, example: { ratio: '1:1' } },
  { name: 'Band', group: 'layout', description: 'Full-width band with a tone.', children: 'any',
    props: { tone: opt(oneOf(['default', 'muted', 'accent', 'inverse'])), padding: opt(oneOf(['md', 'sm', 'lg'])) }, example: { tone: 'muted' } },
  { name: 'Card', group: 'layout', description: 'A card with an optional title.', children: 'any',
    props: { title: opt(bindable(str())), tone: opt(oneOf(['default', 'muted', 'accent'])) }, example: { title: 'Card title' } },
  { name: 'Spacer', group: 'layout', description: 'Vertical space.', children: 'none',
    props: { size: opt(oneOf(['md', 'sm', 'lg', 'xl'])) }, example: { size: 'md' } },
  { name: 'Divider', group: 'layout', description: 'A rule between content.', children: 'none',
    props: { axis: opt(oneOf(['horizontal', 'vertical'])) }, example: {} },
  // Content
  { name: 'Heading', group: 'content', description: 'A heading.', children: 'none',
    props: { text: req(bindable(str())), level: opt(int(1, 6, 2)) }, example: { text: 'Heading', level: 2 } },
  { name: 'Text', group: 'content', description: 'A paragraph of inline markdown.', children: 'none',
    props: { text: req(bindable(str())), tone: opt(oneOf(['default', 'muted'])), size: opt(oneOf(['md', 'sm', 'lg'])) }, example: { text: 'Some text.' } },
  { name: 'Markdown', group: 'content', description: 'Block markdown (safe subset).', children: 'none',
    props: { source: req(bindable(str())) }, example: { source: '## Title\n\nSome *markdown*.' },
    // Models write Markdown's body under Text's name or the format's: read it, never lose it to the example.
    aliases: { text: 'source', content: 'source', markdown: 'source', body: 'source' } },
  { name: 'Image', group: 'content', description: 'An image from the assets.', children: 'none',
    props: { src: req(bindable(url('media'))), alt: req(str({ maxLength: 500 })), fit: opt(oneOf(['cover', 'contain'])), width: opt(int(1, 10000)), height: opt(int(1, 10000)) },
    example: { src: 'assets/placeholder.png', alt: 'Placeholder image' }, aliases: { url: 'src' } },
  { name: 'Icon', group: 'content', description: "An icon of the theme's set.", children: 'none',
    props: { name: req(oneOf(ICONS, undefined)), size: opt(oneOf(['md', 'sm', 'lg'])), label: opt(str({ maxLength: 200 })) }, example: { name: 'star' } },
  { name: 'Button', group: 'content', description: 'A button or link button.', children: 'none',
    props: { label: req(bindable(str({ maxLength: 200 }))), variant: opt(oneOf(['primary', 'secondary', 'ghost', 'link'])), href: opt(url()), onClick: opt(action()), disabled: opt(bindable(bool())), checks: opt(checks()), event: opt(str({ maxLength: 64, pattern: '^[A-Za-z0-9._:-]{1,64}$' })) },
    example: { label: 'Get started', href: '/start' }, aliases: { text: 'label', title: 'label' } },
  { name: 'Link', group: 'content', description: 'An inline link.', children: 'none',
    props: { text: req(bindable(str({ maxLength: 500 }))), href: req(url()) }, example: { text: 'Learn more', href: '/about' }, aliases: { label: 'text' } },
  { name: 'Badge', group: 'content', description: 'A small label.', children: 'none',
    props: { text: req(bindable(str({ maxLength: 100 }))), tone: opt(oneOf(['neutral', 'info', 'success', 'warning', 'danger'])) }, example: { text: 'New' } },
  { name: 'Stat', group: 'content', description: 'A key figure.', children: 'none',
    props: { label: req(bindable(str({ maxLength: 200 }))), value: req(bindable({ type: ['string', 'number'], maxLength: 200 })), trend: opt(oneOf(['flat', 'up', 'down'])), caption: opt(bindable(str({ maxLength: 500 }))) },
    example: { label: 'Users', value: 1200 }, aliases: { title: 'label' } },
  { name: 'Quote', group: 'content', description: 'A quotation.', children: 'none',
    props: { text: req(bindable(str())), cite: opt(str({ maxLength: 200 })) }, example: { text: 'Simple things should be simple.' } },
  { name: 'List', group: 'content', description: 'A bulleted or numbered list.', children: 'none',
    props: { items: req(bindable(arr(str({ maxLength: 1000 })))), ordered: opt(bool()) }, example: { items: ['One', 'Two'] } },
  { name: 'Table', group: 'content', description: 'A table of rows.', children: 'none',
    props: { columns: req(arr(obj({ key: str({ maxLength: 100 }), label: str({ maxLength: 200 }) }, ['key', 'label']), 1, 12)), rows: req(bindable(arr({ type: 'object' }))) },
    example: { columns: [{ key: 'name', label: 'Name' }], rows: [{ name: 'Ada' }] } },
  { name: 'Chart', group: 'content', description: 'A chart over a data series.', children: 'none',
    props: { kind: req(oneOf(['bar', 'line', 'area', 'pie'], undefined)), series: req(bindable(arr(obj({ label: str({ maxLength: 200 }), value: num() }, ['label', 'value'])))), title: opt(str({ maxLength: 200 })), unit: opt(str({ maxLength: 20 })) },
    example: { kind: 'bar', series: [{ label: 'A', value: 1 }] }, aliases: { data: 'series', type: 'kind' } },
  { name: 'Video', group: 'content', description: 'An embedded video (https only).', children: 'none',
    props: { src: req(url('https')), title: req(str({ maxLength: 200 })) }, example: { src: 'https://example.com/video.mp4', title: 'Video' } },
  // Interactive
  { name: 'Tabs', group: 'interactive', description: 'Tabs; value is the id of the open TabPanel.', children: ['TabPanel'],
    props: { value: opt(bindable(str({ maxLength: 41 }))) }, example: {} },
  { name: 'TabPanel', group: 'interactive', description: 'One tab of Tabs.', children: 'any',
    props: { title: req(bindable(str({ maxLength: 200 }))) }, example: { title: 'Tab' }, aliases: { label: 'title' } },
  { name: 'Accordion', group: 'interactive', description: 'A group of Disclosures.', children: ['Disclosure'],
    props: { multiple: opt(bool()) }, example: {} },
  { name: 'Disclosure', group: 'interactive', description: 'A summary that opens to show children.', children: 'any',
    props: { summary: req(bindable(str({ maxLength: 500 }))), open: opt(bool()) }, example: { summary: 'More' }, aliases: { title: 'summary', question: 'summary', label: 'summary' } },
  { name: 'Toggle', group: 'interactive', description: 'A segmented choice of 2–8 options.', children: 'none',
    props: { options: req(arr(OPTION, 2, 8)), value: opt(bindable(SCALAR)), label: opt(str({ maxLength: 200 })), event: opt(str({ maxLength: 64, pattern: '^[A-Za-z0-9._:-]{1,64}$' })) }, example: { options: ['monthly', 'yearly'] } },
  { name: 'Select', group: 'interactive', description: 'A drop-down of 1–50 options.', children: 'none',
    props: { options: req(arr(OPTION, 1, 50)), value: opt(bindable(SCALAR)), label: req(str({ maxLength: 200 })), event: opt(str({ maxLength: 64, pattern: '^[A-Za-z0-9._:-]{1,64}$' })) }, example: { options: ['a', 'b'], label: 'Choose' } },
  { name: 'Slider', group: 'interactive', description: 'A numeric slider.', children: 'none',
    props: { min: opt(num({ default: 0 })), max: req(num()), step: opt(num({ default: 1, exclusiveMinimum: 0 })), value: opt(bindable(num())), label: req(str({ maxLength: 200 })), event: opt(str({ maxLength: 64, pattern: '^[A-Za-z0-9._:-]{1,64}$' })) },
    example: { max: 100, label: 'Amount' } },
  { name: 'Counter', group: 'interactive', description: 'A number with +/- buttons.', children: 'none',
    props: { value: opt(bindable(num())), min: opt(num()), max: opt(num()), step: opt(num({ default: 1, exclusiveMinimum: 0 })), label: opt(str({ maxLength: 200 })), event: opt(str({ maxLength: 64, pattern: '^[A-Za-z0-9._:-]{1,64}$' })) }, example: { value: 0 } },
  { name: 'Carousel', group: 'interactive', description: 'Children shown one at a time.', children: 'any',
    props: { autoplay: opt(bool()) }, example: {} },
  { name: 'Form', group: 'interactive', description: 'A form of fields.', children: ['TextField', 'TextArea', 'Checkbox', 'Select', 'Toggle', 'Slider', 'Stack', 'Row', 'Text'],
    props: { submitLabel: req(str({ maxLength: 200 })), onSubmit: opt(action()) }, example: { submitLabel: 'Send' } },
  { name: 'TextField', group: 'interactive', description: 'A one-line input.', children: 'none',
    props: { label: req(str({ maxLength: 200 })), value: opt(bindable(str())), kind: opt(oneOf(['text', 'email', 'number', 'tel', 'url'])), placeholder: opt(str({ maxLength: 200 })), checks: opt(checks()) },
    example: { label: 'Name' } },
  { name: 'TextArea', group: 'interactive', description: 'A multi-line input.', children: 'none',
    props: { label: req(str({ maxLength: 200 })), value: opt(bindable(str())), placeholder: opt(str({ maxLength: 200 })), checks: opt(checks()) }, example: { label: 'Message' } },
  { name: 'Checkbox', group: 'interactive', description: 'A checkbox.', children: 'none',
    props: { label: req(str({ maxLength: 200 })), value: opt(bindable(bool())), event: opt(str({ maxLength: 64, pattern: '^[A-Za-z0-9._:-]{1,64}$' })) }, example: { label: 'I agree' } },
  // Registry blocks
  { name: 'callout', group: 'block', description: 'A highlighted note.', children: 'any',
    props: { tone: opt(oneOf(['info', 'success', 'warning', 'danger'])), title: opt(bindable(str({ maxLength: 200 }))), text: req(bindable(str())) }, example: { tone: 'info', text: 'Good to know.' } },
  { name: 'faq', group: 'block', description: 'Questions and answers.', children: 'none',
    props: { items: req(arr(obj({ question: str({ maxLength: 500 }), answer: str() }, ['question', 'answer']), 1, 50)) },
    example: { items: [{ question: 'Why?', answer: 'Because.' }] } },
  { name: 'testimonial', group: 'block', description: 'A customer quote.', children: 'none',
    props: { quote: req(bindable(str())), author: req(str({ maxLength: 200 })), role: opt(str({ maxLength: 200 })) }, example: { quote: 'Great product.', author: 'Ada' } },
  { name: 'pricing-table', group: 'block', description: 'Pricing plans, monthly or yearly.', children: 'none',
    props: {
      period: opt(bindable(str({ maxLength: 20, default: 'monthly' }))),
      plans: req(arr(obj({
        name: str({ maxLength: 100 }),
        price: obj({ monthly: num(), yearly: num() }, ['monthly', 'yearly']),
        features: arr(str({ maxLength: 200 }), 0, 50),
        cta: obj({ label: str({ maxLength: 100 }), href: url() }, ['label', 'href']),
        popular: bool(),
      }, ['name', 'price']), 1, 6)),
    },
    example: { plans: [{ name: 'Basic', price: { monthly: 10, yearly: 100 } }] } },
];

export const BUILTIN_ENTRIES: readonly CatalogEntry[] = defs.map(defineEntry);
