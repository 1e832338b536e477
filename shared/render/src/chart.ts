// Static SVG charts (bar, line, area, pie) from a resolved series: no library, no script.
// Numbers are rounded to 0.1 so the output is deterministic and compact.

import { escapeHtml } from './escape.ts';

export type ChartKind = 'bar' | 'line' | 'area' | 'pie';
export interface Point { label: string; value: number }

const W = 320;
const H = 180;
const PAD_X = 8;
const PAD_TOP = 10;
const PAD_BOTTOM = 26;
const PALETTE = 6;

const n = (v: number): string => (Math.round(v * 10) / 10).toString();

/** The <svg> for a chart; `name` is its accessible name (plain text, escaped here). */
export function chartSvg(kind: ChartKind, points: readonly Point[], name: string): string {
  const label = escapeHtml(name);
  const body = kind === 'pie' ? pie(points) : kind === 'bar' ? bars(points) : lineOrArea(points, kind === 'area');
  return `<svg class="weft-chart-svg weft-chart-${kind}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}"><title>${label}</title>${body}</svg>`;
}

function scale(points: readonly Point[]): { min: number; max: number; y: (v: number) => number } {
  let min = 0;
  let max = 0;
  for (const p of points) { min = Math.min(min, p.value); max = Math.max(max, p.value); }
  if (max === min) max = min + 1;
  const top = PAD_TOP;
  const bottom = H - PAD_BOTTOM;
  return { min, max, y: (v) => bottom - ((v - min) / (max - min)) * (bottom - top) };
}

function axisLabels(points: readonly Point[], x: (i: number) => number): string {
  const every = Math.max(1, Math.ceil(points.length / 8));
  return points
    .map((p, i) => (i % every === 0 ? `<text class="weft-chart-label" x="${n(x(i))}" y="${H - 8}" text-anchor="middle">${escapeHtml(p.label.slice(0, 14))}</text>` : ''))
    .join('');
}

function bars(points: readonly Point[]): string {
  const { y } = scale(points);
  const slot = (W - 2 * PAD_X) / Math.max(1, points.length);
  const bw = Math.max(1, slot * 0.7);
  const x = (i: number): number => PAD_X + slot * i + slot / 2;
  const zero = y(0);
  const rects = points.map((p, i) => {
    const top = Math.min(y(p.value), zero);
    const h = Math.max(0.5, Math.abs(y(p.value) - zero));
    return `<rect class="weft-c${i % PALETTE}" x="${n(x(i) - bw / 2)}" y="${n(top)}" width="${n(bw)}" height="${n(h)}" rx="2"><title>${escapeHtml(`${p.label}: ${p.value}`)}</title></rect>`;
  });
  return `<line class="weft-chart-axis" x1="${PAD_X}" x2="${W - PAD_X}" y1="${n(zero)}" y2="${n(zero)}"/>${rects.join('')}${axisLabels(points, x)}`;
}

function lineOrArea(points: readonly Point[], area: boolean): string {
  const { y } = scale(points);
  const step = points.length > 1 ? (W - 2 * PAD_X) / (points.length - 1) : 0;
  const x = (i: number): number => (points.length > 1 ? PAD_X + step * i : W / 2);
  const coords = points.map((p, i) => `${n(x(i))},${n(y(p.value))}`);
  const zero = y(0);
  const fill = area && points.length > 0
    ? `<polygon class="weft-chart-area" points="${n(x(0))},${n(zero)} ${coords.join(' ')} ${n(x(points.length - 1))},${n(zero)}"/>`
    : '';
  const dots = points.map((p, i) => `<circle class="weft-chart-dot" cx="${n(x(i))}" cy="${n(y(p.value))}" r="2.5"><title>${escapeHtml(`${p.label}: ${p.value}`)}</title></circle>`);
  return `<line class="weft-chart-axis" x1="${PAD_X}" x2="${W - PAD_X}" y1="${n(zero)}" y2="${n(zero)}"/>${fill}<polyline class="weft-chart-line" points="${coords.join(' ')}"/>${dots.join('')}${axisLabels(points, x)}`;
}

function pie(points: readonly Point[]): string {
  const positive = points.filter((p) => p.value > 0);
  const total = positive.reduce((s, p) => s + p.value, 0);
  const cx = 90;
  const cy = H / 2;
  const r = 70;
  if (total <= 0) return `<circle class="weft-chart-empty" cx="${cx}" cy="${cy}" r="${r}"/>`;
  const out: string[] = [];
  let angle = -Math.PI / 2;
  positive.forEach((p, i) => {
    const cls = `weft-c${points.indexOf(p) % PALETTE}`;
    const t = `<title>${escapeHtml(`${p.label}: ${p.value}`)}</title>`;
    const sweep = (p.value / total) * 2 * Math.PI;
    if (positive.length === 1) {
      out.push(`<circle class="${cls}" cx="${cx}" cy="${cy}" r="${r}">${t}</circle>`);
    } else {
      const a2 = angle + sweep;
      const large = sweep > Math.PI ? 1 : 0;
      const x1 = cx + r * Math.cos(angle);
      const y1 = cy + r * Math.sin(angle);
      const x2 = cx + r * Math.cos(a2);
      const y2 = cy + r * Math.sin(a2);
      out.push(`<path class="${cls}" d="M${cx} ${n(cy)}L${n(x1)} ${n(y1)}A${r} ${r} 0 ${large} 1 ${n(x2)} ${n(y2)}Z">${t}</path>`);
      angle = a2;
    }
    if (i < 8) {
      const ly = 20 + i * 18;
      out.push(`<rect class="${cls}" x="180" y="${ly - 9}" width="10" height="10" rx="2"/><text class="weft-chart-label" x="196" y="${ly}">${escapeHtml(p.label.slice(0, 18))}</text>`);
    }
  });
  return out.join('');
}
