// The URL policy (docs/catalog.md): http, https, mailto with safe header fields, in-site paths
// `/…` (not `//…`) and `#…`; media sources also take relative `assets/…`. Anything else is
// refused and the caller renders the element inert with an `invalid_url` note.

/** What the URL is for: a link target, an image source, or a video (https only). */
export type UrlKind = 'link' | 'image' | 'video';

export type UrlCheck =
  | { ok: true; url: string; /** Set when mailto header fields were dropped. */ stripped?: string[] }
  | { ok: false; reason: string };

const BASE = 'https://preview.invalid/';
// C0/C1 controls, whitespace, and the invisible characters browsers drop from URLs.
const STRIP = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const MAILTO_FIELDS = new Set(['subject', 'body', 'cc', 'bcc']);
const MAX_URL = 4096;

export function checkUrl(raw: unknown, kind: UrlKind): UrlCheck {
  if (typeof raw !== 'string') return { ok: false, reason: 'is not a string' };
  const value = raw.replace(STRIP, '');
  if (value === '') return { ok: false, reason: 'is empty' };
  if (value.length > MAX_URL) return { ok: false, reason: 'is too long' };
  // `\` is a path separator to the URL parser, so `/\evil` is `//evil`.
  if (value.startsWith('/')) {
    if (value[1] === '/' || value[1] === '\\') return { ok: false, reason: 'is protocol-relative (//host)' };
    const u = parse(value, BASE);
    if (!u || u.origin !== 'https://preview.invalid') return { ok: false, reason: 'is not an in-site path' };
    return { ok: true, url: u.pathname + u.search + u.hash };
  }
  if (value.startsWith('#')) {
    if (kind !== 'link') return { ok: false, reason: 'is a fragment, not a media source' };
    const u = parse(value, BASE);
    return u ? { ok: true, url: u.hash || '#' } : { ok: false, reason: 'does not parse' };
  }
  if (!SCHEME.test(value)) {
    if (kind !== 'link' && /^assets\//i.test(value)) {
      const u = parse(value, BASE);
      if (u && u.origin === 'https://preview.invalid' && u.pathname.startsWith('/assets/')) {
        return { ok: true, url: u.pathname.slice(1) + u.search + u.hash };
      }
    }
    return { ok: false, reason: 'is a relative path (use /…, #… or assets/…)' };
  }
  const u = parse(value, undefined);
  if (!u) return { ok: false, reason: 'does not parse' };
  const scheme = u.protocol;
  if (scheme === 'http:' || scheme === 'https:') {
    if (kind === 'video' && scheme !== 'https:') return { ok: false, reason: 'video must be https' };
    if (u.hostname === '') return { ok: false, reason: 'has no host' };
    if (u.username !== '' || u.password !== '') return { ok: false, reason: 'carries credentials' };
    return { ok: true, url: u.href };
  }
  if (scheme === 'mailto:' && kind === 'link') return checkMailto(u);
  return { ok: false, reason: `scheme ${JSON.stringify(scheme.slice(0, 20))} is not allowed` };
}

function parse(value: string, base: string | undefined): URL | undefined {
  try {
    return base === undefined ? new URL(value) : new URL(value, base);
  } catch {
    return undefined;
  }
}

// Keep only subject/body/cc/bcc, decoded first (`%61ttach` is `attach`), and drop any whose value
// holds CR/LF (header smuggling). Kept fields are re-encoded from their decoded value.
function checkMailto(u: URL): UrlCheck {
  const to = u.pathname;
  if (/[\r\n]/.test(safeDecode(to) ?? '\n')) return { ok: false, reason: 'mailto address holds a line break' };
  const kept: string[] = [];
  const stripped: string[] = [];
  const query = u.search.startsWith('?') ? u.search.slice(1) : u.search;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = safeDecode(eq < 0 ? pair : pair.slice(0, eq));
    const val = safeDecode(eq < 0 ? '' : pair.slice(eq + 1));
    const lname = name?.toLowerCase();
    if (lname === undefined || val === undefined || !MAILTO_FIELDS.has(lname) || (lname !== 'body' && /[\r\n]/.test(val))) {
      stripped.push((name ?? pair).slice(0, 40));
      continue;
    }
    kept.push(`${lname}=${encodeURIComponent(val)}`);
  }
  const url = `mailto:${to}${kept.length > 0 ? `?${kept.join('&')}` : ''}`;
  return stripped.length > 0 ? { ok: true, url, stripped } : { ok: true, url };
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
