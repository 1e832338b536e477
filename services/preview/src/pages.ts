// The Build view's document: static markup only (no draft content, no inline script or style).
// The live preview sits in an iframe (its own strict CSP); everything dynamic is build.js.
import { defaultCatalog } from '@weft/core';
import { escapeHtml } from '@weft/render';

export interface BuildPageOptions { draftId: string; sessionUrl: string; csp: string; css: string[]; script: string; editor: string; catalog: string }

/**
 * The catalog the editor builds its props panel and palette from, as JSON safe inside a
 * `<script type="application/json">` (data, not code: CSP allows it; `<` is escaped).
 * The browser never compiles schemas: the server's pipeline is the validator.
 */
export function catalogJson(): string {
  const out: Record<string, unknown> = {};
  for (const e of Object.values(defaultCatalog.entries)) {
    out[e.name] = { name: e.name, group: e.group, description: e.description, props: e.props, children: e.children, example: e.example };
  }
  return JSON.stringify(out).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** frame-ancestors is header-only; in a meta tag browsers ignore it with a console error. */
const metaCsp = (csp: string): string => csp.split(';').map((d) => d.trim()).filter((d) => d !== '' && !d.startsWith('frame-ancestors')).join('; ');

/** The head both pages share, up to their own scripts: CSP (also as a meta tag), styles, the deferred script. */
function pageHead(title: string, csp: string, css: string[], script: string): string {
  const a = (s: string): string => escapeHtml(s);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${a(metaCsp(csp))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${a(title)}</title>
${css.map((h) => `<link rel="stylesheet" href="${a(h)}">`).join('\n')}
<script src="${a(script)}" defer></script>`;
}

export function buildPage(o: BuildPageOptions): string {
  const a = (s: string): string => escapeHtml(s);
  return `${pageHead(`Build · ${o.draftId}`, o.csp, o.css, o.script)}
<script src="${a(o.editor)}" type="module"></script>
<script type="application/json" id="wb-catalog">${o.catalog}</script>
</head>
<body class="wb" data-draft-id="${a(o.draftId)}" data-session-url="${a(o.sessionUrl)}">
<header class="wb-bar">
  <div class="wb-brand"><span class="wb-logo" aria-hidden="true"></span>Weft <span class="wb-sep">/</span> <strong id="wb-title">${a(o.draftId)}</strong></div>
  <div class="wb-status" id="wb-status" role="status">connecting…</div>
  <div class="wb-status" id="wb-save" role="status" hidden></div>
  <div id="weft-presence" class="wb-presence" aria-label="People and agents here"></div>
  <div class="wb-actions">
    <button type="button" id="wb-undo" title="Undo your last change (Ctrl/Cmd+Z)">Undo</button>
    <button type="button" id="wb-redo" title="Redo (Shift+Ctrl/Cmd+Z)">Redo</button>
    <button type="button" id="wb-signout" class="wb-quiet" title="Forget the token in this tab">Sign out</button>
  </div>
</header>
<form id="wb-login" class="wb-login" hidden>
  <h1>Open the Build view</h1>
  <p>Paste a Weft token with read access to <code>${a(o.draftId)}</code>. It stays in this tab only (sessionStorage) and is sent in a header, never in a URL.</p>
  <label>Token <input id="wb-token" type="password" autocomplete="off" spellcheck="false" required></label>
  <button type="submit">Open</button>
  <p class="wb-error" id="wb-login-error" role="alert"></p>
</form>
<main class="wb-main" id="wb-main" hidden>
  <aside class="wb-left">
    <section class="wb-panel wb-outline-panel" aria-labelledby="wb-outline-h">
      <h2 id="wb-outline-h">Outline</h2>
      <div id="wb-outline" class="wb-outline"></div>
    </section>
    <section class="wb-panel wb-palette" id="wb-palette" aria-label="Add components" hidden></section>
    <section class="wb-panel">
      <h2>Versions</h2>
      <input id="wb-scrub" type="range" min="0" max="0" value="0" step="1" aria-label="Scrub versions">
      <ol id="wb-versions" class="wb-versions"></ol>
    </section>
  </aside>
  <section class="wb-stage" aria-label="Preview">
    <div class="wb-stage-head">
      <span id="wb-mode" class="wb-pill wb-live">Live</span>
      <span id="wb-version" class="wb-muted"></span>
      <span id="wb-ro" class="wb-pill wb-ro-pill" hidden>Read-only</span>
      <button type="button" id="wb-back-live" class="wb-quiet" hidden>Back to live</button>
      <span class="wb-widths" role="group" aria-label="Preview width">
        <button type="button" class="wb-width" data-width="desktop" aria-pressed="true" title="Desktop width">Desktop</button>
        <button type="button" class="wb-width" data-width="tablet" aria-pressed="false" title="Tablet width (820 px)">Tablet</button>
        <button type="button" class="wb-width" data-width="phone" aria-pressed="false" title="Phone width (390 px)">Phone</button>
      </span>
      <p id="wb-notice" class="wb-notice" role="status" aria-live="polite" hidden></p>
    </div>
    <div class="wb-frame-wrap" id="wb-frame-wrap" data-width="desktop">
      <iframe id="wb-frame" title="Live preview" referrerpolicy="no-referrer"></iframe>
      <div id="wb-overlay" class="wb-overlay" aria-hidden="true"></div>
      <div id="wb-past" class="weft-page wb-past" hidden></div>
      <div id="weft-ghosts" class="wb-ghosts" aria-hidden="true"></div>
    </div>
  </section>
  <aside class="wb-side">
    <section class="wb-panel wb-chat" id="wb-chat" aria-label="Build chat"></section>
    <section class="wb-panel wb-inspector-panel" aria-labelledby="wb-inspector-h">
      <h2 id="wb-inspector-h">Inspector</h2>
      <div id="wb-inspector" class="wb-inspector"><p class="wb-muted wb-empty">Connecting the editor…</p></div>
    </section>
    <section class="wb-panel wb-feed-panel">
      <h2>Activity</h2>
      <ol id="wb-feed" class="wb-feed" aria-live="polite"></ol>
    </section>
  </aside>
</main>
</body>
</html>
`;
}

export interface DraftsPageOptions { sessionUrl: string; csp: string; css: string[]; script: string }

/**
 * `/build`: where `npm start`'s URL leads. The drafts the token can read, each opening its Build
 * view, and a form that creates one and opens it. The same token as the Build view (this tab's
 * sessionStorage), sent only in headers.
 */
export function draftsPage(o: DraftsPageOptions): string {
  const a = (s: string): string => escapeHtml(s);
  return `${pageHead('Weft · drafts', o.csp, o.css, o.script)}
</head>
<body class="wb" data-session-url="${a(o.sessionUrl)}">
<header class="wb-bar wb-drafts-bar">
  <div class="wb-brand"><span class="wb-logo" aria-hidden="true"></span>Weft <span class="wb-sep">/</span> <strong>drafts</strong></div>
  <div class="wb-actions"><button type="button" id="wb-signout" class="wb-quiet" hidden>Sign out</button></div>
</header>
<form id="wb-login" class="wb-login" hidden>
  <h1>Your drafts</h1>
  <p>Paste a Weft token (<code>npm start</code> prints the admin token). It stays in this tab only (sessionStorage) and is sent in a header, never in a URL.</p>
  <label>Token <input id="wb-token" type="password" autocomplete="off" spellcheck="false" required></label>
  <button type="submit">Open</button>
  <p class="wb-error" id="wb-login-error" role="alert"></p>
</form>
<main class="wb-drafts" id="wb-home" hidden>
  <form id="wb-new" class="wb-new">
    <h1>New draft</h1>
    <label>Title <input id="wb-new-title" maxlength="200" placeholder="Home"></label>
    <label>Id <input id="wb-new-id" pattern="[a-z][a-z0-9\\-]{0,40}" maxlength="41" placeholder="made from the title" spellcheck="false"></label>
    <button type="submit" class="wb-primary">Create and open</button>
    <p class="wb-error" id="wb-new-error" role="alert"></p>
  </form>
  <section>
    <h2>Drafts</h2>
    <ul id="wb-list" class="wb-list"></ul>
    <p id="wb-none" class="wb-muted" hidden>No drafts yet: create the first one.</p>
  </section>
</main>
</body>
</html>`;
}
