// One A2UI basic-catalog component → Weft component(s) (PROTOCOLS.md §5 "Components").
import type { Component, Json, JsonObject } from '@weft/core';
import { childIds } from './a2ui-child-links.ts';
import { importDynamic } from './a2ui-values.ts';
import { lookup, isObject } from './json-util.ts';
import { note } from './notes.ts';
import type { InteropNote } from './notes.ts';

export interface MapCtx {
  notes: InteropNote[];
  /** Source pointer of this component, for notes. */
  at: string;
  get(foreignId: string): Record<string, unknown> | undefined;
  /** The Weft id a foreign id maps to. */
  ref(foreignId: string): string;
  /** Marks a foreign component as folded into another one (e.g. a Button's Text child). */
  consume(foreignId: string): void;
  /** A new Weft id for a generated component. */
  fresh(wanted: string): string;
}

/** Components with no Weft equivalent: left out with a `component-dropped` note. */
export const A2UI_DROPPED = new Set(['TextField', 'CheckBox', 'DateTimeInput', 'Icon', 'Image', 'Video', 'AudioPlayer']);

const JUSTIFY: Record<string, string> = { start: 'start', center: 'center', end: 'end', spaceBetween: 'between', spaceAround: 'around', spaceEvenly: 'around' };
const ALIGN = new Set(['start', 'center', 'end', 'stretch']);
const BUTTON_VARIANT: Record<string, string> = { primary: 'primary', default: 'secondary', borderless: 'ghost' };

export function mapComponent(raw: Record<string, unknown>, ctx: MapCtx): Component[] {
  const type = String(raw['component']);
  const id = ctx.ref(String(raw['id']));
  const handled = new Set(['id', 'component']);
  const take = (k: string): unknown => {
    handled.add(k);
    return raw[k];
  };
  const dyn = (k: string): Json | undefined => {
    const v = take(k);
    return v === undefined ? undefined : importDynamic(v, { notes: ctx.notes, path: `${ctx.at}/${k}` });
  };
  const kids = (): string[] => childIds(raw).map((c) => ctx.ref(c));
  const out: Component[] = [];
  const props: JsonObject = {};
  const put = (k: string, v: Json | undefined): void => {
    if (v !== undefined) props[k] = v;
  };
  const lossy = (k: string, why: string): void => {
    ctx.notes.push(note('prop-dropped', `${ctx.at}/${k}`, `${type}.${k} ${why}`, true));
  };

  if (A2UI_DROPPED.has(type)) {
    ctx.notes.push(note('component-dropped', ctx.at, `${type} "${String(raw['id'])}" has no Weft equivalent and was left out.`, true));
    return [];
  }
  let main: Component;
  switch (type) {
    case 'Text': {
      const text = dyn('text') ?? '';
      const variant = take('variant');
      if (typeof variant === 'string' && /^h[1-5]$/.test(variant)) {
        main = { id, component: 'Heading', props: { text, level: Number(variant.slice(1)) } };
      } else if (variant === 'caption') {
        main = { id, component: 'Text', props: { text, tone: 'muted', size: 'sm' } };
      } else {
        main = { id, component: 'Text', props: { text } };
      }
      break;
    }
    case 'Row':
    case 'Column':
    case 'List': {
      take('children');
      const horizontal = type === 'Row' || (type === 'List' && take('direction') === 'horizontal');
      const align = take('align');
      if (typeof align === 'string' && ALIGN.has(align)) put('align', align);
      const justify = take('justify');
      if (typeof justify === 'string') {
        if (horizontal && lookup(JUSTIFY, justify) !== undefined) {
          put('justify', lookup(JUSTIFY, justify));
          if (justify === 'spaceEvenly') lossy('justify', 'spaceEvenly became "around".');
        } else if (justify !== 'start') lossy('justify', `"${justify}" has no Weft equivalent here.`);
      }
      main = { id, component: horizontal ? 'Row' : 'Stack', props, children: kids() };
      break;
    }
    case 'Card':
      take('child');
      main = { id, component: 'Card', props, children: kids() };
      break;
    case 'Tabs': {
      const tabs = take('tabs');
      const panels: string[] = [];
      if (Array.isArray(tabs)) {
        for (const [i, t] of tabs.entries()) {
          if (!isObject(t) || typeof t['child'] !== 'string') continue;
          const pid = ctx.fresh(`${id.slice(0, 30)}-tab-${i + 1}`);
          const title = importDynamic(t['title'], { notes: ctx.notes, path: `${ctx.at}/tabs/${i}/title` }) ?? `Tab ${i + 1}`;
          out.push({ id: pid, component: 'TabPanel', props: { title }, children: [ctx.ref(t['child'])] });
          panels.push(pid);
        }
      }
      main = { id, component: 'Tabs', props, children: panels };
      break;
    }
    case 'Modal': {
      const trigger = take('trigger');
      const content = take('content');
      let summary: Json = 'Details';
      if (typeof trigger === 'string') {
        const l = labelOf(trigger, ctx, 0);
        if (l !== undefined) summary = l;
        consumeTree(trigger, ctx, 0);
        ctx.notes.push(note('component-mapped', ctx.at, 'Modal became a Disclosure; its trigger became the summary.', true));
      }
      main = { id, component: 'Disclosure', props: { summary }, children: typeof content === 'string' ? [ctx.ref(content)] : [] };
      break;
    }
    case 'Divider': {
      const axis = take('axis');
      if (axis === 'horizontal' || axis === 'vertical') put('axis', axis);
      main = { id, component: 'Divider', props };
      break;
    }
    case 'Button': {
      const child = take('child');
      let label: Json = 'Button';
      if (typeof child === 'string') {
        const l = labelOf(child, ctx, 0);
        if (l !== undefined) label = l;
        else ctx.notes.push(note('prop-dropped', `${ctx.at}/child`, 'The Button child holds no text; the label "Button" was used.', true));
        consumeTree(child, ctx, 0);
      }
      put('label', label);
      const variant = take('variant');
      if (typeof variant === 'string' && lookup(BUTTON_VARIANT, variant) !== undefined) put('variant', lookup(BUTTON_VARIANT, variant));
      const action = take('action');
      const fc = isObject(action) && isObject(action['functionCall']) ? action['functionCall'] : undefined;
      const url = fc && fc['call'] === 'openUrl' && isObject(fc['args']) ? fc['args']['url'] : undefined;
      if (typeof url === 'string') put('href', url);
      else if (isObject(action) && isObject(action['event'])) {
        ctx.notes.push(note('action-dropped', `${ctx.at}/action`, `Server event "${String(action['event']['name'])}" has no Weft action; the button does nothing.`, true));
      } else if (action !== undefined) {
        ctx.notes.push(note('action-dropped', `${ctx.at}/action`, 'The action has no Weft equivalent and was left out.', true));
      }
      main = { id, component: 'Button', props };
      break;
    }
    case 'ChoicePicker': {
      const options: Json[] = [];
      const rawOpts = take('options');
      if (Array.isArray(rawOpts)) {
        for (const [i, o] of rawOpts.entries()) {
          if (!isObject(o) || typeof o['value'] !== 'string') continue;
          let l = o['label'];
          if (typeof l !== 'string') {
            ctx.notes.push(note('prop-dropped', `${ctx.at}/options/${i}/label`, 'A bound option label became its value.', true));
            l = o['value'];
          }
          options.push(l === o['value'] ? o['value'] : { label: l as string, value: o['value'] });
        }
      }
      const exclusive = take('variant') !== 'multipleSelection';
      const toggle = exclusive && options.length >= 2 && options.length <= 8;
      if (!exclusive) ctx.notes.push(note('component-mapped', ctx.at, 'A multiple-selection ChoicePicker became a single-choice Select.', true));
      if (options.length > 50) {
        options.length = 50;
        lossy('options', 'was cut to 50 options.');
      }
      if (options.length === 0) {
        ctx.notes.push(note('component-dropped', ctx.at, 'A ChoicePicker without options was left out.', true));
        return [];
      }
      const value = take('value');
      if (isObject(value) && typeof value['path'] === 'string') put('value', { path: value['path'].startsWith('/') ? value['path'] : `/${value['path']}` });
      else if (Array.isArray(value) && typeof value[0] === 'string') {
        put('value', value[0]);
        if (value.length > 1) lossy('value', 'kept only its first selection.');
      }
      const label = take('label');
      if (typeof label === 'string') put('label', label);
      else if (!toggle) {
        put('label', 'Choose');
        if (label !== undefined) lossy('label', 'was bound; Weft labels are literal, "Choose" was used.');
      }
      props['options'] = options;
      main = { id, component: toggle ? 'Toggle' : 'Select', props };
      break;
    }
    case 'Slider': {
      const min = take('min');
      if (typeof min === 'number') put('min', min);
      const max = take('max');
      put('max', typeof max === 'number' ? max : 100);
      if (typeof max !== 'number') lossy('max', 'was not a literal number; 100 was used.');
      const value = dyn('value');
      if (value !== undefined) put('value', value);
      const label = take('label');
      put('label', typeof label === 'string' ? label : 'Value');
      if (typeof label !== 'string' && label !== undefined) lossy('label', 'was bound; Weft labels are literal.');
      main = { id, component: 'Slider', props };
      break;
    }
    default: {
      // Another catalog's component: kept with its literal props for the validator to judge.
      for (const [k, v] of Object.entries(raw)) {
        if (handled.has(k)) continue;
        const c = importDynamic(v, { notes: ctx.notes, path: `${ctx.at}/${k}` });
        if (c !== undefined) props[k] = c;
        handled.add(k);
      }
      ctx.notes.push(note('component-unknown', ctx.at, `"${type}" is not in the basic catalog; kept and flagged.`, false));
      main = { id, component: type, props };
    }
  }
  for (const k of Object.keys(raw)) {
    if (handled.has(k)) continue;
    const why = k === 'checks' ? 'checks run only on Weft form fields; dropped.' : k === 'weight' ? 'flex weight has no Weft equivalent; dropped.' : 'has no Weft equivalent; dropped.';
    lossy(k, why);
  }
  if (main.props !== undefined && Object.keys(main.props).length === 0) delete main.props;
  return [main, ...out];
}

/**
 * The text a trigger or Button child shows: a Text's text, or the first text found inside. Each
 * component is looked at once (`seen`): children lists that repeat ids or form cycles would
 * otherwise make this exponential in the depth (issue 14).
 */
function labelOf(foreignId: string, ctx: MapCtx, depth: number, seen = new Set<string>()): Json | undefined {
  const raw = ctx.get(foreignId);
  if (raw === undefined || depth > 8 || seen.has(foreignId)) return undefined;
  seen.add(foreignId);
  if (raw['component'] === 'Text') return importDynamic(raw['text'], { notes: ctx.notes, path: `${ctx.at}/label` });
  for (const c of childIds(raw)) {
    const l = labelOf(c, ctx, depth + 1, seen);
    if (l !== undefined) return l;
  }
  return undefined;
}

function consumeTree(foreignId: string, ctx: MapCtx, depth: number, seen = new Set<string>()): void {
  if (seen.has(foreignId)) return;
  seen.add(foreignId);
  const raw = ctx.get(foreignId);
  ctx.consume(foreignId);
  ctx.notes.push(note('component-mapped', ctx.at, `"${foreignId}" was folded into a label.`, false));
  if (raw === undefined || depth > 8) return;
  const inner = childIds(raw);
  if (raw['component'] !== 'Text' && inner.length > 0) {
    ctx.notes.push(note('component-dropped', ctx.at, `The contents of "${foreignId}" were folded into a label.`, true));
  }
  for (const c of inner) consumeTree(c, ctx, depth + 1, seen);
}
