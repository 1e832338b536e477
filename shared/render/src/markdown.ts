// Block markdown, safe subset: paragraphs, # headings, - / 1. lists, > blockquotes, ``` code
// blocks, --- rules; inline formatting as in Text. No raw HTML: everything is escaped.
//
// Total and linear: one classifier (`kindOf`) decides both which block a line opens and where a
// paragraph stops, and every branch consumes at least one line, so no input can stall the loop
// (a heading test and a paragraph-break test that disagreed on "# a\u2028b" once looped forever).
// Regexes use `[^]`/`s` so line and paragraph separators (U+2028/2029) are ordinary characters.

import { escapeHtml } from './escape.ts';
import { renderInline, type UrlRefused } from './inline.ts';

const MAX_QUOTE_DEPTH = 3;

type Kind = 'blank' | 'fence' | 'heading' | 'rule' | 'quote' | 'item' | 'text';

const FENCE = /^\s*```/;
const HEADING = /^(#{1,6})\s+([^]*)$/;
const RULE = /^\s*([-*_])(?:[ \t]*\1){2,}\s*$/;
const QUOTE = /^\s*>/;
const ITEM = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+([^]*)$/;

function kindOf(line: string): Kind {
  if (line.trim() === '') return 'blank';
  if (FENCE.test(line)) return 'fence';
  if (HEADING.test(line)) return 'heading';
  if (RULE.test(line)) return 'rule';
  if (QUOTE.test(line)) return 'quote';
  if (ITEM.test(line)) return 'item';
  return 'text';
}

export function renderMarkdown(source: string, refused: UrlRefused, depth = 0): string {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  const inline = (s: string): string => renderInline(s, refused);
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const kind = kindOf(line);
    i++; // every branch consumes this line; loops below only ever take more
    switch (kind) {
      case 'blank':
        break;
      case 'fence': {
        const body: string[] = [];
        while (i < lines.length && !FENCE.test(lines[i] ?? '')) body.push(lines[i++] ?? '');
        i++; // closing fence (or end of input: an open fence is closed by the end)
        out.push(`<pre><code>${escapeHtml(body.join('\n'))}</code></pre>`);
        break;
      }
      case 'heading': {
        const m = HEADING.exec(line);
        const level = m?.[1]?.length ?? 1;
        out.push(`<h${level}>${inline(trimClosingHashes(m?.[2] ?? ''))}</h${level}>`);
        break;
      }
      case 'rule':
        out.push('<hr>');
        break;
      case 'quote': {
        const body = [unquote(line)];
        while (i < lines.length && kindOf(lines[i] ?? '') === 'quote') body.push(unquote(lines[i++] ?? ''));
        const inner = depth < MAX_QUOTE_DEPTH ? renderMarkdown(body.join('\n'), refused, depth + 1) : `<p>${inline(body.join(' '))}</p>`;
        out.push(`<blockquote>${inner}</blockquote>`);
        break;
      }
      case 'item': {
        const first = listItem(line);
        const items = [`<li>${inline(first.text)}</li>`];
        while (i < lines.length && kindOf(lines[i] ?? '') === 'item') {
          const it = listItem(lines[i] ?? '');
          if (it.ordered !== first.ordered) break;
          items.push(`<li>${inline(it.text)}</li>`);
          i++;
        }
        const tag = first.ordered ? 'ol' : 'ul';
        out.push(`<${tag}>${items.join('')}</${tag}>`);
        break;
      }
      case 'text': {
        const para = [line.trim()];
        while (i < lines.length && kindOf(lines[i] ?? '') === 'text') para.push((lines[i++] ?? '').trim());
        out.push(`<p>${inline(para.join(' '))}</p>`);
        break;
      }
    }
  }
  return out.join('');
}

/** `## Title ##` → `Title`, without a backtracking regex over the whole line. */
function trimClosingHashes(s: string): string {
  let end = s.length;
  while (end > 0 && /\s/.test(s[end - 1] ?? '')) end--;
  let h = end;
  while (h > 0 && s[h - 1] === '#') h--;
  if (h < end && (h === 0 || /\s/.test(s[h - 1] ?? ''))) {
    end = h;
    while (end > 0 && /\s/.test(s[end - 1] ?? '')) end--;
  }
  return s.slice(0, end);
}

function unquote(line: string): string {
  return line.replace(/^\s*>\s?/, '');
}

function listItem(line: string): { ordered: boolean; text: string } {
  const m = ITEM.exec(line);
  return { ordered: m?.[2] !== undefined, text: m?.[3] ?? '' };
}
