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
  /**
   * The runtime's script text, inlined (allowed by its hash in script-src) when the page is
   * interactive: a standalone page that needs no server (the export). Wins over `runtime`.
   */
  inlineRuntime?: string;
  /** `<meta name="generator">` text (the export names the draft and version it came from). */
  generator?: string;
  /** Where the runtime posts reader events (`main[data-weft-actions]`): a path, or the session's URL on another origin. */
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
  const inline = interactive && opts.inlineRuntime !== undefined ? inlineScript(opts.inlineRuntime) : undefined;
  const styled = cspWithStyleHash(opts.csp ?? DEFAULT_CSP, css);
  const csp = inline === undefined ? styled : withScriptHash(styled, cspHash(inline));
  const runtime = opts.runtime !== undefined && opts.inlineRuntime === undefined ? sameOrigin(opts.runtime) : undefined;
  const actions = opts.actions !== undefined ? endpoint(opts.actions) : undefined;
  const scripts = [...(opts.scripts ?? []), ...(interactive && runtime !== undefined ? [runtime] : [])]
    .map((src) => checkUrl(src, 'link'))
    .filter((c): c is { ok: true; url: string } => c.ok && c.url.startsWith('/'))
    .map((c) => `<script${attr('src', c.url)} defer></script>`)
    .join('');
  // At the end of <body>: an inline script cannot `defer`, and the runtime boots over the page.
  const tail = inline === undefined ? '' : `<script>${inline}</script>\n`;
  const generator = opts.generator === undefined ? '' : `<meta name="generator"${attr('content', opts.generator)}>\n`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"${attr('content', csp)}>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${generator}<title>${escapeHtml(opts.title)}</title>
<style>${css}</style>
${scripts}</head>
<body>
<main class="weft-page"${attr('data-draft-id', String(draft.id))}${runtime !== undefined ? attr('data-weft-runtime', runtime) : ''}${actions !== undefined ? attr('data-weft-actions', actions) : ''}>
${html}
</main>
${tail}</body>
</html>
`;
}

function withScriptHash(csp: string, hash: string): string {
  return /(^|;)\s*script-src\b/.test(csp) ? csp.replace(/((?:^|;)\s*script-src)([^;]*)/, `$1$2 ${hash}`) : `${csp}; script-src ${hash}`;
}

/** Script text safe inside <script>: ours (the runtime bundle), checked, never model data. */
function inlineScript(js: string): string {
  if (/<\/script|<!--/i.test(js)) throw new Error('inlineRuntime holds "</script" or "<!--"; it cannot be inlined');
  return js;
}

/** The URL after the URL policy when it has the allowed form, else undefined. */
const allowed = (form: RegExp) => (url: string): string | undefined => {
  const c = checkUrl(url, 'link');
  return c.ok && form.test(c.url) ? c.url : undefined;
};
/** A same-origin path (`/…`, not `//…`). */
const sameOrigin = allowed(/^\/(?![/\\])/);
/** A path on this origin, or an http(s) URL (the session's API on another origin; the CSP bounds it). */
const endpoint = allowed(/^(?:\/(?![/\\])|https?:\/\/)/);
