// The scripted builder's page: a landing page in small steps, with one step the pipeline
// refuses (a child id that does not exist yet, refused with its pointer) that the next step
// fixes, and one typo ("Heding") that the pipeline repairs to Heading.
import type { Json } from '@weft/core';

export interface ScriptStep {
  say: string;
  ops: Json[];
  /** What the demo shows happening; the test checks it. */
  expect: 'applied' | 'repaired' | 'refused';
}

const surface = (id: string, components: Record<string, Json>, data: Record<string, Json> = {}, style?: Json): Json => ({
  id, kind: 'surface', catalog: 'weft@1', components, data, ...(style ? { style } : {}),
});
const add = (path: string, value: Json): Json => ({ op: 'add', path, value });

export const LANDING_SCRIPT: readonly ScriptStep[] = [
  { say: 'Title first.', expect: 'applied', ops: [{ op: 'replace', path: '/title', value: 'Loom — forms that fill themselves' }] },
  {
    say: 'A hero: headline, a line of copy, one button.', expect: 'applied',
    ops: [add('/sections/hero', surface('hero', {
      root: { id: 'root', component: 'Stack', props: { gap: 'md', align: 'center' }, children: ['headline', 'lede', 'start'] },
      headline: { id: 'headline', component: 'Heading', props: { text: 'Forms that fill themselves', level: 1 } },
      lede: { id: 'lede', component: 'Text', props: { text: 'Loom reads what you already know and **drafts the rest**.', size: 'lg' } },
      start: { id: 'start', component: 'Button', props: { label: 'Start free', variant: 'primary', href: '#pricing' } },
    }, {}, { width: 'wide', tone: 'accent' }))],
  },
  {
    say: 'Features: a grid of three cards (I mistype "Heading"; the pipeline snaps it).', expect: 'repaired',
    ops: [add('/sections/features', surface('features', {
      root: { id: 'root', component: 'Stack', children: ['title', 'grid'] },
      title: { id: 'title', component: 'Heding', props: { text: 'Why teams switch', level: 2 } },
      grid: { id: 'grid', component: 'Grid', props: { columns: 3 }, children: ['f1', 'f2', 'f3'] },
      f1: { id: 'f1', component: 'Card', props: { title: 'Prefill' }, children: ['f1-text'] },
      'f1-text': { id: 'f1-text', component: 'Text', props: { text: 'Known answers are filled in before you look.' } },
      f2: { id: 'f2', component: 'Card', props: { title: 'Checks' }, children: ['f2-text'] },
      'f2-text': { id: 'f2-text', component: 'Text', props: { text: 'Every field is validated as you type.' } },
      f3: { id: 'f3', component: 'Card', props: { title: 'Hand-off' }, children: ['f3-text'] },
      'f3-text': { id: 'f3-text', component: 'Text', props: { text: 'Send the result anywhere with one link.' } },
    }))],
  },
  {
    say: 'Pricing, with a monthly/yearly Toggle bound to the data model.', expect: 'applied',
    ops: [add('/sections/pricing', surface('pricing', {
      root: { id: 'root', component: 'Stack', children: ['title', 'period', 'plans'] },
      title: { id: 'title', component: 'Heading', props: { text: 'Pricing', level: 2 } },
      period: { id: 'period', component: 'Toggle', props: { label: 'Billing', options: [{ label: 'Monthly', value: 'monthly' }, { label: 'Yearly', value: 'yearly' }], value: { path: '/period' } } },
      plans: { id: 'plans', component: 'pricing-table', props: { period: { path: '/period' }, plans: [
        { name: 'Solo', price: { monthly: 0, yearly: 0 }, features: ['3 forms', 'Prefill'], cta: { label: 'Start', href: '#start' } },
        { name: 'Team', price: { monthly: 24, yearly: 240 }, features: ['Unlimited forms', 'Checks', 'Hand-off'], cta: { label: 'Try Team', href: '#start' } },
      ] } },
    }, { period: 'monthly' }))],
  },
  {
    say: 'FAQ.', expect: 'applied',
    ops: [add('/sections/faq', surface('faq', {
      root: { id: 'root', component: 'Stack', children: ['title', 'items'] },
      title: { id: 'title', component: 'Heading', props: { text: 'Questions', level: 2 } },
      items: { id: 'items', component: 'faq', props: { items: [
        { question: 'Is there a free plan?', answer: 'Yes: Solo is free forever.' },
        { question: 'Where is my data?', answer: 'In your workspace, in the EU.' },
      ] } },
    }))],
  },
  {
    say: 'A closing call to action… pointing at a button I have not written yet.', expect: 'refused',
    ops: [add('/sections/cta', surface('cta', {
      root: { id: 'root', component: 'Band', props: { tone: 'inverse' }, children: ['cta-title', 'cta-button'] },
      'cta-title': { id: 'cta-title', component: 'Heading', props: { text: 'Ready when you are', level: 2 } },
    }))],
  },
  {
    say: 'Refused at /sections/cta/components/root/children: fixed by sending the button with it.', expect: 'applied',
    ops: [add('/sections/cta', surface('cta', {
      root: { id: 'root', component: 'Band', props: { tone: 'inverse' }, children: ['cta-title', 'cta-button'] },
      'cta-title': { id: 'cta-title', component: 'Heading', props: { text: 'Ready when you are', level: 2 } },
      'cta-button': { id: 'cta-button', component: 'Button', props: { label: 'Start free', variant: 'secondary', href: '#pricing' } },
    }))],
  },
];
