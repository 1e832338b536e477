// The renderer's markup in JSX notation. Every text and attribute value becomes a JS string
// literal (JSON.stringify), never JSX text or an identifier, so no draft text can close a tag,
// open an expression or name code; tag and attribute names are the renderer's own, checked
// against a strict pattern anyway, and event attributes are dropped.
import type { El, Node } from './markup.ts';

const NAME = /^[a-zA-Z][a-zA-Z0-9-]*$/;
// JSX's own grammar: an identifier with dashes, or one namespaced pair (`xml:lang`); no dots, no
// empty side of a colon (`A:` parsed as markup once failed to compile).
const ATTR_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]*(?::[a-zA-Z_][a-zA-Z0-9_-]*)?$/;
/** HTML attribute → React prop, where React spells it differently. */
const RENAME: Record<string, string> = {
  class: 'className', for: 'htmlFor', tabindex: 'tabIndex', readonly: 'readOnly', maxlength: 'maxLength', minlength: 'minLength',
  autocomplete: 'autoComplete', colspan: 'colSpan', rowspan: 'rowSpan', referrerpolicy: 'referrerPolicy', crossorigin: 'crossOrigin',
  srcset: 'srcSet', 'http-equiv': 'httpEquiv', charset: 'charSet', 'xlink:href': 'xlinkHref', inputmode: 'inputMode',
  enterkeyhint: 'enterKeyHint', novalidate: 'noValidate', allowfullscreen: 'allowFullScreen', playsinline: 'playsInline',
  autoplay: 'autoPlay', formnovalidate: 'formNoValidate', datetime: 'dateTime', accesskey: 'accessKey', contenteditable: 'contentEditable',
  spellcheck: 'spellCheck', viewbox: 'viewBox',
};
const BOOLEAN = new Set(['allowfullscreen', 'async', 'autofocus', 'autoplay', 'checked', 'controls', 'default', 'defer', 'disabled', 'formnovalidate', 'hidden', 'inert', 'loop', 'multiple', 'muted', 'novalidate', 'open', 'playsinline', 'readonly', 'required', 'reversed', 'selected']);
/** Props React types as numbers (the HTML attribute is their decimal text). */
const NUMERIC = new Set(['tabIndex', 'rows', 'cols', 'colSpan', 'rowSpan', 'maxLength', 'minLength', 'size', 'span', 'start']);
/** Whitespace text is not allowed as a child of these in the DOM React builds. */
const NO_TEXT = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'colgroup', 'select']);

export const lit = (s: string): string => JSON.stringify(s);

// Plain JSX notation where it reads the same as the literal: JSX attribute strings decode HTML
// entities and JSX text trims lines and reads { } < >, so anything else stays a JS literal.
const PLAIN_ATTR = /^[\w .,:;/#%@+=()[\]-]*$/;
const PLAIN_TEXT = /^[\w.,:;!?/#%@+=()[\]-](?:[\w .,:;!?/#%@+=()[\]-]*[\w.,:;!?/#%@+=()[\]-])?$/;
const attrValue = (v: string): string => (PLAIN_ATTR.test(v) ? `"${v}"` : `{${lit(v)}}`);

/** A JS value literal for JSON data: like JSON, but an own `__proto__` key stays an own key. */
export function jsLiteral(v: unknown, indent = ''): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  const inner = `${indent}  `;
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[\n${v.map((x) => `${inner}${jsLiteral(x, inner)}`).join(',\n')},\n${indent}]`;
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  // A literal `"__proto__": x` would set the prototype; a computed key defines an own property.
  const key = (k: string): string => (k === '__proto__' ? `[${lit(k)}]` : lit(k));
  return `{\n${keys.map((k) => `${inner}${key(k)}: ${jsLiteral((v as Record<string, unknown>)[k], inner)}`).join(',\n')},\n${indent}}`;
}

/** Props that mean something to React itself, never taken from markup. */
const REACT_OWN = new Set(['dangerouslysetinnerhtml', 'children', 'key', 'ref', 'suppresshydrationwarning', 'suppresscontenteditablewarning', 'defaultvalue', 'defaultchecked', '__self', '__source']);

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function propName(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (!ATTR_NAME.test(name) || lower.startsWith('on') || REACT_OWN.has(lower)) return undefined;
  if (Object.hasOwn(RENAME, lower)) return RENAME[lower]!;
  if (lower.startsWith('data-') || lower.startsWith('aria-')) return lower;
  return name.includes('-') ? camel(name) : name;
}

function styleObject(css: string): string {
  const parts: string[] = [];
  for (const decl of css.split(';')) {
    const at = decl.indexOf(':');
    if (at < 0) continue;
    const k = decl.slice(0, at).trim();
    const val = decl.slice(at + 1).trim();
    if (!/^-{0,2}[a-zA-Z][a-zA-Z0-9-]*$/.test(k) || val === '') continue;
    parts.push(`${lit(k.startsWith('--') ? k : camel(k))}: ${lit(val)}`);
  }
  return `{{ ${parts.join(', ')} }}`;
}

export interface JsxContext {
  /** The JSX expression for a `<script type="application/json">`'s text (`weftJson(...)`), or undefined to drop it. */
  json(el: El, text: string): string | undefined;
}

/** The props of an element as JSX attributes (uncontrolled form fields: default values). */
function props(el: El, extra: string[]): string {
  const tag = el.tag.toLowerCase();
  const type = el.attrs.find(([n]) => n.toLowerCase() === 'type')?.[1].toLowerCase();
  const out: string[] = [];
  for (const [raw, value] of el.attrs) {
    const lower = raw.toLowerCase();
    let name = propName(raw);
    if (name === undefined) continue;
    if (tag === 'option' && lower === 'selected') continue; // the select carries defaultValue
    if (tag === 'input' && lower === 'checked') name = 'defaultChecked';
    if (tag === 'input' && lower === 'value' && type !== 'checkbox' && type !== 'radio') name = 'defaultValue';
    if (lower === 'style') { out.push(`style=${styleObject(value)}`); continue; }
    out.push(BOOLEAN.has(lower) ? name : NUMERIC.has(name) && /^-?[0-9]{1,9}$/.test(value) ? `${name}={${Number(value)}}` : `${name}=${attrValue(value)}`);
  }
  return [...out, ...extra].map((p) => ` ${p}`).join('');
}

function textOf(el: El): string {
  return el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

/** The value a select shows first: its selected option's value (or text). */
function selectDefault(el: El): string | undefined {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.tag.toLowerCase() === 'option' && c.attrs.some(([n]) => n.toLowerCase() === 'selected')) return c.attrs.find(([n]) => n.toLowerCase() === 'value')?.[1] ?? textOf(c);
    const inner = c.tag.toLowerCase() === 'optgroup' ? selectDefault(c) : undefined;
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** JSX for a list of nodes, one per line at `indent`. */
export function toJsx(nodes: readonly Node[], ctx: JsxContext, indent: string, parent = ''): string[] {
  const lines: string[] = [];
  for (const n of nodes) {
    if (typeof n === 'string') {
      if (n === '' || (NO_TEXT.has(parent) && n.trim() === '')) continue;
      lines.push(`${indent}${PLAIN_TEXT.test(n) ? n : `{${lit(n)}}`}`);
      continue;
    }
    const tag = n.tag.toLowerCase();
    if (!NAME.test(n.tag) || ['style', 'link', 'meta', 'base', 'iframe', 'object', 'embed'].includes(tag)) continue;
    // A capitalised JSX tag names a component (an identifier): tags stay intrinsic (lower-case first).
    const name = /^[A-Z]/.test(n.tag) ? tag : n.tag;
    if (tag === 'script') {
      const type = n.attrs.find(([a]) => a.toLowerCase() === 'type')?.[1];
      const expr = type === 'application/json' ? ctx.json(n, typeof n.children[0] === 'string' ? n.children[0] : '') : undefined;
      if (expr !== undefined) lines.push(`${indent}<script${props(n, [`dangerouslySetInnerHTML={{ __html: ${expr} }}`])} />`);
      continue;
    }
    if (tag === 'textarea') {
      lines.push(`${indent}<textarea${props(n, [`defaultValue=${attrValue(textOf(n))}`])} />`);
      continue;
    }
    const extra: string[] = [];
    if (tag === 'select') {
      const d = selectDefault(n);
      if (d !== undefined) extra.push(`defaultValue=${attrValue(d)}`);
    }
    const inner = toJsx(n.children, ctx, `${indent}  `, tag);
    if (inner.length === 0) lines.push(`${indent}<${name}${props(n, extra)} />`);
    else lines.push(`${indent}<${name}${props(n, extra)}>`, ...inner, `${indent}</${name}>`);
  }
  return lines;
}
