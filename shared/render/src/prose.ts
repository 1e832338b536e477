// Prose bodies (Markdown, and Text that holds a fence) with surfaces inside (RFC §5): the markdown
// between ```surface / ~~~surface fences renders as markdown, each fence as a live surface with
// the page-surface rules (the same walk, placeholders and notes). A fence still open is streaming:
// its completed lines show, its unfinished last line is ignored, and before `root` arrives it is a
// placeholder. The healing pass closes unterminated emphasis, code and links at the end of the
// text in the renderer's view only (the stored text never changes), as Streamdown's remend does.
import { findSurfaceFences, parseSurfaceFence } from '@weft/interop';
import type { Comp } from './comp.ts';
import { attr, escapeHtml } from './escape.ts';

/** True when the text holds a surface fence (cheap test first: most prose has none). */
export function hasFence(source: string): boolean {
  return /(^|\n) {0,3}(`{3,}|~{3,}) *surface/.test(source) && findSurfaceFences(source).length > 0;
}

export function renderProse(c: Comp, source: string): string {
  const fences = /(`{3,}|~{3,})/.test(source) ? findSurfaceFences(source) : [];
  if (fences.length === 0) return c.markdown(heal(source));
  const lines = source.split('\n');
  const seen = new Set<string>();
  let html = '';
  let at = 0;
  for (const f of fences) {
    if (f.startLine > at) html += c.markdown(lines.slice(at, f.startLine).join('\n'));
    html += fence(c, f.body, f.info, f.closed, seen);
    at = f.endLine + 1;
  }
  if (at < lines.length) html += c.markdown(heal(lines.slice(at).join('\n')));
  return html;
}

function fence(c: Comp, body: string, info: string, closed: boolean, seen: Set<string>): string {
  const placeholder = (m: string): string => `<div class="weft-placeholder weft-fence-placeholder" role="note"${attr('data-fence-of', c.id)}>${escapeHtml(m)}</div>`;
  if (c.scope.renderSurface === undefined) {
    c.note('invalid_surface', 'a surface fence inside a fence surface is not expanded');
    return placeholder('Surface inside a surface (not shown)');
  }
  const parsed = parseSurfaceFence(body, info, { streaming: !closed });
  for (const e of parsed.errors) c.note('invalid_surface', `fence: ${e.message}`);
  const id = parsed.section.id;
  if (seen.has(id)) {
    c.note('invalid_surface', `a second fence reuses the surface id "${id}"; not shown`);
    return placeholder(`Surface “${id}” appears twice (the second is not shown)`);
  }
  seen.add(id);
  if (!closed) c.note('invalid_surface', `fence "${id}" is still open (streaming)`, 'approximate');
  if (!Object.hasOwn(parsed.section.components, 'root')) {
    if (closed) c.note('missing_root', `fence "${id}" has no root component`);
    return placeholder(closed ? `Surface “${id}” has no root component` : `Surface “${id}” is loading…`);
  }
  return c.scope.renderSurface(parsed.section, `${c.scope.sectionId}-${c.id}-${id}`);
}

/**
 * Closes what the last line leaves open, so a body cut mid-stream renders as it will once
 * finished: an odd inline code mark, `**` or `*`, and a link whose `(url` is not closed yet (its
 * text is kept, the half URL dropped). Code fences need nothing: the renderer closes them.
 */
export function heal(source: string): string {
  const nl = source.lastIndexOf('\n');
  const head = source.slice(0, nl + 1);
  let last = source.slice(nl + 1);
  if (/^\s*(```|~~~)/.test(last)) return source;
  const open = /\[([^\]\n]*)\]\([^)\s]*$/.exec(last);
  if (open) last = last.slice(0, open.index) + (open[1] ?? '');
  const ticks = (last.match(/`/g) ?? []).length;
  if (ticks % 2 === 1) last += '`';
  // Only a marker that opens text (`**b`, not `5 * 3`) is closed: a finished line stays as written.
  const outside = last.replace(/`[^`]*`/g, '');
  if ((outside.match(/\*\*/g) ?? []).length % 2 === 1 && /\*\*(?=[^\s*])[^*]*$/.test(outside)) last = `${last.trimEnd()}**`;
  const single = outside.replace(/\*\*/g, '');
  if ((single.match(/\*/g) ?? []).length % 2 === 1 && /\*(?=[^\s*])[^*]*$/.test(single)) last = `${last.trimEnd()}*`;
  return head + last;
}
