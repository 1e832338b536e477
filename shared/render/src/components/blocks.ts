// Registry blocks (theme blocks): callout, faq, testimonial, pricing-table.

import { isBinding } from '@weft/core';
import type { Json } from '@weft/core';
import type { Comp } from '../comp.ts';
import { attr } from '../escape.ts';
import type { Renderer } from './renderer.ts';

type Obj = { [k: string]: Json };
const isObj = (v: Json | undefined): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: Json | undefined): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

function objects(c: Comp, name: string, what: string): Obj[] | undefined {
  const arr = c.array(name, true);
  if (arr === undefined) return undefined;
  const out = arr.filter(isObj);
  if (out.length !== arr.length) c.note('invalid_props', `${name}: ${arr.length - out.length} ${what}(s) are not objects and were left out`);
  return out;
}

function price(n: Json | undefined): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '—';
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

export const blocks: Record<string, Renderer> = {
  callout: {
    leaf: false,
    render: (c) => {
      const tone = c.oneOf('tone', ['info', 'success', 'warning', 'danger']);
      const title = c.str('title');
      const text = c.str('text', true);
      if (text === undefined) return '';
      const head = title ? `<p class="weft-callout-title">${c.text(title)}</p>` : '';
      return `<aside${c.attrs(`weft-callout weft-tone-${tone}`)} role="note">${head}<p class="weft-callout-text">${c.inline(text)}</p>${c.children()}</aside>`;
    },
  },
  faq: {
    leaf: true,
    render: (c) => {
      const items = objects(c, 'items', 'item');
      if (items === undefined) return '';
      const out = items.map((it) => {
        const q = str(it['question']);
        const a = str(it['answer']);
        if (q === undefined || a === undefined) {
          c.note('invalid_props', 'an faq item lacks a question or answer and was left out');
          return '';
        }
        return `<details class="weft-faq-item"><summary>${c.text(q)}</summary><div class="weft-faq-answer">${c.inline(a)}</div></details>`;
      });
      return `<div${c.attrs('weft-faq')}>${out.join('')}</div>`;
    },
  },
  testimonial: {
    leaf: true,
    render: (c) => {
      const quote = c.str('quote', true);
      const author = c.str('author', true);
      const role = c.str('role');
      if (quote === undefined || author === undefined) return '';
      const who = `<span class="weft-testimonial-author">${c.text(author)}</span>${role ? `<span class="weft-testimonial-role">${c.text(role)}</span>` : ''}`;
      return `<figure${c.attrs('weft-testimonial')}><blockquote><p>${c.inline(quote)}</p></blockquote><figcaption>${who}</figcaption></figure>`;
    },
  },
  'pricing-table': {
    leaf: true,
    render: (c) => {
      const period = c.oneOf('period', ['monthly', 'yearly']);
      const raw = c.raw('period');
      const bound = isBinding(raw) ? raw : null;
      const plans = objects(c, 'plans', 'plan');
      if (plans === undefined) return '';
      const cards = plans.map((plan) => {
        const name = str(plan['name']);
        const prices = plan['price'];
        if (name === undefined || !isObj(prices)) {
          c.note('invalid_props', 'a plan lacks a name or price and was left out');
          return '';
        }
        const features = Array.isArray(plan['features'])
          ? `<ul class="weft-plan-features">${plan['features'].map((f) => `<li>${c.text(str(f) ?? '')}</li>`).join('')}</ul>`
          : '';
        let cta = '';
        const ctaObj = plan['cta'];
        if (isObj(ctaObj) && str(ctaObj['label']) !== undefined) {
          const label = c.text(str(ctaObj['label']) ?? '');
          const href = ctaObj['href'] !== undefined ? c.checkUrl(ctaObj['href'], 'link', 'plans.cta.href') : undefined;
          cta = href !== undefined
            ? `<a class="weft-button weft-variant-primary"${attr('href', href)}${/^(https?|mailto):/i.test(href) ? ' rel="noopener noreferrer nofollow"' : ''}>${label}</a>`
            : `<span class="weft-button weft-variant-primary weft-inert-link">${label}</span>`;
        }
        const amount = (p: 'monthly' | 'yearly'): string => `<span class="weft-plan-amount">${price(prices[p])}</span><span class="weft-plan-period">${p === 'monthly' ? '/mo' : '/yr'}</span>`;
        // A bound period (a Toggle's /period) can change on the reader's page: both prices are
        // there, the runtime shows the one the data names (anything but "yearly" is monthly).
        const amounts = bound
          ? `<span${c.showWhen('monthly', { ne: [bound, 'yearly'] }, period === 'monthly')}>${amount('monthly')}</span><span${c.showWhen('yearly', { eq: [bound, 'yearly'] }, period === 'yearly')}>${amount('yearly')}</span>`
          : amount(period);
        // The plan to pick ("the Team plan highlighted"): a badge says so in words, not by colour alone.
        const popular = plan['popular'] === true;
        const badge = popular ? '<span class="weft-plan-badge">Most popular</span>' : '';
        return `<div class="weft-plan${popular ? ' weft-plan-popular' : ''}">${badge}<h3 class="weft-plan-name">${c.text(name)}</h3><p class="weft-plan-price">${amounts}</p>${features}${cta}</div>`;
      });
      return `<div${c.attrs('weft-pricing')}${attr('data-period', period)}>${cards.join('')}</div>`;
    },
  },
};
