// json-render 0.21.4 specs ⇄ Weft surfaces (PROTOCOLS.md §3, §5): elements ⇄ components,
// $state/$bindState ⇄ {path}, visible ⇄ visible, state ⇄ data, repeat expanded once (noted).
import { ACTION_NAMES, FUNCTION_NAMES } from '@weft/core';
import type { Component, Condition, Json, JsonObject, SurfaceSection } from '@weft/core';
import { splitTemplate } from './a2ui-values.ts';
import { IdMapper } from './ids.ts';
import { exportCondition, importCondition } from './json-render-conditions.ts';
import type { CondCtx } from './json-render-conditions.ts';
import type { JrElement, JrSpec } from './json-render-types.ts';
import { getAt, isObject, splitPointer, escapeToken } from './json-util.ts';
import { note } from './notes.ts';
import type { Converted, InteropNote } from './notes.ts';

export interface FromJsonRenderOptions { sectionId?: string; catalog?: string }

const FUNCTIONS: ReadonlySet<string> = new Set(FUNCTION_NAMES);
const ACTIONS: ReadonlySet<string> = new Set(ACTION_NAMES);
/** Props that write back to state: exported as $bindState. */
const TWO_WAY = new Set(['Toggle', 'Select', 'Slider', 'Counter', 'TextField', 'TextArea', 'Checkbox']);
const MAX_DEPTH = 8;
const MAX_EMITTED = 1000;

export function fromJsonRender(spec: unknown, opts: FromJsonRenderOptions = {}): Converted<SurfaceSection> {
  const notes: InteropNote[] = [];
  const section: SurfaceSection = { id: opts.sectionId ?? 'surface', kind: 'surface', catalog: opts.catalog ?? 'weft@1', components: {}, data: {} };
  if (!isObject(spec) || !isObject(spec['elements']) || typeof spec['root'] !== 'string') {
    notes.push(note('message-invalid', '', 'Not a json-render spec {root, elements, state?}.', true));
    return { value: section, notes };
  }
  if (spec['state'] !== undefined) {
    if (isObject(spec['state'])) section.data = spec['state'] as JsonObject;
    else notes.push(note('data-invalid', '/state', 'state is not an object; left out.', true));
  }
  const elements = spec['elements'] as Record<string, unknown>;
  const ids = new IdMapper();
  ids.pin(spec['root'], 'root');
  for (const k of Object.keys(elements)) ids.map(k);
  const visited = new Set<string>();
  // Nested repeats multiply; past this many emitted elements the rest is left out (noted once).
  let budget = MAX_EMITTED;
  const emit = (key: string, suffix: string, item: CondCtx['item'], depth: number): string | undefined => {
    const el = Object.hasOwn(elements, key) ? elements[key] : undefined;
    const at = `/elements/${escapeToken(key)}`;
    visited.add(key);
    if (budget-- <= 0) {
      if (budget === -1) notes.push(note('component-dropped', at, `More than ${MAX_EMITTED} elements after expanding repeats; the rest was left out.`, true));
      return undefined;
    }
    if (!isObject(el) || typeof el['type'] !== 'string' || depth > MAX_DEPTH) {
      notes.push(note('children-mismatch', at, `Element "${key}" is missing or malformed; left out.`, true));
      return undefined;
    }
    const id = suffix === '' ? ids.map(key) : ids.fresh(`${ids.map(key).slice(0, 34)}${suffix}`);
    if (Object.hasOwn(section.components, id)) return id;
    const c: Component = { id, component: el['type'] };
    section.components[id] = c;
    const props: JsonObject = {};
    if (isObject(el['props'])) {
      for (const [k, v] of Object.entries(el['props'])) {
        const x = importProp(v, { notes, path: `${at}/props/${k}`, ...(item ? { item } : {}) });
        if (x !== undefined) props[k] = x;
      }
    }
    const on = el['on'];
    if (isObject(on)) {
      for (const [ev, b] of Object.entries(on)) {
        const a = importAction(b);
        if (a !== undefined && (ev === 'press' || ev === 'click') && props['onClick'] === undefined) props['onClick'] = a;
        else notes.push(note('action-dropped', `${at}/on/${ev}`, `The "${ev}" handler has no Weft action equivalent; left out.`, true));
      }
    }
    if (Object.keys(props).length > 0) c.props = props;
    if (el['visible'] !== undefined) {
      const v = importCondition(el['visible'], { notes, path: `${at}/visible`, ...(item ? { item } : {}) });
      if (v !== undefined) c.visible = v;
    }
    if (el['watch'] !== undefined) notes.push(note('prop-dropped', `${at}/watch`, 'State watchers have no Weft equivalent; left out.', true));
    const childKeys = Array.isArray(el['children']) ? el['children'].filter((x): x is string => typeof x === 'string') : [];
    if (isObject(el['slots'])) {
      for (const [slot, list] of Object.entries(el['slots'])) {
        if (!Array.isArray(list)) continue;
        childKeys.push(...list.filter((x): x is string => typeof x === 'string'));
        notes.push(note('children-mismatch', `${at}/slots/${slot}`, `Slot "${slot}" was merged into children.`, true));
      }
    }
    const kids: string[] = [];
    const repeat = el['repeat'];
    if (isObject(repeat) && typeof repeat['statePath'] === 'string') {
      const base = repeat['statePath'];
      const parts = splitPointer(base);
      const arr = parts === undefined ? undefined : getAt(section.data, parts);
      const n = Array.isArray(arr) ? arr.length : 0;
      for (let i = 0; i < n; i++) {
        for (const ck of childKeys) {
          const cid = emit(ck, `${suffix}-${i}`, { path: `${base}/${i}`, index: i }, depth + 1);
          if (cid !== undefined) kids.push(cid);
        }
      }
      notes.push(note('template-expanded', `${at}/repeat`, `repeat over ${base} was expanded once from state (${n} item(s)).`, true));
    } else {
      for (const ck of childKeys) {
        const cid = emit(ck, suffix, item, depth + 1);
        if (cid !== undefined && !kids.includes(cid)) kids.push(cid);
      }
    }
    if (kids.length > 0 || Array.isArray(el['children'])) c.children = kids;
    return id;
  };
  emit(spec['root'], '', undefined, 0);
  for (const [from, to] of ids.renamed()) {
    if (section.components[to] !== undefined) notes.push(note('id-renamed', `/elements/${escapeToken(from)}`, `Key "${from}" became "${to}".`, false, { from, to }));
  }
  for (const k of Object.keys(elements)) {
    if (!visited.has(k)) notes.push(note('unreachable-dropped', `/elements/${escapeToken(k)}`, `Element "${k}" is not reachable from root; left out.`, true));
  }
  return { value: section, notes };
}

interface PropCtx { notes: InteropNote[]; path: string; item?: { path: string; index: number } }

function importProp(v: unknown, ctx: PropCtx): Json | undefined {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) {
    const out: Json[] = [];
    v.forEach((x, i) => {
      const c = importProp(x, { ...ctx, path: `${ctx.path}/${i}` });
      if (c !== undefined) out.push(c);
    });
    return out;
  }
  if (!isObject(v)) return undefined;
  if (typeof v['$state'] === 'string') return { path: v['$state'] };
  if (typeof v['$bindState'] === 'string') return { path: v['$bindState'] };
  const itemField = typeof v['$item'] === 'string' ? v['$item'] : typeof v['$bindItem'] === 'string' ? v['$bindItem'] : undefined;
  if (itemField !== undefined) {
    if (ctx.item) return { path: itemField === '' ? ctx.item.path : `${ctx.item.path}/${itemField}` };
    ctx.notes.push(note('value-invalid', ctx.path, '$item outside a repeat; left out.', true));
    return undefined;
  }
  if (v['$index'] === true) {
    if (ctx.item) return ctx.item.index;
    ctx.notes.push(note('value-invalid', ctx.path, '$index outside a repeat; left out.', true));
    return undefined;
  }
  if (typeof v['$template'] === 'string') {
    const parts = splitTemplate(v['$template']);
    if (parts === undefined) {
      ctx.notes.push(note('function-unknown', ctx.path, 'The $template interpolates something other than state paths; left out.', true));
      return undefined;
    }
    return parts.length === 1 && typeof parts[0] === 'string' ? parts[0] : { call: 'concat', args: { parts } };
  }
  if (typeof v['$computed'] === 'string') {
    if (!FUNCTIONS.has(v['$computed'])) {
      ctx.notes.push(note('function-unknown', ctx.path, `$computed "${v['$computed']}" is not a Weft function; left out.`, true));
      return undefined;
    }
    const args: JsonObject = {};
    if (isObject(v['args'])) {
      for (const [k, x] of Object.entries(v['args'])) {
        const c = importProp(x, { ...ctx, path: `${ctx.path}/args/${k}` });
        if (c !== undefined) args[k] = c;
      }
    }
    return { call: v['$computed'], args };
  }
  if ('$cond' in v) {
    ctx.notes.push(note('value-invalid', ctx.path, '$cond values have no Weft equivalent; left out.', true));
    return undefined;
  }
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    const c = importProp(x, { ...ctx, path: `${ctx.path}/${k}` });
    if (c !== undefined) out[k] = c;
  }
  return out;
}

/** json-render action binding → Weft action (setState → set; Weft-named actions pass through). */
function importAction(b: unknown): Json | undefined {
  const one = Array.isArray(b) ? (b.length === 1 ? b[0] : undefined) : b;
  if (!isObject(one) || typeof one['action'] !== 'string') return undefined;
  const params = isObject(one['params']) ? one['params'] : {};
  if (one['action'] === 'setState' && typeof params['statePath'] === 'string') {
    const value = isObject(params['value']) && typeof params['value']['$state'] === 'string' ? { path: params['value']['$state'] } : (params['value'] as Json);
    return { action: 'set', path: params['statePath'], value: value ?? null };
  }
  if (!ACTIONS.has(one['action'])) return undefined;
  const out: JsonObject = { action: one['action'] };
  for (const [k, x] of Object.entries(params)) out[k] = isObject(x) && typeof x['$state'] === 'string' ? { path: x['$state'] } : (x as Json);
  return out;
}

export function toJsonRender(section: SurfaceSection): Converted<JrSpec> {
  const notes: InteropNote[] = [];
  const elements: { [key: string]: JrElement } = {};
  for (const c of Object.values(section.components)) {
    const at = `/components/${escapeToken(c.id)}`;
    const props: { [k: string]: Json } = {};
    const on: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(c.props ?? {})) {
      if (k === 'onClick' || k === 'onSubmit') {
        on[k === 'onClick' ? 'press' : 'submit'] = exportAction(v);
        continue;
      }
      props[k] = exportProp(v, TWO_WAY.has(c.component) && k === 'value', notes, `${at}/props/${k}`);
    }
    const el: JrElement = { type: c.component, props };
    if (c.children !== undefined) el.children = [...c.children];
    if (Object.keys(on).length > 0) el.on = on;
    if (c.visible !== undefined) {
      const v = exportCondition(c.visible as Condition, { notes, path: `${at}/visible` });
      if (v !== undefined) el.visible = v;
    }
    elements[c.id] = el;
  }
  if (section.style !== undefined) notes.push(note('style-unmapped', '/style', 'json-render specs carry no section style.', true));
  return { value: { root: 'root', elements, state: section.data }, notes };
}

function exportProp(v: Json, twoWay: boolean, notes: InteropNote[], path: string): Json {
  if (isObject(v) && typeof v['path'] === 'string' && Object.keys(v).length === 1) return twoWay ? { $bindState: v['path'] } : { $state: v['path'] };
  if (isObject(v) && typeof v['call'] === 'string') {
    const args = isObject(v['args']) ? v['args'] : {};
    if (v['call'] === 'concat' && Array.isArray(args['parts'])) {
      let tpl = '';
      let ok = true;
      for (const p of args['parts']) {
        if (isObject(p) && typeof p['path'] === 'string') tpl += `\${${p['path']}}`;
        else if (typeof p === 'string' || typeof p === 'number' || typeof p === 'boolean') tpl += String(p);
        else ok = false;
      }
      if (ok) return { $template: tpl };
    }
    const out: { [k: string]: Json } = {};
    for (const [k, x] of Object.entries(args)) out[k] = exportProp(x, false, notes, `${path}/args/${k}`);
    return { $computed: v['call'], args: out };
  }
  if (Array.isArray(v)) return v.map((x, i) => exportProp(x, false, notes, `${path}/${i}`));
  if (isObject(v)) {
    const out: { [k: string]: Json } = {};
    for (const [k, x] of Object.entries(v)) out[k] = exportProp(x, false, notes, `${path}/${k}`);
    return out;
  }
  return v;
}

function exportAction(a: Json): Json {
  if (!isObject(a) || typeof a['action'] !== 'string') return { action: 'noop' };
  if (a['action'] === 'set' && typeof a['path'] === 'string') {
    const value = isObject(a['value']) && typeof a['value']['path'] === 'string' ? { $state: a['value']['path'] } : (a['value'] ?? null);
    return { action: 'setState', params: { statePath: a['path'], value } };
  }
  const params: { [k: string]: Json } = {};
  for (const [k, x] of Object.entries(a)) {
    if (k !== 'action') params[k] = isObject(x) && typeof x['path'] === 'string' ? { $state: x['path'] } : x;
  }
  return Object.keys(params).length > 0 ? { action: a['action'], params } : { action: a['action'] };
}
