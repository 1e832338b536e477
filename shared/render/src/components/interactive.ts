// Interactive primitives, drawn in their initial state and working with no script: tabs are
// radio inputs + labels (CSS shows the checked one), disclosures are <details>, controls are
// real form elements showing the bound initial value.

import type { Json } from '@weft/core';
import { actionAttrs, cleanAction } from '../actions.ts';
import type { Comp } from '../comp.ts';
import { attr } from '../escape.ts';
import type { Renderer } from './renderer.ts';

interface Option { label: string; value: string }

function options(c: Comp, min: number, max: number): Option[] | undefined {
  const raw = c.array('options', true);
  if (raw === undefined) return undefined;
  const out: Option[] = [];
  for (const o of raw.slice(0, max)) {
    if (typeof o === 'string' || typeof o === 'number') out.push({ label: String(o), value: String(o) });
    else if (o !== null && typeof o === 'object' && !Array.isArray(o) && o['value'] !== undefined) {
      const value = scalar(o['value']);
      out.push({ label: scalar(o['label'] ?? o['value']), value });
    }
  }
  if (out.length !== raw.length) c.note('invalid_props', `options: ${raw.length - out.length} item(s) left out (not a string or {label, value}, or over ${max})`);
  if (out.length < min) return c.fail(`options needs at least ${min} item(s)`);
  return out;
}

function scalar(v: Json | undefined): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The bound initial value as the string a control compares against. */
function current(c: Comp): string | undefined {
  const v = c.value('value');
  return v === undefined || v === null ? undefined : scalar(v);
}

function labelFor(c: Comp, text: string | undefined, id: string): string {
  return text ? `<label class="weft-field-label"${attr('for', id)}>${c.text(text)}</label>` : '';
}

function numAttr(name: string, v: number | undefined): string {
  return v === undefined ? '' : attr(name, v);
}

export const interactive: Record<string, Renderer> = {
  Tabs: {
    leaf: false,
    render: (c) => {
      const ids = c.childIds();
      const active = c.str('value');
      const panels = ids.map((id) => ({ id, node: c.lookup(id) }));
      const tabs = panels.filter((p) => p.node?.component === 'TabPanel');
      const open = tabs.some((p) => p.id === active) ? active : tabs[0]?.id;
      if (active !== undefined && open !== active) c.note('invalid_props', `value ${JSON.stringify(active.slice(0, 40))} names no TabPanel; the first tab is open`, 'approximate');
      const name = c.domId('-tabs');
      let body = '';
      for (const p of panels) {
        if (p.node?.component !== 'TabPanel') {
          body += c.child(p.id);
          continue;
        }
        c.scope.tabState = { name, checked: p.id === open };
        body += c.child(p.id);
      }
      c.scope.tabState = undefined;
      return `<div${c.attrs('weft-tabs')}>${body}</div>`;
    },
  },
  TabPanel: {
    leaf: false,
    render: (c) => {
      const title = c.str('title', true);
      if (title === undefined) return '';
      const tab = c.parent?.node.component === 'Tabs' ? c.scope.tabState : undefined;
      if (tab === undefined) {
        // A panel outside Tabs still shows its content, under its title.
        return `<div${c.attrs('weft-tabpanel weft-tabpanel-loose')}><h3 class="weft-card-title">${c.text(title)}</h3>${c.children()}</div>`;
      }
      c.scope.tabState = undefined;
      const inputId = c.domId('-tab');
      const input = `<input class="weft-tab-input" type="radio"${attr('name', tab.name)}${attr('id', inputId)}${tab.checked ? ' checked' : ''}>`;
      const label = `<label class="weft-tab-label"${attr('for', inputId)}>${c.text(title)}</label>`;
      return `${input}${label}<div${c.attrs('weft-tabpanel')} role="tabpanel">${c.children()}</div>`;
    },
  },
  Accordion: {
    leaf: false,
    render: (c) => `<div${c.attrs(`weft-accordion${c.bool('multiple') ? ' weft-multiple' : ''}`)}>${c.children()}</div>`,
  },
  Disclosure: {
    leaf: false,
    render: (c) => {
      const summary = c.str('summary', true);
      if (summary === undefined) return '';
      const acc = c.parent;
      // A single-open accordion: <details name> makes its disclosures exclusive, with no script.
      const group = acc?.node.component === 'Accordion' && !acc.bool('multiple') ? attr('name', acc.domId('-acc')) : '';
      return `<details${c.attrs('weft-disclosure')}${group}${c.bool('open') ? ' open' : ''}><summary>${c.text(summary)}</summary><div class="weft-disclosure-body">${c.children()}</div></details>`;
    },
  },
  Toggle: {
    leaf: true,
    render: (c) => {
      const opts = options(c, 2, 8);
      const label = c.str('label');
      if (opts === undefined) return '';
      const value = current(c) ?? opts[0]?.value;
      const name = c.domId();
      const model = c.modelAttr();
      const items = opts.map((o, i) => `<label class="weft-toggle-option"><input type="radio"${attr('name', name)}${attr('id', `${name}-${i}`)}${attr('value', o.value)}${model}${o.value === value ? ' checked' : ''}><span>${c.text(o.label)}</span></label>`);
      const legend = label ? `<legend class="weft-field-label">${c.text(label)}</legend>` : '';
      return `<fieldset${c.attrs('weft-toggle')}${c.eventAttr()}>${legend}<div class="weft-toggle-options">${items.join('')}</div></fieldset>`;
    },
  },
  Select: {
    leaf: true,
    render: (c) => {
      const opts = options(c, 1, 50);
      const label = c.str('label', true);
      if (opts === undefined || label === undefined) return '';
      const value = current(c);
      const id = c.domId();
      const items = opts.map((o) => `<option${attr('value', o.value)}${o.value === value ? ' selected' : ''}>${c.text(o.label)}</option>`);
      return `<div${c.attrs('weft-field')}${c.eventAttr()}>${labelFor(c, label, id)}<select class="weft-input"${attr('id', id)}${attr('name', c.id)}${c.modelAttr()}>${items.join('')}</select></div>`;
    },
  },
  Slider: {
    leaf: true,
    render: (c) => {
      const min = c.num('min') ?? 0;
      const max = c.num('max', true);
      const step = c.num('step') ?? 1;
      const label = c.str('label', true);
      if (max === undefined || label === undefined) return '';
      const raw = c.num('value') ?? min;
      const value = Math.min(Math.max(raw, min), max);
      const id = c.domId();
      return `<div${c.attrs('weft-field weft-slider')}${c.eventAttr()}>${labelFor(c, label, id)}<div class="weft-slider-row"><input class="weft-range" type="range"${attr('id', id)}${attr('name', c.id)}${attr('min', min)}${attr('max', max)}${attr('step', step)}${attr('value', value)}${c.modelAttr()}><output${attr('for', id)}${c.bindAttr('value')}>${c.text(String(value))}</output></div></div>`;
    },
  },
  Counter: {
    leaf: true,
    render: (c) => {
      const min = c.num('min');
      const max = c.num('max');
      const step = c.num('step') ?? 1;
      const value = c.num('value') ?? min ?? 0;
      const label = c.str('label');
      const id = c.domId();
      const aria = label ? '' : attr('aria-label', 'Counter');
      const model = c.modelAttr();
      // − and + need the runtime: hidden until it runs (the number input works without it).
      const btn = (by: number, text: string, name: string): string => model === '' ? '' : `<button type="button" class="weft-button weft-variant-secondary weft-counter-step" hidden data-weft-js${attr('data-weft-step', by)}${attr('aria-label', name)}>${text}</button>`;
      return `<div${c.attrs('weft-field weft-counter')}${c.eventAttr()}>${labelFor(c, label, id)}<div class="weft-counter-row">${btn(-step, '−', 'Decrease')}<input class="weft-input" type="number"${attr('id', id)}${attr('name', c.id)}${numAttr('min', min)}${numAttr('max', max)}${attr('step', step)}${attr('value', value)}${aria}${model}>${btn(step, '+', 'Increase')}</div></div>`;
    },
  },
  Carousel: {
    leaf: false,
    render: (c) => {
      const ids = c.childIds();
      const slides = ids.map((id) => `<li class="weft-slide">${c.child(id)}</li>`).join('');
      // The static carousel is a scroll-snap strip; the runtime shows previous/next and, with
      // autoplay and no reduced-motion preference, advances it.
      const nav = ids.length > 1 ? `<div class="weft-carousel-nav" hidden data-weft-js><button type="button" class="weft-button weft-variant-ghost" data-weft-slide="-1" aria-label="Previous slide">‹</button><button type="button" class="weft-button weft-variant-ghost" data-weft-slide="1" aria-label="Next slide">›</button></div>` : '';
      if (ids.length > 1) c.scope.logic.live = true;
      return `<div${c.attrs('weft-carousel')} role="region" aria-roledescription="carousel" aria-label="Carousel" tabindex="0"${c.bool('autoplay') ? ' data-weft-autoplay' : ''}><ul class="weft-carousel-track">${slides}</ul>${nav}</div>`;
    },
  },
  Form: {
    leaf: false,
    render: (c) => {
      const submit = c.str('submitLabel', true);
      if (submit === undefined) return '';
      const action = cleanAction(c, 'onSubmit');
      c.scope.logic.live = true; // the runtime validates the fields' checks on submit
      // method=dialog outside a <dialog> submits nowhere: a form that never navigates.
      return `<form${c.attrs('weft-form')} method="dialog"${actionAttrs(action)}>${c.children()}<div class="weft-form-actions"><button class="weft-button weft-variant-primary" type="submit">${c.text(submit)}</button></div></form>`;
    },
  },
  TextField: {
    leaf: true,
    render: (c) => {
      const label = c.str('label', true);
      if (label === undefined) return '';
      const kind = c.oneOf('kind', ['text', 'email', 'number', 'tel', 'url']);
      const value = c.str('value');
      const ph = c.str('placeholder');
      const id = c.domId();
      const checks = c.checks();
      return `<div${c.attrs('weft-field')}>${labelFor(c, label, id)}<input class="weft-input"${attr('type', kind)}${attr('id', id)}${attr('name', c.id)}${value !== undefined ? attr('value', value) : ''}${ph ? attr('placeholder', ph) : ''}${c.modelAttr()}>${checks.html}</div>`;
    },
  },
  TextArea: {
    leaf: true,
    render: (c) => {
      const label = c.str('label', true);
      if (label === undefined) return '';
      const value = c.str('value') ?? '';
      const ph = c.str('placeholder');
      const id = c.domId();
      return `<div${c.attrs('weft-field')}>${labelFor(c, label, id)}<textarea class="weft-input" rows="4"${attr('id', id)}${attr('name', c.id)}${ph ? attr('placeholder', ph) : ''}${c.modelAttr()}>${c.text(value)}</textarea>${c.checks().html}</div>`;
    },
  },
  Checkbox: {
    leaf: true,
    render: (c) => {
      const label = c.str('label', true);
      if (label === undefined) return '';
      const id = c.domId();
      return `<div${c.attrs('weft-check')}${c.eventAttr()}><input type="checkbox"${attr('id', id)}${attr('name', c.id)}${c.bool('value') ? ' checked' : ''}${c.modelAttr()}><label${attr('for', id)}>${c.text(label)}</label></div>`;
    },
  },
};
