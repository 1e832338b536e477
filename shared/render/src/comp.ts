// What a component renderer sees: its component, resolved props with type checks that record
// notes, and its children. A renderer that lacks a required prop marks itself failed and the
// tree renders a placeholder instead of its output.

import { isBinding, isCall, parsePointer } from '@weft/core';
import type { Component, Condition, Json, Rule, SurfaceSection } from '@weft/core';
import { condition, resolve } from './bindings.ts';
import { attr, escapeHtml } from './escape.ts';
import { renderInline } from './inline.ts';
import { renderMarkdown } from './markdown.ts';
import type { Logic } from './logic.ts';
import type { RenderNote } from './notes.ts';
import { checkUrl, type UrlKind } from './url.ts';

/** Per-section render state, shared by every component of the section. */
export interface Scope {
  readonly sectionId: string;
  readonly section: SurfaceSection;
  readonly data: Json;
  readonly notes: RenderNote[];
  /** Ids already rendered (or skipped on purpose): a second parent gets a placeholder. */
  readonly visited: Set<string>;
  /** Ids on the path from root to the component being rendered. */
  readonly ancestors: string[];
  readonly renderNode: (id: string, parent: Comp | undefined) => string;
  /** Set by Tabs for the TabPanel it is about to render: its radio group and whether it is open. */
  tabState: { name: string; checked: boolean } | undefined;
  /** Whether props are checked against the catalog first (RenderOptions.checkProps). */
  readonly checkProps: boolean;
  /** What the interaction runtime re-evaluates in this section (see logic.ts). */
  readonly logic: Logic;
  /** A surface fence in this section's prose loads the runtime (its own logic, its own data). */
  nestedLive: boolean;
  /** Renders a fence's surface under a page-unique key; undefined inside a fence (no nesting). */
  readonly renderSurface: ((section: SurfaceSection, key: string) => string) | undefined;
}

const MAX_TEXT = 10_000;

export class Comp {
  readonly scope: Scope;
  readonly node: Component;
  readonly id: string;
  readonly parent: Comp | undefined;
  readonly failures: string[] = [];

  constructor(scope: Scope, node: Component, parent: Comp | undefined) {
    this.scope = scope;
    this.node = node;
    this.id = typeof node.id === 'string' ? node.id : '';
    this.parent = parent;
  }

  note(rule: Rule, message: string, severity: RenderNote['severity'] = 'broken'): void {
    this.scope.notes.push({ componentId: this.id, sectionId: this.scope.sectionId, rule, message, severity });
  }

  /** A required prop is missing or unusable: the component renders as a placeholder. */
  fail(message: string): undefined {
    this.failures.push(message);
    return undefined;
  }

  /** ` class="…" data-component-id="…"` for the outer element. */
  attrs(classes: string): string {
    return `${attr('class', classes)}${attr('data-component-id', this.id)}`;
  }

  /** Unique within the page: for form control ids and radio group names. */
  domId(suffix = ''): string {
    return `w-${this.scope.sectionId}-${this.id}${suffix}`;
  }

  raw(name: string): Json | undefined {
    const props = this.node.props;
    if (props === null || typeof props !== 'object' || Array.isArray(props) || !Object.hasOwn(props, name)) return undefined;
    return props[name];
  }

  /** The prop resolved against the section's data (literal, {path} or function call). */
  value(name: string): Json | undefined {
    const raw = this.raw(name);
    if (raw === undefined) return undefined;
    const r = resolve(raw, this.scope.data);
    if (!r.ok) {
      this.note('invalid_binding', `${name}: ${r.error}`);
      return undefined;
    }
    if (r.value === undefined) {
      const what = raw !== null && typeof raw === 'object' && !Array.isArray(raw) && typeof raw['path'] === 'string'
        ? `binding ${JSON.stringify(raw['path'])}` : 'value';
      this.note('invalid_binding', `${name}: ${what} resolves to nothing`);
    }
    return r.value;
  }

  str(name: string, required = false): string | undefined {
    const v = this.value(name);
    if (typeof v === 'string') return v.length > MAX_TEXT ? v.slice(0, MAX_TEXT) : v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (v !== undefined && v !== null) this.note('invalid_props', `${name} is not a string`);
    return required ? this.fail(`missing required prop "${name}"`) : undefined;
  }

  num(name: string, required = false): number | undefined {
    const v = this.value(name);
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
    if (v !== undefined && v !== null) this.note('invalid_props', `${name} is not a number`);
    return required ? this.fail(`missing required prop "${name}"`) : undefined;
  }

  bool(name: string): boolean {
    const v = this.value(name);
    if (v !== undefined && v !== null && typeof v !== 'boolean') this.note('invalid_props', `${name} is not a boolean`, 'approximate');
    return v === true;
  }

  /** An enum prop; an unknown value falls back to the default (first) value with a note. */
  oneOf<T extends string>(name: string, values: readonly T[]): T {
    const v = this.value(name);
    const fallback = values[0] as T;
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
    this.note('invalid_props', `${name} ${JSON.stringify(v).slice(0, 40)} is not one of ${values.join('|')}; using ${fallback}`, 'approximate');
    return fallback;
  }

  array(name: string, required = false): Json[] | undefined {
    const v = this.value(name);
    if (Array.isArray(v)) return v;
    if (v !== undefined && v !== null) this.note('invalid_props', `${name} is not an array`);
    return required ? this.fail(`missing required prop "${name}"`) : undefined;
  }

  /** A URL prop through the URL policy; refused → undefined with an `invalid_url` note. */
  url(name: string, kind: UrlKind, required = false): string | undefined {
    const v = this.value(name);
    if (v === undefined || v === null) return required ? this.fail(`missing required prop "${name}"`) : undefined;
    return this.checkUrl(v, kind, name);
  }

  checkUrl(v: Json, kind: UrlKind, name: string): string | undefined {
    const check = checkUrl(v, kind);
    if (!check.ok) {
      this.note('invalid_url', `${name} ${preview(v)} ${check.reason}; rendered inert`);
      return undefined;
    }
    if (check.stripped) this.note('invalid_url', `${name}: mailto fields ${check.stripped.join(', ')} removed`, 'approximate');
    return check.url;
  }

  /**
   * ` data-weft-bind="id:prop"` on the element showing a bound prop's text (nothing for a
   * literal), so the runtime can show the prop's new value when the data changes.
   */
  bindAttr(name: string): string {
    const raw = this.raw(name);
    if (!isBinding(raw) && !isCall(raw)) return '';
    const key = `${this.id}:${name}`;
    this.scope.logic.text[key] = raw;
    return attr('data-weft-bind', key);
  }

  /**
   * ` data-weft-cond="id:part"` on a part of this component shown while `cond` holds (`shown`: on
   * the server's data), so the runtime shows the part that fits the data after a reader's change.
   */
  showWhen(part: string, cond: Condition, shown: boolean): string {
    const key = `${this.id}:${part}`;
    this.scope.logic.visible[key] = cond as unknown as Json;
    return `${attr('data-weft-cond', key)}${attr('data-weft-visible', String(shown))}${shown ? '' : ' hidden'}`;
  }

  /** ` data-weft-model="/path"` on a control whose `value` is a {path}: the runtime writes it. */
  modelAttr(): string {
    const raw = this.raw('value');
    if (!isBinding(raw) || !parsePointer(raw.path).ok) return '';
    this.scope.logic.live = true;
    return attr('data-weft-model', raw.path);
  }

  /** ` data-weft-event="name"` when the control or button tells agents about the reader's change. */
  eventAttr(): string {
    const name = this.raw('event');
    if (typeof name !== 'string' || !/^[A-Za-z0-9._:-]{1,64}$/.test(name)) return '';
    this.scope.logic.live = true;
    return attr('data-weft-event', name);
  }

  /**
   * The `checks` prop ({condition, message}[]): each message as a hidden note the runtime shows
   * while its condition fails (`shown` renders the failing ones visible, e.g. under a Button).
   * Returns the markup and whether any check fails on the server's data.
   */
  checks(shown = false): { html: string; failing: boolean } {
    const raw = this.raw('checks');
    if (!Array.isArray(raw) || raw.length === 0) return { html: '', failing: false };
    const conds: Json[] = [];
    let html = '';
    let failing = false;
    raw.slice(0, 20).forEach((chk, i) => {
      if (chk === null || typeof chk !== 'object' || Array.isArray(chk)) return;
      const message = typeof chk['message'] === 'string' ? chk['message'] : 'Check failed';
      const r = condition(chk['condition'] as Condition, this.scope.data);
      if (!r.ok) {
        this.note('invalid_condition', `checks/${i}: ${r.error}; ignored`);
        conds.push(true);
        return;
      }
      conds.push(chk['condition'] as Json);
      failing ||= !r.value;
      html += `<p class="weft-check-msg" role="alert"${attr('data-weft-check', `${this.id}:${i}`)}${shown && !r.value ? '' : ' hidden'}>${escapeHtml(message)}</p>`;
    });
    this.scope.logic.checks[this.id] = conds;
    this.scope.logic.live = true;
    return { html, failing };
  }

  inline(text: string): string {
    return renderInline(text, (url, reason) => this.note('invalid_url', `link ${preview(url)} ${reason}; rendered inert`));
  }

  markdown(source: string): string {
    return renderMarkdown(source, (url, reason) => this.note('invalid_url', `link ${preview(url)} ${reason}; rendered inert`));
  }

  text(s: string): string {
    return escapeHtml(s);
  }

  childIds(): string[] {
    const c = this.node.children;
    return Array.isArray(c) ? c.filter((x): x is string => typeof x === 'string') : [];
  }

  child(id: string): string {
    return this.scope.renderNode(id, this);
  }

  children(): string {
    let out = '';
    for (const id of this.childIds()) out += this.child(id);
    return out;
  }

  /** A sibling component by id (e.g. a Tabs' TabPanel), if present. */
  lookup(id: string): Component | undefined {
    const comps = this.scope.section.components;
    return comps !== null && typeof comps === 'object' && Object.hasOwn(comps, id) ? comps[id] : undefined;
  }
}

function preview(v: Json): string {
  const s = JSON.stringify(v) ?? '';
  return s.length > 60 ? `${s.slice(0, 57)}…"` : s;
}
