// The renderer's HTML read back as a tree, for the React export (one renderer is the truth; the
// export only changes its notation). Not a general HTML parser: it reads what render.ts writes
// (double-quoted, escaped attributes; escaped text; JSON in script elements) and stays total on
// anything else — an unknown entity stays literal, a stray end tag is dropped, nothing throws.

export interface El { tag: string; attrs: [string, string][]; children: Node[] }
export type Node = El | string;

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const RAW = new Set(['script', 'style', 'textarea', 'title']);
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', colon: ':' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '\ufffd';
    }
    return Object.hasOwn(NAMED, e) ? NAMED[e]! : m;
  });
}

const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/y;

function readAttrs(src: string, from: number): { attrs: [string, string][]; end: number; selfClosing: boolean } {
  const attrs: [string, string][] = [];
  let i = from;
  for (;;) {
    while (i < src.length && /\s/.test(src[i]!)) i++;
    if (i >= src.length) return { attrs, end: i, selfClosing: false };
    if (src[i] === '>') return { attrs, end: i + 1, selfClosing: false };
    if (src.startsWith('/>', i)) return { attrs, end: i + 2, selfClosing: true };
    if (src[i] === '/') { i++; continue; }
    ATTR.lastIndex = i;
    const m = ATTR.exec(src);
    if (!m) { i++; continue; }
    attrs.push([m[1]!, decodeEntities(m[2] ?? m[3] ?? m[4] ?? '')]);
    i = ATTR.lastIndex;
  }
}

/** The children of an implied root: elements and (decoded) text, in order. */
export function parseMarkup(src: string): Node[] {
  const root: El = { tag: '#root', attrs: [], children: [] };
  const stack: El[] = [root];
  const top = (): El => stack[stack.length - 1]!;
  let i = 0;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    const textEnd = lt === -1 ? src.length : lt;
    if (textEnd > i) top().children.push(decodeEntities(src.slice(i, textEnd)));
    if (lt === -1) break;
    if (src.startsWith('<!--', lt)) {
      const end = src.indexOf('-->', lt + 4);
      i = end === -1 ? src.length : end + 3;
      continue;
    }
    const close = /^<\/([a-zA-Z][a-zA-Z0-9:-]*)\s*>/.exec(src.slice(lt, lt + 64));
    if (close) {
      const name = close[1]!.toLowerCase();
      const at = stack.map((e) => e.tag.toLowerCase()).lastIndexOf(name);
      if (at > 0) stack.length = at; // closes it (and anything left open inside it)
      i = lt + close[0].length;
      continue;
    }
    const open = /^<([a-zA-Z][a-zA-Z0-9:-]*)/.exec(src.slice(lt, lt + 64));
    if (!open) { top().children.push('<'); i = lt + 1; continue; }
    const tag = open[1]!;
    const { attrs, end, selfClosing } = readAttrs(src, lt + open[0].length);
    const el: El = { tag, attrs, children: [] };
    top().children.push(el);
    i = end;
    const lower = tag.toLowerCase();
    if (RAW.has(lower)) {
      const endTag = src.toLowerCase().indexOf(`</${lower}`, i);
      const body = src.slice(i, endTag === -1 ? src.length : endTag);
      if (body !== '') el.children.push(lower === 'textarea' || lower === 'title' ? decodeEntities(body) : body);
      const gt = endTag === -1 ? -1 : src.indexOf('>', endTag);
      i = gt === -1 ? src.length : gt + 1;
    } else if (!selfClosing && !VOID.has(lower)) {
      stack.push(el);
    }
  }
  return root.children;
}
