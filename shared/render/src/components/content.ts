// Content primitives: semantic HTML, every string escaped, every URL through the policy.

import type { Json } from '@weft/core';
import { actionAttrs, cleanAction } from '../actions.ts';
import { chartSvg, type ChartKind, type Point } from '../chart.ts';
import type { Comp } from '../comp.ts';
import { attr } from '../escape.ts';
import { iconSvg } from '../icons.ts';
import { hasFence, heal, renderProse } from '../prose.ts';
import type { Renderer } from './renderer.ts';

const EXTERNAL = /^(https?:|mailto:)/i;
const rel = (href: string): string => (EXTERNAL.test(href) ? ' rel="noopener noreferrer nofollow"' : '');

/** Plain text of a table cell or list item: strings as they are, other JSON compactly. */
function cellText(v: Json | undefined): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function isObject(v: Json | undefined): v is { [k: string]: Json } {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export const content: Record<string, Renderer> = {
  Heading: {
    leaf: true,
    render: (c) => {
      const text = c.str('text', true);
      let level = c.num('level') ?? 2;
      if (!Number.isInteger(level) || level < 1 || level > 6) {
        c.note('invalid_props', `level ${level} is not an integer 1–6; using 2`, 'approximate');
        level = 2;
      }
      return text === undefined ? '' : `<h${level}${c.attrs('weft-heading')}${c.bindAttr('text')}>${c.text(text)}</h${level}>`;
    },
  },
  Text: {
    leaf: true,
    render: (c) => {
      const text = c.str('text', true);
      const cls = `weft-text weft-tone-${c.oneOf('tone', ['default', 'muted'])} weft-size-${c.oneOf('size', ['md', 'sm', 'lg'])}`;
      if (text === undefined) return '';
      // A Text whose body holds a surface fence is prose with a surface in it: a block, not a <p>.
      if (hasFence(text)) return `<div${c.attrs(`${cls} weft-prose`)}>${renderProse(c, text)}</div>`;
      return `<p${c.attrs(cls)}${c.bindAttr('text')}>${c.inline(heal(text))}</p>`;
    },
  },
  Markdown: {
    leaf: true,
    render: (c) => {
      const source = c.str('source', true);
      return source === undefined ? '' : `<div${c.attrs('weft-markdown')}>${renderProse(c, source)}</div>`;
    },
  },
  Image: {
    leaf: true,
    render: (c) => {
      const alt = c.str('alt', true) ?? '';
      if (c.raw('src') === undefined) return c.fail('missing required prop "src"') ?? '';
      const src = c.url('src', 'image');
      const fit = c.oneOf('fit', ['cover', 'contain']);
      if (src === undefined) {
        return `<div${c.attrs('weft-image weft-image-missing')} role="img"${attr('aria-label', alt)}><span>${c.text(alt || 'Image')}</span></div>`;
      }
      const w = c.num('width');
      const h = c.num('height');
      const size = `${w !== undefined && w > 0 ? attr('width', Math.round(w)) : ''}${h !== undefined && h > 0 ? attr('height', Math.round(h)) : ''}`;
      return `<img${c.attrs(`weft-image weft-fit-${fit}`)}${attr('src', src)}${attr('alt', alt)}${size} loading="lazy" decoding="async" referrerpolicy="no-referrer">`;
    },
  },
  Icon: {
    leaf: true,
    render: (c) => {
      const name = c.str('name', true);
      if (name === undefined) return '';
      const label = c.str('label');
      const size = c.oneOf('size', ['md', 'sm', 'lg']);
      const a11y = label ? ` role="img"${attr('aria-label', label)}` : ' aria-hidden="true"';
      const svg = iconSvg(name, 'weft-icon-svg', '');
      if (svg === undefined) {
        c.note('invalid_props', `icon ${JSON.stringify(name.slice(0, 40))} is not in the icon set`);
        return `<span${c.attrs(`weft-icon weft-icon-${size} weft-icon-missing`)} role="img"${attr('aria-label', label || name)}>${c.text(label || name)}</span>`;
      }
      return `<span${c.attrs(`weft-icon weft-icon-${size}`)}${a11y}>${svg}</span>`;
    },
  },
  Button: {
    leaf: true,
    render: (c) => {
      const label = c.str('label', true);
      if (label === undefined) return '';
      const variant = c.oneOf('variant', ['primary', 'secondary', 'ghost', 'link']);
      const action = cleanAction(c, 'onClick');
      const href = c.url('href', 'link') ?? action?.href;
      // fenestra's rule: a Button whose checks fail carries no action (disabled, reasons shown).
      const checks = c.checks(true);
      const disabled = c.bool('disabled') || checks.failing;
      const gate = checks.html === '' ? '' : ' data-weft-gate';
      const cls = `weft-button weft-variant-${variant}`;
      if (href !== undefined) {
        const target = disabled ? ' aria-disabled="true"' : `${attr('href', href)}${rel(href)}`;
        return `<a${c.attrs(cls)}${target}${actionAttrs(action)}${gate}${c.eventAttr()}${c.bindAttr('label')}>${c.text(label)}</a>${checks.html}`;
      }
      return `<button${c.attrs(cls)} type="button"${disabled ? ' disabled' : ''}${actionAttrs(action)}${gate}${c.eventAttr()}${c.bindAttr('label')}>${c.text(label)}</button>${checks.html}`;
    },
  },
  Link: {
    leaf: true,
    render: (c) => {
      const text = c.str('text', true);
      if (c.raw('href') === undefined) return c.fail('missing required prop "href"') ?? '';
      const href = c.url('href', 'link');
      if (text === undefined) return '';
      if (href === undefined) return `<span${c.attrs('weft-link weft-inert-link')}>${c.text(text)}</span>`;
      return `<a${c.attrs('weft-link')}${attr('href', href)}${rel(href)}${c.bindAttr('text')}>${c.text(text)}</a>`;
    },
  },
  Badge: {
    leaf: true,
    render: (c) => {
      const text = c.str('text', true);
      const tone = c.oneOf('tone', ['neutral', 'info', 'success', 'warning', 'danger']);
      return text === undefined ? '' : `<span${c.attrs(`weft-badge weft-tone-${tone}`)}${c.bindAttr('text')}>${c.text(text)}</span>`;
    },
  },
  Stat: {
    leaf: true,
    render: (c) => {
      const label = c.str('label', true);
      const value = c.str('value', true);
      const trend = c.oneOf('trend', ['flat', 'up', 'down']);
      const caption = c.str('caption');
      if (label === undefined || value === undefined) return '';
      const arrow = trend === 'up' ? '▲' : trend === 'down' ? '▼' : '';
      const trendHtml = arrow ? `<span class="weft-stat-trend weft-trend-${trend}"${attr('aria-label', `trend ${trend}`)}>${arrow}</span>` : '';
      const cap = caption ? `<span class="weft-stat-caption"${c.bindAttr('caption')}>${c.text(caption)}</span>` : '';
      return `<div${c.attrs('weft-stat')}><span class="weft-stat-label"${c.bindAttr('label')}>${c.text(label)}</span><span class="weft-stat-value"><span class="weft-stat-number"${c.bindAttr('value')}>${c.text(value)}</span>${trendHtml}</span>${cap}</div>`;
    },
  },
  Quote: {
    leaf: true,
    render: (c) => {
      const text = c.str('text', true);
      const cite = c.str('cite');
      if (text === undefined) return '';
      const foot = cite ? `<footer><cite>${c.text(cite)}</cite></footer>` : '';
      return `<blockquote${c.attrs('weft-quote')}><p${c.bindAttr('text')}>${c.inline(text)}</p>${foot}</blockquote>`;
    },
  },
  List: {
    leaf: true,
    render: (c) => {
      const items = c.array('items', true);
      if (items === undefined) return '';
      const ordered = c.bool('ordered');
      const tag = ordered ? 'ol' : 'ul';
      const lis = items.map((it) => {
        // An entry card (a `$source` list) shows its title; other objects show as JSON, noted.
        if (isObject(it) && typeof it['title'] === 'string') return `<li>${c.text(it['title'])}</li>`;
        if (isObject(it) || Array.isArray(it)) c.note('invalid_props', 'items holds a non-string item', 'approximate');
        return `<li>${c.inline(cellText(it))}</li>`;
      });
      return `<${tag}${c.attrs('weft-list')}>${lis.join('')}</${tag}>`;
    },
  },
  Table: {
    leaf: true,
    render: (c) => {
      const columns = c.array('columns', true);
      const rows = c.array('rows', true);
      if (columns === undefined || rows === undefined) return '';
      const cols = columns.filter((col): col is { [k: string]: Json } => isObject(col) && typeof col['key'] === 'string').slice(0, 12);
      if (cols.length !== columns.length) c.note('invalid_props', 'columns holds entries without a string key (or more than 12)');
      if (cols.length === 0) return c.fail('columns has no usable column') ?? '';
      const head = cols.map((col) => `<th scope="col">${c.text(cellText(col['label'] ?? col['key']))}</th>`).join('');
      let badRows = 0;
      const body = rows.map((row) => {
        if (!isObject(row)) { badRows++; return ''; }
        return `<tr>${cols.map((col) => `<td>${c.text(cellText(row[String(col['key'])]))}</td>`).join('')}</tr>`;
      }).join('');
      if (badRows > 0) c.note('invalid_props', `${badRows} row(s) are not objects and were left out`);
      return `<div${c.attrs('weft-table-wrap')}><table class="weft-table"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
    },
  },
  Chart: {
    leaf: true,
    render: (c) => {
      const kind = c.str('kind', true);
      const series = c.array('series', true);
      if (kind === undefined || series === undefined) return '';
      const kinds: readonly string[] = ['bar', 'line', 'area', 'pie'];
      if (!kinds.includes(kind)) return c.fail(`kind ${JSON.stringify(kind.slice(0, 20))} is not bar|line|area|pie`) ?? '';
      const points: Point[] = [];
      for (const p of series.slice(0, 200)) {
        const value = isObject(p) ? p['value'] : undefined;
        if (!isObject(p) || typeof value !== 'number' || !Number.isFinite(value)) continue;
        points.push({ label: cellText(p['label']), value });
      }
      if (points.length !== series.length) c.note('invalid_props', `${series.length - points.length} series point(s) without a numeric value were left out`);
      const title = c.str('title');
      const unit = c.str('unit');
      const name = title || `${kind} chart`;
      const caption = title || unit ? `<figcaption>${c.text(title ?? '')}${unit ? ` <span class="weft-chart-unit">(${c.text(unit)})</span>` : ''}</figcaption>` : '';
      return `<figure${c.attrs('weft-chart')}>${caption}${chartSvg(kind as ChartKind, points, name)}</figure>`;
    },
  },
  Video: {
    leaf: true,
    render: (c) => {
      const title = c.str('title', true);
      if (c.raw('src') === undefined) return c.fail('missing required prop "src"') ?? '';
      const src = c.url('src', 'video');
      if (title === undefined) return '';
      const play = iconSvg('play', 'weft-video-play', ' aria-hidden="true"') ?? '';
      // Previews never embed a player (no iframe): a poster that links to the video.
      if (src === undefined) return `<figure${c.attrs('weft-video weft-video-inert')}><div class="weft-video-poster">${play}<span>${c.text(title)}</span></div></figure>`;
      return `<figure${c.attrs('weft-video')}><a class="weft-video-poster"${attr('href', src)}${rel(src)}>${play}<span>${c.text(title)}</span></a></figure>`;
    },
  },
};
