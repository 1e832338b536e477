// Inline markdown subset for Text and Markdown: **bold**, *em*, `code`, [text](url).
// Code spans are cut out first (nothing inside them is formatted); links become numbered tokens
// so their URLs never meet the emphasis pass; the rest is escaped and only then formatted, so
// the only tags in the output are the ones written here.

import { attr, escapeHtml } from './escape.ts';
import { checkUrl } from './url.ts';

/** Called for a link whose URL the policy refused; the link text is kept, without href. */
export type UrlRefused = (url: string, reason: string) => void;

const CODE = /`([^`\n]{1,2000})`/g;
const LINK = /\[([^\]\n]{1,500})\]\(((?:[^()\s]|\([^()\s]{0,200}\)){1,2000})\)/g;
const TOKEN = /\u0000(\d+)\u0000/g;

export function renderInline(text: string, refused: UrlRefused): string {
  const source = text.split('\u0000').join(''); // split/join: linear even with 10⁶ NULs
  const out: string[] = [];
  let last = 0;
  for (const m of source.matchAll(CODE)) {
    out.push(formatText(source.slice(last, m.index), refused), `<code>${escapeHtml(m[1] ?? '')}</code>`);
    last = m.index + m[0].length;
  }
  out.push(formatText(source.slice(last), refused));
  return out.join('');
}

function formatText(text: string, refused: UrlRefused): string {
  if (text === '') return '';
  const links: string[] = [];
  const tokenized = text.replace(LINK, (_m, label: string, url: string) => {
    const check = checkUrl(url, 'link');
    const inner = emphasis(escapeHtml(label));
    if (check.ok) {
      const external = /^https?:/i.test(check.url);
      links.push(`<a${attr('href', check.url)}${external ? ' rel="noopener noreferrer nofollow"' : ''}>${inner}</a>`);
    } else {
      refused(url, check.reason);
      links.push(`<span class="weft-inert-link" title="link removed: URL refused">${inner}</span>`);
    }
    return `\u0000${links.length - 1}\u0000`;
  });
  // escapeHtml drops NUL; the link tokens (NUL-delimited, NUL stripped from the input) survive it.
  const escaped = tokenized.split('\u0000').map(escapeHtml).join('\u0000');
  return emphasis(escaped).replace(TOKEN, (_m, i: string) => links[Number(i)] ?? '');
}

// On escaped text: `*` and `_` survive escaping, and no `<` can be present except ours.
function emphasis(escaped: string): string {
  return escaped
    .replace(/\*\*([^*\n]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*\n]+)\*/g, '<em>$1</em>');
}
