// The MCP Apps View (RFC §6 "MCP Apps", 20f; ext-apps spec 2026-01-26): one constant HTML
// document served as `ui://weft/preview` (text/html;profile=mcp-app). A host renders it in a
// sandboxed iframe; it speaks JSON-RPC with the host over postMessage:
//   View → host  ui/initialize, then ui/notifications/initialized; tools/call get_preview;
//                ui/notifications/size-changed.
//   host → View  ui/notifications/tool-input / tool-result / tool-cancelled, ui/resource-teardown,
//                ping, ui/notifications/host-context-changed.
// A tool result that holds the page's HTML (get_preview) is shown; any other result of a draft
// tool (patch_draft, get_draft, import_surface, undo_turn) makes the View ask the host for
// get_preview at that result's version. Refusals and errors are shown as text.
// Safety: the HTML is our renderer's (already escaped), parsed inert with DOMParser and shown in
// a shadow root with scripts, styles, frames, forms, links and event attributes removed; the
// page CSS is the View's own constant copy. Everything else reaches the DOM as textContent. The
// View's CSP allows only its own script and styles (by hash) and no network at all.
import { baseStyles, cspHash } from '@weft/render';

export const VIEW_PROTOCOL_VERSION = '2026-01-26';

/** The renderer's stylesheet, scoped to the shadow root (:root → :host, body → the wrapper). */
function shadowStyles(css: string): string {
  const out = css.replace(':root{', ':host{').replace(/(^|\n)body\{/, '$1.weft-body{');
  if (!out.includes(':host{') || !out.includes('.weft-body{')) throw new Error('view: the base styles no longer start with :root{ and body{ (update shadowStyles)');
  return out;
}

const CHROME_CSS = `
:root{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c2024;background:transparent}
body{margin:0}
.bar{display:flex;gap:8px;align-items:baseline;padding:6px 10px;border-bottom:1px solid #e2e4e8;background:#f7f8f9;font-size:12px;color:#60646c}
.bar b{color:#1c2024;font-weight:600}
.bar button{margin-left:auto;font:inherit;padding:2px 8px;border:1px solid #e2e4e8;border-radius:6px;background:#fff;color:#1c2024;cursor:pointer}
.refusals{margin:0;padding:8px 10px 8px 28px;background:#fff5f5;color:#c92a2a;font-size:12px;border-bottom:1px solid #ffe3e3}
.refusals:empty,.error:empty{display:none}
.error{padding:10px;background:#fff5f5;color:#c92a2a;font-size:13px}
.wait{padding:16px 10px;color:#60646c}
`;

// Plain ES2020 in a string: the View must be one self-contained document (no bundler at run time,
// nothing fetched). Kept small; exercised end to end by the browser test (view.e2e.test.ts).
const VIEW_SCRIPT = `(() => {
'use strict';
const host = window.parent;
const $ = (id) => document.getElementById(id);
const own = (o, k) => o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, k);
const str = (v) => (typeof v === 'string' ? v : undefined);
const num = (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
let nextId = 1;
const pending = new Map();
let input = {};
let latest = 0; // the newest result's number: an older page answering late is not shown
let shadow = null;

function post(msg) { host.postMessage(msg, '*'); }
function request(method, params) {
  const id = nextId++;
  post({ jsonrpc: '2.0', id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
function notify(method, params) { post({ jsonrpc: '2.0', method, params }); }
function answer(id, result) { post({ jsonrpc: '2.0', id, result }); }

let current; // the draft shown, for Refresh
function status(draft, version, note) {
  current = draft || current;
  $('refresh').hidden = !current;
  $('draft').textContent = draft || '';
  $('version').textContent = version === undefined ? '' : 'version ' + version;
  $('note').textContent = note || '';
}
function showError(text) { $('error').textContent = text; }
function showRefusals(list) {
  const ul = $('refusals');
  ul.replaceChildren();
  for (const r of Array.isArray(list) ? list.slice(0, 20) : []) {
    const li = document.createElement('li');
    li.textContent = (str(own(r, 'path') && r.path) || '') + ': ' + (str(own(r, 'message') && r.message) || 'refused');
    ul.append(li);
  }
}

// SVG animation elements can rewrite an href (the classic <animate attributeName=href> trick).
const DROP = 'script,style,link,meta,base,title,iframe,frame,frameset,object,embed,portal,noscript,template,svg use,animate,set,animateMotion,animateTransform,foreignObject';
const URL_ATTRS = ['href', 'src', 'srcset', 'action', 'formaction', 'poster', 'xlink:href', 'ping', 'background'];
function unwrap(el, tag) {
  const r = document.createElement(tag);
  for (const a of [...el.attributes]) if (a.name === 'class' || a.name.startsWith('data-') || a.name.startsWith('aria-')) r.setAttribute(a.name, a.value);
  r.append(...el.childNodes);
  el.replaceWith(r);
}
/** The page's HTML, inert: parsed without running anything, then stripped of all that acts. */
function clean(html) {
  // Parsed into a <template>'s inert content: nothing loads or runs there (a DOMParser document
  // would also take this View's CSP and log each <style> and <base> it refuses). An on* attribute
  // is still refused by the CSP as it is parsed (logged) before it is stripped here.
  const t = document.createElement('template');
  t.innerHTML = html;
  let main = t.content.querySelector('main');
  if (!main) { main = document.createElement('main'); main.append(...t.content.childNodes); }
  for (const el of [...main.querySelectorAll(DROP)]) el.remove();
  for (const el of [...main.querySelectorAll('*')]) {
    for (const a of [...el.attributes]) {
      const n = a.name.toLowerCase();
      if (n.startsWith('on') || n === 'style' || n === 'srcdoc' || n === 'formtarget' || n === 'target') el.removeAttribute(a.name);
      else if (URL_ATTRS.includes(n) && !(el.tagName === 'IMG' && n === 'src' && /^(https:|data:image\\/)/i.test(a.value))) el.removeAttribute(a.name);
    }
  }
  for (const el of [...main.querySelectorAll('form')]) unwrap(el, 'div');
  for (const el of [...main.querySelectorAll('a')]) unwrap(el, 'span');
  return main;
}
function render(html) {
  if (!shadow) {
    shadow = $('page').attachShadow({ mode: 'open' });
  }
  const body = document.createElement('div');
  body.className = 'weft-body';
  body.append(clean(html));
  shadow.replaceChildren($('page-css').content.cloneNode(true), body);
  $('wait').hidden = true;
}

function draftOf(sc) {
  return str(own(sc, 'draftId') && sc.draftId) || str(own(sc, 'id') && sc.id) || str(input.draftId)
    || (str(input.session) || '').split(':')[0] || undefined;
}
/** A draft tool's result: show its page, or ask the host for the page at its version. */
async function onResult(result, seq = ++latest) {
  if (!result || typeof result !== 'object') return;
  const sc = own(result, 'structuredContent') && result.structuredContent && typeof result.structuredContent === 'object' ? result.structuredContent : {};
  if (seq !== latest) return;
  if (result.isError === true) {
    const e = own(sc, 'error') ? sc.error : {};
    showError((str(own(e, 'code') && e.code) || 'ERROR') + ': ' + (str(own(e, 'message') && e.message) || 'the tool failed'));
    return;
  }
  showError('');
  const draft = draftOf(sc);
  const version = num(own(sc, 'version') ? sc.version : undefined);
  if (own(sc, 'refused')) showRefusals(sc.refused);
  const html = str(own(sc, 'html') && sc.html);
  if (html !== undefined) {
    status(draft, version, '');
    render(html);
    return;
  }
  if (!draft) return;
  status(draft, version, 'loading the page…');
  try {
    const args = version === undefined ? { draftId: draft } : { draftId: draft, version };
    await onResult(await request('tools/call', { name: 'get_preview', arguments: args }), seq);
  } catch (e) {
    showError('The host could not call get_preview: ' + (e && e.message ? e.message : String(e)));
  }
}

// Refresh: the draft's head as it is now (people and agents may have changed it since).
$('refresh').addEventListener('click', () => {
  if (!current) return;
  showRefusals([]); // they were the last step's; the head is shown as it is
  void onResult({ content: [], structuredContent: { draftId: current } });
});

window.addEventListener('message', (event) => {
  if (event.source !== host) return; // only our host speaks to us
  const m = event.data;
  if (!m || typeof m !== 'object' || m.jsonrpc !== '2.0') return;
  if (!own(m, 'method')) {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (own(m, 'error')) p.reject(new Error(str(m.error && m.error.message) || 'error'));
    else p.resolve(m.result);
    return;
  }
  const params = own(m, 'params') && m.params && typeof m.params === 'object' ? m.params : {};
  switch (m.method) {
    case 'ui/notifications/tool-input':
    case 'ui/notifications/tool-input-partial':
      if (own(params, 'arguments') && params.arguments && typeof params.arguments === 'object') input = params.arguments;
      return;
    case 'ui/notifications/tool-result': void onResult(params); return;
    case 'ui/notifications/tool-cancelled': $('note').textContent = 'cancelled: ' + (str(params.reason) || ''); return;
    case 'ui/notifications/host-context-changed': theme(params); return;
    case 'ui/resource-teardown': answer(m.id, {}); return;
    case 'ping': answer(m.id, {}); return;
    default:
      if (own(m, 'id')) post({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
  }
});

function theme(ctx) {
  if (own(ctx, 'theme') && (ctx.theme === 'dark' || ctx.theme === 'light')) document.documentElement.dataset.theme = ctx.theme;
}

let size = '';
const sizes = new ResizeObserver(() => {
  const r = document.documentElement.getBoundingClientRect();
  const next = Math.ceil(r.width) + 'x' + Math.ceil(r.height);
  if (next === size) return;
  size = next;
  notify('ui/notifications/size-changed', { width: Math.ceil(r.width), height: Math.ceil(r.height) });
});

if (host === window) { $('wait').textContent = 'This is an MCP Apps view: open it from an MCP Apps host.'; return; }
request('ui/initialize', {
  appCapabilities: { availableDisplayModes: ['inline'] },
  appInfo: { name: 'weft-preview', version: '0.1.0' },
  protocolVersion: '${VIEW_PROTOCOL_VERSION}',
}).then((r) => {
  if (r && own(r, 'hostContext')) theme(r.hostContext);
  notify('ui/notifications/initialized', {});
  sizes.observe(document.documentElement); // sizes only once initialized: nothing goes before it
}, (e) => showError('The host refused ui/initialize: ' + (e && e.message ? e.message : String(e))));
})();`;

function buildView(): string {
  const pageCss = shadowStyles(baseStyles);
  const csp = [
    "default-src 'none'",
    `script-src ${cspHash(VIEW_SCRIPT)}`,
    `style-src ${cspHash(CHROME_CSS)} ${cspHash(pageCss)}`,
    'img-src https: data:', "media-src 'none'", "font-src 'none'", "connect-src 'none'",
    "frame-src 'none'", "object-src 'none'", "base-uri 'none'", "form-action 'none'",
  ].join('; ');
  if (pageCss.includes('</')) throw new Error('view: the page CSS holds "</"');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Weft preview</title>
<style>${CHROME_CSS}</style>
</head>
<body>
<div class="bar"><b id="draft"></b><span id="version"></span><span id="note"></span><button id="refresh" type="button" hidden>Refresh</button></div>
<ul class="refusals" id="refusals"></ul>
<div class="error" id="error" role="alert"></div>
<div class="wait" id="wait">Waiting for a draft…</div>
<div id="page"></div>
<template id="page-css"><style>${pageCss}</style></template>
<script>${VIEW_SCRIPT}</script>
</body>
</html>
`;
}

/** The View document: constant per release (built once). */
export const VIEW_HTML: string = buildView();
