// Test-only: a small scanner over the renderer's own output (not a general HTML parser). Our
// output escapes every `<` in text and in JSON script bodies, so each `<letter` starts a tag.

export interface Tag { name: string; attrs: [string, string][]; closing: boolean }

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z0-9]+);?/gi, (m, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16) || 0xfffd);
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10) || 0xfffd);
    return ENTITIES[lower] ?? m;
  });
}

export function scanTags(html: string): Tag[] {
  const tags: Tag[] = [];
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    const m = /^<(\/?)([a-zA-Z][^\s/>]*)/.exec(html.slice(lt, lt + 64));
    if (!m) { i = lt + 1; continue; }
    const tag: Tag = { name: (m[2] ?? '').toLowerCase(), attrs: [], closing: m[1] === '/' };
    let j = lt + m[0].length;
    for (;;) {
      while (j < html.length && /[\s/]/.test(html[j] ?? '')) j++;
      if (j >= html.length || html[j] === '>') { j++; break; }
      const nm = /^[^\s/>=]+/.exec(html.slice(j));
      const name = (nm?.[0] ?? html[j] ?? '').toLowerCase();
      j += Math.max(1, name.length);
      let value = '';
      if (html[j] === '=') {
        j++;
        const q = html[j];
        if (q === '"' || q === "'") {
          const end = html.indexOf(q, j + 1);
          value = html.slice(j + 1, end < 0 ? html.length : end);
          j = end < 0 ? html.length : end + 1;
        } else {
          const vm = /^[^\s>]*/.exec(html.slice(j));
          value = vm?.[0] ?? '';
          j += value.length;
        }
      }
      tag.attrs.push([name, decodeEntities(value)]);
    }
    tags.push(tag);
    // Raw-text elements: skip to their end tag.
    if (!tag.closing && (tag.name === 'script' || tag.name === 'style' || tag.name === 'textarea' || tag.name === 'title')) {
      const end = html.toLowerCase().indexOf(`</${tag.name}`, j);
      j = end < 0 ? html.length : end;
    }
    i = j;
  }
  return tags;
}

/** Every way the output could run script, as human-readable findings (empty = clean). */
export function xssFindings(html: string, allowedTags: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const t of scanTags(html)) {
    if (t.closing) continue;
    if (!allowedTags.has(t.name)) out.push(`unexpected <${t.name}>`);
    if (t.name === 'script') {
      const type = t.attrs.find(([n]) => n === 'type')?.[1];
      if (type !== 'application/json') out.push('executable <script>');
      if (t.attrs.some(([n]) => n === 'src')) out.push('<script src>');
    }
    for (const [name, value] of t.attrs) {
      if (/^on/i.test(name)) out.push(`event handler ${name} on <${t.name}>`);
      if (name === 'style') out.push(`style attribute on <${t.name}>`);
      if (name === 'srcdoc' || name === 'formaction' || name === 'action' || name.includes(':')) out.push(`attribute ${name} on <${t.name}>`);
      if (name === 'href' || name === 'src' || name === 'poster' || name === 'data') {
        const cleaned = value.replace(/[\u0000-\u0020\u007f-\u00a0\u2028\u2029\ufeff]/g, '').toLowerCase();
        if (/^(javascript|data|vbscript|file):/.test(cleaned)) out.push(`${name}=${JSON.stringify(value)} on <${t.name}>`);
        if (cleaned.startsWith('//') || cleaned.startsWith('/\\')) out.push(`protocol-relative ${name} on <${t.name}>`);
      }
    }
  }
  return out;
}
