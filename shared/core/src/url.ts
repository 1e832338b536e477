// The URL policy of docs/catalog.md: http, https, mailto, in-site paths "/…" or "#…"; media may
// also use relative asset paths "assets/…"; Video only https. Checked by prefix, no URL parsing
// of hostile input beyond that.

export type UrlKind = 'url' | 'media' | 'https';

function hasControlOrSpace(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 32 || c === 127 || c === 92 /* backslash */) return true;
  }
  return false;
}

export function isAllowedUrl(value: string, kind: UrlKind = 'url'): boolean {
  if (value.length === 0 || value.length > 2048 || hasControlOrSpace(value)) return false;
  const lower = value.toLowerCase();
  if (kind === 'https') return lower.startsWith('https://') && value.length > 8;
  if (lower.startsWith('https://') || lower.startsWith('http://')) return value.length > lower.indexOf('//') + 2;
  if (kind === 'url' && lower.startsWith('mailto:')) return value.length > 7;
  // "//host" is protocol-relative, i.e. off-site: not an in-site path.
  if (value.startsWith('/')) return !value.startsWith('//');
  if (value.startsWith('#')) return true;
  if (kind === 'media' && lower.startsWith('assets/')) return !value.includes('..');
  return false;
}

export function urlPolicyText(kind: UrlKind): string {
  switch (kind) {
    case 'https':
      return 'an https:// URL';
    case 'media':
      return 'an http(s) URL, an in-site path "/…" or "#…", or an asset path "assets/…"';
    case 'url':
      return 'an http(s) or mailto: URL, or an in-site path "/…" or "#…"';
  }
}
