// Weft SurfaceSection → A2UI v0.9 basic-catalog messages (PROTOCOLS.md §5). Weft-only components
// are flattened (Stat, Quote, List, Disclosure → Column of Text; Band/Grid/Columns → Column/Row).
import type { Component, Json, JsonObject, SurfaceSection } from '@weft/core';
import { exportDynamic } from './a2ui-export-values.ts';
import type { DynKind } from './a2ui-export-values.ts';
import { A2UI_BASIC_CATALOG_ID, A2UI_VERSION } from './a2ui-types.ts';
import type { A2uiComponent, A2uiMessage, A2uiValue } from './a2ui-types.ts';
import { lookup, escapeToken, isObject } from './json-util.ts';
import { note } from './notes.ts';
import type { Converted, InteropNote } from './notes.ts';

export interface ToA2uiOptions {
  /** Default: the section id. */
  surfaceId?: string;
  catalogId?: string;
  /** Notes of an earlier import: their `id-renamed` entries restore the original A2UI ids. */
  restoreIds?: readonly InteropNote[];
  /** The site's primary origin: relative image sources become absolute on it (else left out). */
  baseUrl?: string;
}

const ICONS: Record<string, string> = {
  'arrow-right': 'arrowForward', 'arrow-left': 'arrowBack', check: 'check', close: 'close', menu: 'menu', search: 'search',
  star: 'star', heart: 'favorite', user: 'person', mail: 'mail', phone: 'phone', calendar: 'calendarToday', 'map-pin': 'locationOn',
  info: 'info', warning: 'warning', plus: 'add', download: 'download', upload: 'upload', play: 'play', pause: 'pause',
};
const JUSTIFY: Record<string, string> = { start: 'start', center: 'center', end: 'end', between: 'spaceBetween', around: 'spaceAround' };
const BUTTON_VARIANT: Record<string, string> = { primary: 'primary', secondary: 'default', ghost: 'borderless', link: 'borderless' };
const TEXTFIELD_VARIANT: Record<string, string> = { text: 'shortText', number: 'number' };

export function toA2ui(section: SurfaceSection, opts: ToA2uiOptions = {}): Converted<A2uiMessage[]> {
  const notes: InteropNote[] = [];
  const surfaceId = opts.surfaceId ?? section.id;
  const restore = new Map<string, string>();
  for (const n of opts.restoreIds ?? []) {
    if (n.code === 'id-renamed' && typeof n.detail?.['from'] === 'string' && typeof n.detail['to'] === 'string') restore.set(n.detail['to'], n.detail['from']);
  }
  const comps = section.components;
  const used = new Set<string>(Object.keys(comps).map((k) => restore.get(k) ?? k));
  const aid = (w: string): string => restore.get(w) ?? w;
  const gen = (wanted: string): string => {
    let id = wanted;
    for (let n = 2; used.has(id); n++) id = `${wanted}-${n}`;
    used.add(id);
    return id;
  };
  const dropped = new Set<string>();
  const absolute = (src: unknown): string | undefined => {
    if (typeof src !== 'string') return undefined;
    if (/^https?:\/\//.test(src)) return src;
    if (opts.baseUrl === undefined) return undefined;
    try {
      return new URL(src, opts.baseUrl).href;
    } catch {
      return undefined;
    }
  };
  const images = new Map<string, string>();
  for (const c of Object.values(comps)) {
    const p = c.props ?? {};
    const abs = c.component === 'Image' ? absolute(p['src']) : undefined;
    if (abs !== undefined) images.set(c.id, abs);
    const why =
      c.component === 'Spacer' ? 'Spacer has no A2UI equivalent'
      : c.component === 'Icon' && lookup(ICONS, String(p['name'])) === undefined ? `icon "${String(p['name'])}" is not in the A2UI icon set`
      : c.component === 'Image' && abs === undefined && !isBindingValue(p['src']) ? 'the image has no absolute URL (give baseUrl)'
      : undefined;
    if (why !== undefined) {
      dropped.add(c.id);
      notes.push(note('component-dropped', `/components/${escapeToken(c.id)}`, `${why}; left out.`, true));
    }
  }
  // A TabPanel with one child becomes its Tabs entry ({title, child}); A2UI has no panel component.
  const absorbed = new Set<string>();
  for (const c of Object.values(comps)) {
    if (c.component !== 'Tabs') continue;
    for (const k of c.children ?? []) {
      const p = comps[k];
      if (p?.component === 'TabPanel' && p.children?.length === 1 && !dropped.has(p.children[0] as string)) absorbed.add(k);
    }
  }
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string): void => {
    if (seen.has(id) || comps[id] === undefined) return;
    seen.add(id);
    order.push(id);
    for (const k of comps[id]?.children ?? []) visit(k);
  };
  visit('root');
  for (const id of Object.keys(comps)) visit(id);

  const out: A2uiComponent[] = [];
  for (const id of order) {
    const c = comps[id] as Component;
    if (dropped.has(id) || absorbed.has(id)) continue;
    const at = `/components/${escapeToken(id)}`;
    if (c.visible !== undefined) notes.push(note('visibility-dropped', `${at}/visible`, 'A2UI v0.9 has no visibility conditions; the component is always shown.', true));
    const get = (k: string): Component | undefined => comps[k];
    const exported = c.component === 'Image' && images.has(id) ? { ...c, props: { ...c.props, src: images.get(id) as string } } : c;
    out.push(...exportComponent(exported, { notes, at, aid, gen, get, absorbed, kids: (c.children ?? []).filter((k) => !dropped.has(k)).map(aid) }));
  }
  if (section.style !== undefined) notes.push(note('style-unmapped', '/style', 'Section style has no basic-catalog equivalent (theme is per client).', true));
  const messages: A2uiMessage[] = [
    { version: A2UI_VERSION, createSurface: { surfaceId, catalogId: opts.catalogId ?? A2UI_BASIC_CATALOG_ID } },
  ];
  if (out.length > 0) messages.push({ version: A2UI_VERSION, updateComponents: { surfaceId, components: out } });
  if (Object.keys(section.data).length > 0) messages.push({ version: A2UI_VERSION, updateDataModel: { surfaceId, path: '/', value: section.data as A2uiValue } });
  return { value: messages, notes };
}

function isBindingValue(v: unknown): boolean {
  return isObject(v) && (typeof v['path'] === 'string' || typeof v['call'] === 'string');
}

interface Ctx {
  notes: InteropNote[];
  at: string;
  aid(weftId: string): string;
  gen(wanted: string): string;
  /** The A2UI ids of the component's children that are exported. */
  kids: string[];
  get(weftId: string): Component | undefined;
  /** TabPanels folded into their Tabs entry. */
  absorbed: ReadonlySet<string>;
}

function exportComponent(c: Component, ctx: Ctx): A2uiComponent[] {
  const p: JsonObject = c.props ?? {};
  const id = ctx.aid(c.id);
  const usedProps = new Set<string>();
  const get = (k: string): Json | undefined => {
    usedProps.add(k);
    return p[k];
  };
  const dyn = (k: string, kind: DynKind): A2uiValue | undefined => exportDynamic(get(k), kind, { notes: ctx.notes, path: `${ctx.at}/props/${k}` });
  const str = (k: string, fallback = ''): A2uiValue => dyn(k, 'string') ?? fallback;
  const text = (tid: string, t: A2uiValue, variant?: string): A2uiComponent =>
    variant === undefined ? { id: tid, component: 'Text', text: t } : { id: tid, component: 'Text', text: t, variant };
  const column = (cid: string, children: string[], extra: JsonObject = {}): A2uiComponent => ({ id: cid, component: 'Column', children, ...(extra as Record<string, A2uiValue>) });
  const flattened = (why: string): void => {
    ctx.notes.push(note('component-mapped', ctx.at, `${c.component} ${why}`, true));
  };
  const result: A2uiComponent[] = [];
  let main: A2uiComponent;

  switch (c.component) {
    case 'Stack':
    case 'Band':
    case 'Accordion':
    case 'Form': {
      const extra: JsonObject = {};
      const align = get('align');
      if (typeof align === 'string') extra['align'] = align;
      const kids = [...ctx.kids];
      if (c.component === 'Form') {
        const bid = ctx.gen(`${id}-submit`);
        const lid = ctx.gen(`${id}-submit-label`);
        result.push({ id: bid, component: 'Button', child: lid, variant: 'primary', action: actionOf(get('onSubmit'), 'submit', ctx) }, text(lid, str('submitLabel', 'Submit')));
        kids.push(bid);
      }
      if (c.component !== 'Stack') flattened('became a Column.');
      main = column(id, kids, extra);
      break;
    }
    case 'Row':
    case 'Grid':
    case 'Columns':
    case 'Carousel': {
      const r: A2uiComponent = { id, component: 'Row', children: ctx.kids };
      const align = get('align');
      if (typeof align === 'string') r['align'] = align;
      const justify = get('justify');
      const j = typeof justify === 'string' ? lookup(JUSTIFY, justify) : undefined;
      if (j !== undefined) r['justify'] = j;
      if (c.component !== 'Row') flattened('became a Row.');
      main = r;
      break;
    }
    case 'Card': {
      const kids = [...ctx.kids];
      if (p['title'] !== undefined) {
        const tid = ctx.gen(`${id}-title`);
        result.push(text(tid, str('title'), 'h4'));
        kids.unshift(tid);
      }
      let child: string;
      if (kids.length === 1) child = kids[0] as string;
      else {
        child = ctx.gen(`${id}-body`);
        result.push(column(child, kids));
      }
      main = { id, component: 'Card', child };
      break;
    }
    case 'Divider': {
      const axis = get('axis');
      main = typeof axis === 'string' ? { id, component: 'Divider', axis } : { id, component: 'Divider' };
      break;
    }
    case 'Heading': {
      const level = typeof p['level'] === 'number' ? p['level'] : 2;
      usedProps.add('level');
      if (level > 5) ctx.notes.push(note('prop-dropped', `${ctx.at}/props/level`, 'A2UI has h1–h5; level 6 became h5.', true));
      main = text(id, str('text'), `h${Math.min(5, Math.max(1, level))}`);
      break;
    }
    case 'Text':
    case 'Markdown':
    case 'Badge': {
      const t = str(c.component === 'Markdown' ? 'source' : 'text');
      if (c.component !== 'Text') flattened('became a Text.');
      const muted = get('tone') === 'muted';
      // A caption is small muted text: size "sm" is carried by it.
      if (muted && p['size'] === 'sm') usedProps.add('size');
      main = text(id, t, muted ? 'caption' : undefined);
      break;
    }
    case 'Image': {
      const img: A2uiComponent = { id, component: 'Image', url: str('src') };
      const alt = get('alt');
      if (typeof alt === 'string') img['description'] = alt;
      const fit = get('fit');
      if (fit === 'cover' || fit === 'contain') img['fit'] = fit;
      main = img;
      break;
    }
    case 'Video':
      usedProps.add('title');
      main = { id, component: 'Video', url: str('src') };
      break;
    case 'Icon':
      usedProps.add('label');
      main = { id, component: 'Icon', name: lookup(ICONS, String(get('name'))) as string };
      break;
    case 'Button':
    case 'Link': {
      const lid = ctx.gen(`${id}-label`);
      result.push(text(lid, str(c.component === 'Link' ? 'text' : 'label', 'Button')));
      const href = get('href');
      const onClick = get('onClick');
      const action = onClick !== undefined ? actionOf(onClick, 'press', ctx) : typeof href === 'string' ? navigate(href, ctx) : { event: { name: 'press' } };
      const variant = c.component === 'Link' ? 'borderless' : lookup(BUTTON_VARIANT, String(get('variant')));
      main = variant === undefined ? { id, component: 'Button', child: lid, action } : { id, component: 'Button', child: lid, variant, action };
      break;
    }
    case 'Stat': {
      const kids: string[] = [];
      for (const [k, variant] of [['label', 'caption'], ['value', 'h3'], ['caption', 'caption']] as const) {
        if (p[k] === undefined) continue;
        const tid = ctx.gen(`${id}-${k}`);
        result.push(text(tid, str(k), variant));
        kids.push(tid);
      }
      usedProps.add('trend');
      flattened('became a Column of Text (trend dropped).');
      main = column(id, kids);
      break;
    }
    case 'Quote':
    case 'testimonial': {
      const kids: string[] = [];
      const qid = ctx.gen(`${id}-text`);
      result.push(text(qid, str(c.component === 'Quote' ? 'text' : 'quote')));
      kids.push(qid);
      for (const k of ['cite', 'author', 'role']) {
        const v = get(k);
        if (typeof v !== 'string') continue;
        const tid = ctx.gen(`${id}-${k}`);
        result.push(text(tid, k === 'role' ? v : `— ${v}`, 'caption'));
        kids.push(tid);
      }
      flattened('became a Column of Text.');
      main = column(id, kids);
      break;
    }
    case 'List': {
      const items = get('items');
      const ordered = get('ordered') === true;
      const kids: string[] = [];
      if (Array.isArray(items)) {
        items.forEach((it, i) => {
          const tid = ctx.gen(`${id}-item-${i + 1}`);
          result.push(text(tid, `${ordered ? `${i + 1}.` : '•'} ${typeof it === 'string' ? it : JSON.stringify(it)}`));
          kids.push(tid);
        });
        flattened('became a Column of Text.');
        main = column(id, kids);
      } else if (isObject(items) && typeof items['path'] === 'string') {
        const tid = ctx.gen(`${id}-item`);
        result.push(text(tid, { path: '' }));
        flattened('became a template Column of Text over its bound items.');
        main = { id, component: 'Column', children: { componentId: tid, path: items['path'] } };
      } else {
        flattened('had items that cannot be shown in A2UI; an empty Column was written.');
        main = column(id, []);
      }
      break;
    }
    case 'Table': {
      const columns = Array.isArray(p['columns']) ? p['columns'].filter((x): x is JsonObject => isObject(x)) : [];
      usedProps.add('columns');
      const head = ctx.gen(`${id}-head`);
      const headKids = columns.map((col, i) => {
        const tid = ctx.gen(`${id}-head-${i + 1}`);
        result.push(text(tid, String(col['label'] ?? col['key'] ?? ''), 'caption'));
        return tid;
      });
      result.push({ id: head, component: 'Row', children: headKids });
      const rows = get('rows');
      const kids = [head];
      if (Array.isArray(rows)) {
        rows.forEach((row, r) => {
          const rid = ctx.gen(`${id}-row-${r + 1}`);
          const cells = columns.map((col, i) => {
            const tid = ctx.gen(`${id}-r${r + 1}-c${i + 1}`);
            const cell = isObject(row) ? row[String(col['key'])] : undefined;
            result.push(text(tid, cell === undefined || cell === null ? '' : typeof cell === 'string' ? cell : JSON.stringify(cell)));
            return tid;
          });
          result.push({ id: rid, component: 'Row', children: cells });
          kids.push(rid);
        });
        main = column(id, kids);
      } else if (isObject(rows) && typeof rows['path'] === 'string') {
        const rid = ctx.gen(`${id}-row`);
        const cells = columns.map((col, i) => {
          const tid = ctx.gen(`${id}-cell-${i + 1}`);
          result.push(text(tid, { path: String(col['key']) }));
          return tid;
        });
        const body = ctx.gen(`${id}-rows`);
        result.push({ id: rid, component: 'Row', children: cells }, { id: body, component: 'Column', children: { componentId: rid, path: rows['path'] } });
        kids.push(body);
        main = column(id, kids);
      } else main = column(id, kids);
      flattened('became a Column of Rows of Text.');
      break;
    }
    case 'Disclosure':
    case 'callout': {
      const key = c.component === 'Disclosure' ? 'summary' : 'title';
      const kids = [...ctx.kids];
      if (c.component === 'callout') {
        const bid = ctx.gen(`${id}-text`);
        result.push(text(bid, str('text')));
        kids.unshift(bid);
        usedProps.add('tone');
      }
      if (p[key] !== undefined) {
        const sid = ctx.gen(`${id}-${key}`);
        result.push(text(sid, str(key), 'h4'));
        kids.unshift(sid);
      }
      usedProps.add('open');
      flattened('became a Column of Text.');
      main = column(id, kids);
      break;
    }
    case 'Tabs': {
      const tabs: A2uiValue[] = [];
      for (const [i, pid] of (c.children ?? []).entries()) {
        const panel = ctx.get(pid);
        if (panel === undefined) continue;
        const title = exportDynamic(panel.props?.['title'], 'string', { notes: ctx.notes, path: `/components/${escapeToken(pid)}/props/title` }) ?? `Tab ${i + 1}`;
        const child = ctx.absorbed.has(pid) ? ctx.aid(panel.children?.[0] as string) : ctx.aid(pid);
        tabs.push({ title, child });
      }
      usedProps.add('value');
      main = tabs.length > 0 ? { id, component: 'Tabs', tabs } : column(id, []);
      break;
    }
    case 'TabPanel':
      // Tabs names the panel as its tab's child; the panel itself becomes a Column.
      ctx.notes.push(note('component-mapped', ctx.at, 'A TabPanel with several children became a Column; its title moved to the Tabs entry.', true));
      usedProps.add('title');
      main = column(id, ctx.kids, {});
      break;
    case 'Toggle':
    case 'Select': {
      const options: A2uiValue[] = [];
      const opts = get('options');
      if (Array.isArray(opts)) {
        for (const o of opts) {
          if (isObject(o)) options.push({ label: String(o['label']), value: String(o['value']) });
          else if (o !== null) options.push({ label: String(o), value: String(o) });
        }
      }
      const v = get('value');
      const value: A2uiValue = isObject(v) && typeof v['path'] === 'string' ? { path: v['path'] } : v === undefined || v === null ? [] : [String(v)];
      const cp: A2uiComponent = { id, component: 'ChoicePicker', options, value, variant: 'mutuallyExclusive' };
      const label = get('label');
      if (typeof label === 'string') cp['label'] = label;
      main = cp;
      break;
    }
    case 'Slider':
    case 'Counter': {
      const s: A2uiComponent = { id, component: 'Slider', value: dyn('value', 'number') ?? (typeof p['min'] === 'number' ? p['min'] : 0), max: typeof p['max'] === 'number' ? p['max'] : 100 };
      usedProps.add('max');
      usedProps.add('step');
      if (typeof get('min') === 'number') s['min'] = p['min'] as number;
      const label = get('label');
      if (typeof label === 'string') s['label'] = label;
      if (c.component === 'Counter') flattened('became a Slider.');
      main = s;
      break;
    }
    case 'TextField':
    case 'TextArea': {
      const f: A2uiComponent = { id, component: 'TextField', label: str('label') };
      const value = dyn('value', 'string');
      if (value !== undefined) f['value'] = value;
      const variant = c.component === 'TextArea' ? 'longText' : lookup(TEXTFIELD_VARIANT, String(get('kind')));
      if (variant !== undefined) f['variant'] = variant;
      usedProps.add('placeholder');
      main = f;
      break;
    }
    case 'Checkbox':
      main = { id, component: 'CheckBox', label: str('label'), value: dyn('value', 'boolean') ?? false };
      break;
    case 'Chart':
      main = text(id, `[chart${typeof get('title') === 'string' ? `: ${String(p['title'])}` : ''}]`);
      usedProps.add('kind').add('series').add('unit');
      flattened('has no A2UI equivalent; a placeholder Text was written.');
      break;
    case 'faq':
    case 'pricing-table': {
      const kids: string[] = [];
      const items = get(c.component === 'faq' ? 'items' : 'plans');
      usedProps.add('period');
      if (Array.isArray(items)) {
        items.forEach((it, i) => {
          if (!isObject(it)) return;
          const head = c.component === 'faq' ? String(it['question'] ?? '') : String(it['name'] ?? '');
          const price = isObject(it['price']) ? `${String(it['price']['monthly'])} / month` : '';
          const body = c.component === 'faq' ? String(it['answer'] ?? '') : [price, ...(Array.isArray(it['features']) ? it['features'].map(String) : [])].join(' · ');
          const hid = ctx.gen(`${id}-${i + 1}-head`);
          const bid = ctx.gen(`${id}-${i + 1}-body`);
          result.push(text(hid, head, 'h4'), text(bid, body));
          kids.push(hid, bid);
        });
      }
      flattened('became a Column of Text.');
      main = column(id, kids);
      break;
    }
    default:
      ctx.notes.push(note('component-unknown', ctx.at, `"${c.component}" has no A2UI equivalent; a placeholder Text was written.`, true));
      for (const k of Object.keys(p)) usedProps.add(k);
      main = text(id, `[${c.component}]`);
  }
  for (const k of Object.keys(p)) {
    if (!usedProps.has(k)) ctx.notes.push(note('prop-dropped', `${ctx.at}/props/${k}`, `${c.component}.${k} has no A2UI equivalent; dropped.`, true));
  }
  return [main, ...result];
}

/** openUrl takes an absolute URI; an in-site path goes out as a "navigate" event for the host. */
function navigate(href: string, ctx: Ctx): A2uiValue {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return openUrl(href);
  ctx.notes.push(note('action-dropped', ctx.at, `"${href}" is not an absolute URL; it became a "navigate" event.`, true));
  return { event: { name: 'navigate', context: { href } } };
}

function openUrl(url: string): A2uiValue {
  return { functionCall: { call: 'openUrl', args: { url }, returnType: 'void' } };
}

/** A Weft action → A2UI: navigate becomes openUrl, everything else an event named after it. */
function actionOf(a: Json | undefined, fallback: string, ctx: Ctx): A2uiValue {
  if (!isObject(a) || typeof a['action'] !== 'string') return { event: { name: fallback } };
  if (a['action'] === 'navigate' && typeof a['href'] === 'string') return navigate(a['href'], ctx);
  const context: { [k: string]: A2uiValue } = {};
  for (const [k, v] of Object.entries(a)) {
    if (k === 'action') continue;
    const d = exportDynamic(v, 'any', { notes: ctx.notes, path: `${ctx.at}/action/${k}` });
    if (d !== undefined) context[k] = d;
  }
  return Object.keys(context).length > 0 ? { event: { name: a['action'], context } } : { event: { name: a['action'] } };
}
