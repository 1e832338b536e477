// Block markdown, safe subset: paragraphs, # headings, - / 1. lists, > blockquotes, ``` code
// blocks, --- rules; inline formatting as in Text. No raw HTML: everything is escaped.

import { escapeHtml } from './escape.ts';
import { renderInline, type UrlRefused } from './inline.ts';

const MAX_QUOTE_DEPTH = 3;

export function renderMarkdown(source: string, refused: UrlRefused, depth = 0): string {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  const inline = (s: string): string => renderInline(s, refused);
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.trim() === '') { i++; continue; }
    if (/^\s*```/.test(line)) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^\s*```/.test(lines[i] ?? '')) body.push(lines[i++] ?? '');
      i++; // closing fence (or end of input: an open fence is closed by the end)
      out.push(`<pre><code>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]?.length ?? 1;
      out.push(`<h${level}>${inline((heading[2] ?? '').replace(/\s+#+\s*$/, ''))}</h${level}>`);
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) { out.push('<hr>'); i++; continue; }
    if (/^\s*>/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i] ?? '')) body.push((lines[i++] ?? '').replace(/^\s*>\s?/, ''));
      const inner = depth < MAX_QUOTE_DEPTH ? renderMarkdown(body.join('\n'), refused, depth + 1) : `<p>${inline(body.join(' '))}</p>`;
      out.push(`<blockquote>${inner}</blockquote>`);
      continue;
    }
    const item = listItem(line);
    if (item) {
      const items: string[] = [];
      while (i < lines.length) {
        const it = listItem(lines[i] ?? '');
        if (!it || it.ordered !== item.ordered) break;
        items.push(`<li>${inline(it.text)}</li>`);
        i++;
      }
      const tag = item.ordered ? 'ol' : 'ul';
      out.push(`<${tag}>${items.join('')}</${tag}>`);
      continue;
    }
    const para: string[] = [];
    while (i < lines.length) {
      const l = lines[i] ?? '';
      if (l.trim() === '' || /^(#{1,6}\s|\s*```|\s*>)/.test(l) || listItem(l)) break;
      para.push(l.trim());
      i++;
    }
    out.push(`<p>${inline(para.join(' '))}</p>`);
  }
  return out.join('');
}

function listItem(line: string): { ordered: boolean; text: string } | undefined {
  const m = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/.exec(line);
  if (!m) return undefined;
  return { ordered: m[2] !== undefined, text: m[3] ?? '' };
}
