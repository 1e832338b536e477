// The interaction runtime (RFC §4, issue 16): the one first-party script of a live page. It reads
// each live surface's inert JSON (data model + logic, written by the server render) and, with no
// round trip, writes controls into the data model, re-evaluates bound text, visibility and checks
// with core's own evaluators (bundled from @weft/core/evaluate: one implementation), and runs the
// named actions. Nothing from the draft is evaluated as code; paths go through core's pointer
// parser (no __proto__/prototype/constructor), navigation only to in-site paths or http(s).
// Until a reader touches a surface it changes nothing in the DOM (the server render is the page).
import { evalCondition, getAt, parsePointer, resolveValue } from '@weft/core/evaluate';
import type { Condition, Json } from '@weft/core';

type Obj = { [k: string]: Json };
interface Logic { t: Obj; v: Obj; k: { [id: string]: Json[] } }
interface Surface { root: Element; data: Json; initial: string; logic: Logic; touched: Set<string> }

const doc = document;
const own = (o: object, k: string): boolean => Object.hasOwn(o, k);
const reduced = (): boolean => matchMedia('(prefers-reduced-motion: reduce)').matches;
const surfaces = new Map<Element, Surface>();

/** Elements of `s` matching `sel`, not those of a surface nested inside it (a fence in prose). */
function els(s: Surface, sel: string): HTMLElement[] {
  return [...s.root.querySelectorAll<HTMLElement>(sel)].filter((e) => e.closest('[data-weft-surface]') === s.root);
}

function readJson(root: Element, sel: string): Json | undefined {
  const el = [...root.querySelectorAll(sel)].find((e) => e.closest('[data-weft-surface]') === root);
  try { return el ? (JSON.parse(el.textContent ?? '') as Json) : undefined; } catch { return undefined; }
}

function surfaceOf(el: Element | null): Surface | undefined {
  const root = el?.closest('[data-weft-surface]');
  if (!root) return undefined;
  let s = surfaces.get(root);
  if (!s) {
    const logic = readJson(root, 'script[data-weft-logic]') as unknown as Logic | undefined;
    if (!logic) return undefined;
    const data = readJson(root, 'script[data-weft-state]') ?? {};
    s = { root, data, initial: JSON.stringify(data), logic, touched: new Set() };
    surfaces.set(root, s);
  }
  return s;
}

function get(s: Surface, path: string): Json | undefined {
  const p = parsePointer(path);
  return p.ok ? (getAt(s.data, p.value).value as Json | undefined) : undefined;
}

/** Writes a value at a pointer, creating objects on the way; refused pointers change nothing. */
function set(s: Surface, path: string, value: Json | undefined): void {
  const p = parsePointer(path);
  if (!p.ok) return;
  if (p.value.length === 0) { s.data = value ?? {}; return; }
  let cur = s.data as Obj;
  for (const k of p.value.slice(0, -1)) {
    const next = own(cur, k) ? cur[k] : undefined;
    if (next === null || typeof next !== 'object') cur[k] = {};
    cur = cur[k] as Obj;
  }
  const last = p.value[p.value.length - 1] as string;
  if (Array.isArray(cur)) { const i = Number(last); if (Number.isInteger(i) && i >= 0 && i <= cur.length) (cur as Json[])[i] = value ?? null; }
  else if (value === undefined) delete cur[last];
  else cur[last] = value;
}

const text = (v: Json | undefined): string => v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
const num = (v: Json | undefined): number => { const n = Number(v); return Number.isFinite(n) ? n : 0; };
const holds = (c: Json, d: Json): boolean => c === true || evalCondition(c as unknown as Condition, d);

/** Shows the data model: bound text, controls, visibility, checks (and gates on buttons). */
function paint(s: Surface): void {
  const { t, v, k } = s.logic;
  for (const el of els(s, '[data-weft-bind]')) {
    const key = el.getAttribute('data-weft-bind') ?? '';
    if (!own(t, key)) continue;
    const next = text(resolveValue(t[key] as Json, s.data));
    if (el.textContent !== next) el.textContent = next;
  }
  for (const el of els(s, '[data-weft-model]') as HTMLInputElement[]) {
    if (el === doc.activeElement && el.type !== 'radio' && el.type !== 'range') continue;
    const cur = get(s, el.getAttribute('data-weft-model') ?? '');
    if (el.type === 'checkbox') el.checked = cur === true;
    else if (el.type === 'radio') el.checked = el.value === text(cur);
    else if (cur !== undefined && el.value !== text(cur)) el.value = text(cur);
  }
  for (const el of els(s, '[data-weft-cond]')) {
    const id = el.getAttribute('data-weft-cond') ?? '';
    if (!own(v, id)) continue;
    const shown = holds(v[id] as Json, s.data);
    el.hidden = !shown;
    el.setAttribute('data-weft-visible', String(shown));
  }
  // A field's failing check shows once the reader touched it; a gated button's always shows.
  const gates = els(s, '[data-weft-gate]');
  const gated = new Set(gates.map((e) => e.getAttribute('data-component-id')));
  const failing = new Set<string>();
  for (const el of els(s, '[data-weft-check]')) {
    const [id = '', i = ''] = (el.getAttribute('data-weft-check') ?? '').split(':');
    const conds = own(k, id) ? k[id] : undefined;
    const ok = !conds || holds(conds[Number(i)] ?? true, s.data);
    if (!ok) failing.add(id);
    el.hidden = ok || !(gated.has(id) || s.touched.has(id));
  }
  for (const el of gates) {
    const off = failing.has(el.getAttribute('data-component-id') ?? '');
    // As the server renders it: a disabled <button>, an aria-disabled link.
    if (el instanceof HTMLButtonElement) el.disabled = off;
    else if (off) el.setAttribute('aria-disabled', 'true');
    else el.removeAttribute('aria-disabled');
  }
}

function comp(s: Surface, id: string): HTMLElement | undefined {
  return els(s, '[data-component-id]').find((e) => e.getAttribute('data-component-id') === id);
}

/** The one place a control's value becomes data: typed like what the path holds now. */
function write(el: HTMLInputElement, s: Surface, done: boolean): void {
  const path = el.getAttribute('data-weft-model') ?? '';
  const cur = get(s, path);
  const raw = el.value;
  const value: Json = el.type === 'checkbox' ? el.checked : el.type === 'range' || el.type === 'number' || typeof cur === 'number' ? num(raw) : typeof cur === 'boolean' ? raw === 'true' : raw;
  set(s, path, value);
  const id = el.closest('[data-component-id]')?.getAttribute('data-component-id');
  if (id) s.touched.add(id);
  paint(s);
  const c = el.closest('[data-component-id]');
  if (c && done) emit(s, c, { [path]: value });
}

/** A reader event for agents (A2UI v0.9 `action`): only for controls that declare a name. */
function emit(s: Surface, el: Element, context: Obj): void {
  const name = el.getAttribute('data-weft-event');
  const url = doc.querySelector('main[data-weft-actions]')?.getAttribute('data-weft-actions');
  // The page's own API, or the session's on another origin (WEFT_SESSION_URL): the page's CSP
  // connect-src names the only origins a fetch can reach.
  if (!name || !url || !/^(?:\/(?!\/)|https?:\/\/)/.test(url)) return;
  const body = { action: { name, surfaceId: s.root.getAttribute('data-section-id'), sourceComponentId: el.getAttribute('data-component-id'), timestamp: new Date().toISOString(), context } };
  void fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' }).catch(() => undefined);
}

/** In-site paths, fragments and http(s) only (the server checked already; this is the second lock). */
function safeHref(h: Json | undefined): string | undefined {
  if (typeof h !== 'string') return undefined;
  if (/^\/(?![/\\])|^#/.test(h)) return h;
  try { const u = new URL(h); return /^https?:$/.test(u.protocol) && !u.username && !u.password ? u.href : undefined; } catch { return undefined; }
}

async function copy(t: string): Promise<void> {
  try { await navigator.clipboard.writeText(t); } catch {
    const a = doc.createElement('textarea');
    a.value = t;
    doc.body.append(a);
    a.select();
    doc.execCommand('copy');
    a.remove();
  }
}

function run(s: Surface, el: HTMLElement, a: Obj): void {
  const path = typeof a['path'] === 'string' ? a['path'] : '';
  switch (a['action']) {
    case 'set': set(s, path, resolveValue(a['value'] ?? null, s.data)); break;
    case 'toggle': set(s, path, get(s, path) !== true); break;
    case 'increment': set(s, path, num(get(s, path)) + num(a['by'] ?? 1)); break;
    case 'reset': {
      const init = JSON.parse(s.initial) as Json;
      if (path === '') s.data = init;
      else { const p = parsePointer(path); set(s, path, p.ok ? getAt(init, p.value).value as Json : undefined); }
      break;
    }
    case 'navigate': { const h = safeHref(a['href']); if (h) location.assign(h); return; }
    case 'copy': void copy(text(resolveValue(a['text'] ?? '', s.data))); return;
    case 'share': {
      const t = text(a['text'] ?? ''); const url = safeHref(a['href']);
      const share = { text: t, ...(url ? { url } : {}) };
      if (navigator.share) navigator.share(share).catch(() => undefined); else void copy(url ? `${t} ${url}`.trim() : t);
      return;
    }
    case 'scrollTo': comp(s, text(a['target']))?.scrollIntoView({ behavior: reduced() ? 'auto' : 'smooth', block: 'start' }); return;
    default: emit(s, el, {}); return;
  }
  paint(s);
  emit(s, el, path ? { [path]: get(s, path) ?? null } : {});
}

function action(el: HTMLElement, s: Surface): void {
  try { run(s, el, JSON.parse(el.getAttribute('data-weft-action-json') ?? '{}') as Obj); } catch { /* a malformed action does nothing */ }
}

/** One slide on (wrapping round); the carousel element is the scroller. */
function slide(car: Element, by: number): void {
  const w = car.querySelector<HTMLElement>('.weft-slide')?.offsetWidth ?? car.clientWidth;
  const max = car.scrollWidth - car.clientWidth;
  const at = car.scrollLeft;
  // Past either end it wraps round; short of it, it stops at the end.
  const left = by > 0 && at >= max - 2 ? 0 : by < 0 && at <= 2 ? max : Math.min(max, Math.max(0, at + by * w));
  car.scrollTo({ left, behavior: reduced() ? 'auto' : 'smooth' });
}

// `input` repaints while the reader types or drags; `change` (a choice made, a drag released)
// also tells agents.
for (const type of ['input', 'change']) {
  doc.addEventListener(type, (e) => {
    const el = e.target as HTMLInputElement;
    const s = el.hasAttribute?.('data-weft-model') ? surfaceOf(el) : undefined;
    if (s) write(el, s, type === 'change');
  });
}
doc.addEventListener('click', (e) => {
  const t = e.target as Element;
  const step = t.closest?.('[data-weft-step]');
  if (step) {
    const input = step.parentElement?.querySelector<HTMLInputElement>('input[data-weft-model]');
    if (input) { input.value = String(num(input.value) + num(step.getAttribute('data-weft-step'))); clamp(input); input.dispatchEvent(new Event('change', { bubbles: true })); }
    return;
  }
  const sl = t.closest?.('[data-weft-slide]');
  if (sl) { const car = sl.closest('.weft-carousel'); if (car) slide(car, num(sl.getAttribute('data-weft-slide'))); return; }
  const el = t.closest?.<HTMLElement>('[data-weft-action], button[data-weft-event]');
  if (!el || el.tagName === 'FORM') return;
  const s = surfaceOf(el);
  if (!s) return;
  e.preventDefault();
  if (el.hasAttribute('data-weft-gate') && (el.getAttribute('aria-disabled') !== null || (el as HTMLButtonElement).disabled)) return;
  action(el, s);
});
doc.addEventListener('submit', (e) => {
  const form = e.target as HTMLFormElement;
  const s = surfaceOf(form);
  if (!s) return;
  e.preventDefault();
  // Client validation: every field's checks; failing ones show their message and stop the action.
  for (const c of [...form.querySelectorAll('[data-weft-check]')]) s.touched.add((c.getAttribute('data-weft-check') ?? '').split(':')[0] ?? '');
  paint(s);
  const bad = [...form.querySelectorAll<HTMLElement>('[data-weft-check]')].find((c) => !c.hidden);
  if (bad) { bad.parentElement?.querySelector<HTMLElement>('input, textarea, select')?.focus(); return; }
  if (form.hasAttribute('data-weft-action')) action(form, s);
});

function clamp(input: HTMLInputElement): void {
  const v = num(input.value);
  const lo = input.min === '' ? -Infinity : num(input.min);
  const hi = input.max === '' ? Infinity : num(input.max);
  input.value = String(Math.min(hi, Math.max(lo, v)));
}

function boot(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-weft-js]')) el.hidden = false;
}

// The live preview morphs sections in place (keeping input values): the server's data wins where
// it changed (controls follow it too), otherwise what the reader set is kept and shown again.
addEventListener('weft:updated', () => {
  const old = new Map(surfaces);
  surfaces.clear();
  for (const root of doc.querySelectorAll('[data-weft-surface]')) {
    const fresh = surfaceOf(root);
    const s = old.get(root);
    if (!fresh) continue;
    if (s && fresh.initial === s.initial) { fresh.data = s.data; fresh.touched = s.touched; }
    paint(fresh);
  }
  boot(doc);
});

boot(doc);
setInterval(() => {
  if (reduced() || doc.hidden) return;
  for (const car of doc.querySelectorAll('.weft-carousel[data-weft-autoplay]')) if (!car.matches(':hover, :focus-within')) slide(car, 1);
}, 5000);
