// A full preview document. The CSP is strict: no inline script at all (only same-origin script
// files), and the one <style> element is allowed by its sha256 hash rather than 'unsafe-inline'.

import { createHash } from 'node:crypto';
import type { Draft } from '@weft/core';
import { attr, escapeHtml } from './escape.ts';
import type { RenderNote } from './notes.ts';
import { renderDraft, type RenderOptions } from './render.ts';
import { baseStyles } from './styles.ts';
import { checkUrl } from './url.ts';

export interface PageOptions extends RenderOptions {
  title: string;
  /** Same-origin script URLs (`/…`), loaded with `defer`. Anything else is dropped. */
  scripts?: readonly string[];
  /** Extra CSS text of ours (never model data), appended to baseStyles in the hashed <style>. */
  styles?: readonly string[];
  /** Replace the CSP (the style hash is still appended to `style-src` if present). */
  csp?: string;
  /** Receives the render notes (renderPage returns only the document). */
  onNotes?: (notes: RenderNote[]) => void;
  /**
   * Same-origin URL of the interaction runtime (runtimeScript()), loaded only when a surface
   * binds state a reader can change or fires actions; `main[data-weft-runtime]` names it either
   * way, so the live preview can load it once a change makes the page interactive.
   */
  runtime?: string;
  /** Same-origin endpoint the runtime posts reader events to (`main[data-weft-actions]`). */
  actions?: string;
}

/** `'sha256-…'` of a style or script element's text, for a CSP source list. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export const DEFAULT_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; font-src 'self'; connect-src 'self'; media-src 'self' https:; form-action 'none'; base-uri 'none'; object-src 'none'; frame-src 'none'";

/** The CSP with the style element's hash added to style-src. */
export function cspWithStyleHash(csp: string, css: string): string {
  const hash = cspHash(css);
  return /(^|;)\s*style-src\b/.test(csp)
    ? csp.replace(/((?:^|;)\s*style-src)([^;]*)/, `$1$2 ${hash}`)
    : `${csp}; style-src ${hash}`;
}

export function renderPage(draft: Draft, opts: PageOptions): string {
  const { html, notes, interactive } = renderDraft(draft, opts);
  opts.onNotes?.(notes);
  const css = [baseStyles, ...(opts.styles ?? [])].join('\n');
  const csp = cspWithStyleHash(opts.csp ?? DEFAULT_CSP, css);
  const runtime = opts.runtime !== undefined ? sameOrigin(opts.runtime) : undefined;
  const actions = opts.actions !== undefined ? sameOrigin(opts.actions) : undefined;
  const scripts = [...(opts.scripts ?? []), ...(interactive && runtime !== undefined ? [runtime] : [])]
    .map((src) => checkUrl(src, 'link'))
    .filter((c): c is { ok: true; url: string } => c.ok && c.url.startsWith('/'))
    .map((c) => `<script${attr('src', c.url)} defer></script>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"${attr('content', csp)}>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(opts.title)}</title>
<style>${css}</style>
${scripts}</head>
<body>
<main class="weft-page"${attr('data-draft-id', String(draft.id))}${runtime !== undefined ? attr('data-weft-runtime', runtime) : ''}${actions !== undefined ? attr('data-weft-actions', actions) : ''}>
${html}
</main>
</body>
</html>
`;
}

/** A same-origin path (`/…`, not `//…`) after the URL policy, or undefined. */
function sameOrigin(url: string): string | undefined {
  const c = checkUrl(url, 'link');
  return c.ok && /^\/(?![/\\])/.test(c.url) ? c.url : undefined;
}
