// The briefs of the build eval (RFC "Build model eval") and of the acceptance corpus (issue 19):
// what the person asked, the draft it starts from, an optional scope (click-to-scope), and a
// structural check that the page is what was asked. Pure: data and checks, no I/O.
import type { Component, Draft, Json, Section } from '@weft/core';
import type { BriefScope } from '../brief-request.ts';

/** A brief the eval runs: built in, or read from a `--briefs` file (then without a check). */
export interface EvalBrief {
  id: string;
  text: string;
  /** Sections the draft holds before the brief (edits). */
  seed: Section[];
  scope?: BriefScope;
  /** What is wrong with the page, [] when it is as briefed. */
  check?: (d: Draft) => string[];
}

/** A built-in brief: it always knows whether the page came out as briefed. */
export interface Brief extends EvalBrief {
  check: (d: Draft) => string[];
}

type Found = { sid: string; c: Component };
const all = (d: Draft): Found[] => d.order.flatMap((sid) => Object.values(d.sections[sid]?.components ?? {}).map((c) => ({ sid, c })));
const ofType = (d: Draft, name: string): Found[] => all(d).filter((x) => x.c.component === name);
const prop = (c: Component, k: string): Json | undefined => (c.props && Object.hasOwn(c.props, k) ? c.props[k] : undefined);
const str = (v: Json | undefined): string => (typeof v === 'string' ? v : '');
/** All literal text of a page, lower-cased (to look for what the brief named). */
const pageText = (d: Draft): string => JSON.stringify(all(d).map((x) => x.c.props ?? {})).toLowerCase();
const isBinding = (v: Json | undefined): v is { path: string } => v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v['path'] === 'string';
const need = (out: string[], ok: boolean, what: string): void => {
  if (!ok) out.push(what);
};
/** Ids of a section's tree, depth first from root (the reading order). */
function readingOrder(s: Section): string[] {
  const out: string[] = [];
  const walk = (id: string, depth: number): void => {
    const c = s.components[id];
    if (!c || depth > 10 || out.includes(id)) return;
    out.push(id);
    for (const ch of c.children ?? []) walk(ch, depth + 1);
  };
  walk('root', 0);
  return out;
}
const unknown = (d: Draft, known: (n: string) => boolean): string[] => all(d).filter((x) => !known(x.c.component)).map((x) => `${x.sid}/${x.c.id} is an unknown ${x.c.component}`);

const comp = (id: string, component: string, props: Record<string, Json>, children?: string[]): Component => ({ id, component, props, ...(children ? { children } : {}) });
const section = (id: string, components: Component[], data: Record<string, Json> = {}): Section =>
  ({ id, kind: 'surface', catalog: 'weft@1', data, components: Object.fromEntries(components.map((c) => [c.id, c])) }) as Section;

/** The bakery page the two edit briefs start from. */
export const BAKERY: Section[] = [
  section('hero', [
    comp('root', 'Stack', { align: 'center' }, ['title', 'lede', 'cta']),
    comp('title', 'Heading', { text: 'Fresh bread daily' }),
    comp('lede', 'Text', { text: 'Baked before sunrise on Elm Street.', size: 'lg', tone: 'muted' }),
    comp('cta', 'Button', { label: 'Order now', href: '/order' }),
  ]),
  section('features', [
    comp('root', 'Grid', { columns: 3 }, ['c1', 'c2', 'c3']),
    comp('c1', 'Card', { title: 'Sourdough' }, ['t1']), comp('t1', 'Text', { text: 'Two-day ferment.' }),
    comp('c2', 'Card', { title: 'Pastries' }, ['t2']), comp('t2', 'Text', { text: 'Butter, by hand.' }),
    comp('c3', 'Card', { title: 'Delivery' }, ['t3']), comp('t3', 'Text', { text: 'By bike, by 8.' }),
  ]),
  section('newsletter', [
    comp('root', 'Stack', {}, ['nl-title', 'nl-form']),
    comp('nl-title', 'Heading', { text: 'Bake news, monthly', level: 2 }),
    comp('nl-form', 'Form', { submitLabel: 'Subscribe' }, ['nl-email']),
    comp('nl-email', 'TextField', { label: 'E-mail', kind: 'email' }),
  ]),
  section('pricing', [
    comp('root', 'Stack', {}, ['pr-title', 'pr-table']),
    comp('pr-title', 'Heading', { text: 'Bread subscriptions', level: 2 }),
    comp('pr-table', 'pricing-table', { plans: [{ name: 'Weekly loaf', price: { monthly: 20, yearly: 200 } }] }),
  ]),
];

export function briefs(known: (name: string) => boolean): Brief[] {
  return [
    {
      id: 'landing',
      text: "A landing page for Hearth, a neighbourhood bakery: a hero with a big headline and an 'Order bread' button to /order, three features (sourdough, pastries, delivery), a customer testimonial, and a closing call to action.",
      seed: [],
      check(d) {
        const out = unknown(d, known);
        need(out, d.order.length >= 4, `${d.order.length} sections, expected hero, features, testimonial, call to action`);
        const first = d.sections[d.order[0] ?? ''];
        need(out, first !== undefined && Object.values(first.components).some((c) => c.component === 'Heading' && prop(c, 'level') === 1), 'the first section has no level-1 Heading');
        need(out, first !== undefined && Object.values(first.components).some((c) => c.component === 'Button' && /order bread/i.test(str(prop(c, 'label'))) && prop(c, 'href') === '/order'), "the hero has no 'Order bread' Button to /order");
        const text = pageText(d);
        for (const w of ['sourdough', 'pastr', 'deliver']) need(out, text.includes(w), `no feature about ${w}`);
        need(out, ofType(d, 'testimonial').length + ofType(d, 'Quote').length >= 1, 'no testimonial or Quote');
        const last = d.sections[d.order.at(-1) ?? ''];
        need(out, last !== undefined && Object.values(last.components).some((c) => c.component === 'Button' && str(prop(c, 'label')) !== ''), 'the last section is not a call to action with a Button');
        return out;
      },
    },
    {
      id: 'pricing',
      text: 'A pricing section for Tally, an invoicing app: a monthly/yearly Toggle bound to the section data, a pricing-table with three plans (Starter, Team, Business) whose period follows the toggle, the Team plan highlighted, and a short note under it.',
      seed: [],
      check(d) {
        const out = unknown(d, known);
        const toggle = ofType(d, 'Toggle')[0];
        const table = ofType(d, 'pricing-table')[0];
        need(out, toggle !== undefined, 'no Toggle');
        need(out, table !== undefined, 'no pricing-table');
        if (!toggle || !table) return out;
        const tv = prop(toggle.c, 'value');
        const pv = prop(table.c, 'period');
        need(out, isBinding(tv) && isBinding(pv) && tv.path === pv.path && toggle.sid === table.sid, 'the Toggle and the table period are not bound to the same data path');
        const data = d.sections[table.sid]?.data ?? {};
        need(out, isBinding(pv) && typeof data[pv.path.slice(1)] === 'string', 'the period path holds no value in the section data');
        const plans = prop(table.c, 'plans');
        const names = Array.isArray(plans) ? plans.map((p) => (p && typeof p === 'object' && !Array.isArray(p) ? str(p['name']) : '')) : [];
        need(out, JSON.stringify(names) === JSON.stringify(['Starter', 'Team', 'Business']), `plans are ${JSON.stringify(names)}`);
        const prices = Array.isArray(plans) ? plans.map((p) => JSON.stringify((p as Record<string, Json>)['price'])) : [];
        need(out, new Set(prices).size === 3, 'the three plans do not have their own prices (filled from an example?)');
        return out;
      },
    },
    {
      id: 'faq',
      text: "An FAQ section for Tally: a heading 'Questions', and five questions as an Accordion of Disclosures, each opening to a short Text answer.",
      seed: [],
      check(d) {
        const out = unknown(d, known);
        need(out, ofType(d, 'Heading').some((h) => /questions/i.test(str(prop(h.c, 'text')))), "no Heading 'Questions'");
        const acc = ofType(d, 'Accordion')[0];
        need(out, acc !== undefined, 'no Accordion');
        if (!acc) return out;
        const s = d.sections[acc.sid]!;
        const kids = (acc.c.children ?? []).map((id) => s.components[id]).filter((c) => c !== undefined);
        need(out, kids.length === 5 && kids.every((c) => c.component === 'Disclosure'), `the Accordion holds ${kids.length} children, expected 5 Disclosures`);
        need(out, kids.every((c) => str(prop(c, 'summary')).endsWith('?')), 'a Disclosure summary is not the question (filled from an example?)');
        need(out, kids.every((c) => (c.children ?? []).some((id) => s.components[id]?.component === 'Text')), 'a Disclosure does not open to a Text answer');
        need(out, readingOrder(s).length === Object.keys(s.components).length, 'components outside the tree');
        return out;
      },
    },
    {
      id: 'edit',
      text: "Change the hero headline to 'Bread worth waking up for', replace the intro line under it with a badge saying 'New: rye on Fridays', delete the newsletter section, and move pricing above the features.",
      seed: BAKERY,
      check(d) {
        const out = unknown(d, known);
        need(out, JSON.stringify(d.order) === JSON.stringify(['hero', 'pricing', 'features']), `order is ${JSON.stringify(d.order)}, expected hero, pricing, features`);
        need(out, !Object.hasOwn(d.sections, 'newsletter'), 'the newsletter section is still there');
        const hero = d.sections['hero'];
        if (!hero) return [...out, 'no hero'];
        const inTree = readingOrder(hero).map((id) => hero.components[id]!);
        const h = inTree.findIndex((c) => c.component === 'Heading' && prop(c, 'text') === 'Bread worth waking up for');
        const b = inTree.findIndex((c) => c.component === 'Badge' && /rye on fridays/i.test(str(prop(c, 'text'))));
        need(out, h >= 0, 'the hero headline is not the new one');
        need(out, b >= 0, "no 'New: rye on Fridays' Badge in the hero");
        need(out, h < 0 || b < 0 || b > h, 'the badge is not under the headline');
        need(out, !JSON.stringify(hero).includes('Baked before sunrise'), 'the old intro line is still there');
        need(out, Object.keys(hero.components).length === inTree.length, 'components outside the hero tree');
        return out;
      },
    },
    {
      id: 'scope',
      text: "Make this button say 'Start free trial', link it to /signup and give it the secondary style.",
      seed: BAKERY,
      scope: { sectionId: 'hero', componentId: 'cta' },
      check(d) {
        const out = unknown(d, known);
        const cta = d.sections['hero']?.components['cta'];
        need(out, cta?.component === 'Button', 'hero/cta is no longer a Button');
        if (!cta) return out;
        need(out, prop(cta, 'label') === 'Start free trial', `the label is ${JSON.stringify(prop(cta, 'label'))}`);
        need(out, prop(cta, 'href') === '/signup', `the href is ${JSON.stringify(prop(cta, 'href'))}`);
        need(out, prop(cta, 'variant') === 'secondary', `the variant is ${JSON.stringify(prop(cta, 'variant'))}`);
        // Nothing but the scoped component changed.
        const rest = structuredClone(d);
        rest.sections['hero']!.components['cta'] = BAKERY[0]!.components['cta']!;
        need(out, JSON.stringify(rest.order) === JSON.stringify(BAKERY.map((s) => s.id)) && BAKERY.every((s) => JSON.stringify(rest.sections[s.id]) === JSON.stringify(s)), 'something outside the scope changed');
        return out;
      },
    },
    {
      id: 'dashboard',
      text: 'A sales dashboard for Q2: a title, a row of three key figures (Revenue €48,200 up, Orders 1,240 up, Refunds 18 down), a line chart of monthly revenue January to June, and a table of the top 5 products with units sold.',
      seed: [],
      check(d) {
        const out = unknown(d, known);
        need(out, ofType(d, 'Heading').length >= 1, 'no title');
        const stats = ofType(d, 'Stat').map((x) => `${str(prop(x.c, 'label'))}:${str(prop(x.c, 'trend'))}`);
        need(out, JSON.stringify(stats) === JSON.stringify(['Revenue:up', 'Orders:up', 'Refunds:down']), `stats are ${JSON.stringify(stats)}`);
        const chart = ofType(d, 'Chart')[0];
        need(out, chart !== undefined, 'no Chart');
        if (chart) {
          need(out, prop(chart.c, 'kind') === 'line', `the chart is ${JSON.stringify(prop(chart.c, 'kind'))}, not line`);
          let series = prop(chart.c, 'series');
          if (isBinding(series)) series = d.sections[chart.sid]?.data[series.path.slice(1)];
          need(out, Array.isArray(series) && series.length === 6 && series.every((p) => p !== null && typeof p === 'object' && typeof (p as Record<string, Json>)['value'] === 'number'), 'the chart does not show six months of numbers');
        }
        const table = ofType(d, 'Table')[0];
        const rows = table ? prop(table.c, 'rows') : undefined;
        need(out, Array.isArray(rows) && rows.length === 5, 'no table of five products');
        return out;
      },
    },
  ];
}


/** The RFC's five eval briefs: a landing page, an interactive pricing section, an FAQ, an edit of
 *  an existing draft and a click-to-scope edit (the acceptance corpus adds a dashboard). */
export const EVAL_BRIEF_IDS = ['landing', 'pricing', 'faq', 'edit', 'scope'] as const;

export function evalBriefs(known: (name: string) => boolean): Brief[] {
  return briefs(known).filter((b) => (EVAL_BRIEF_IDS as readonly string[]).includes(b.id));
}
