// Pure: which parts of the page a version's ops touched. `/sections/<sid>/…` → that section;
// `/order`, `/title` or the whole `/sections` map → the page structure.
import type { Op } from '@weft/core';

export interface Touched {
  sections: Set<string>;
  /** Order or title changed (or every section, for a `/sections` rewrite). */
  structure: boolean;
  /** Every section may have changed (the `/sections` map itself was replaced). */
  all: boolean;
}

const unescape = (seg: string): string => seg.replace(/~1/g, '/').replace(/~0/g, '~');

export function touched(ops: readonly Op[]): Touched {
  const out: Touched = { sections: new Set(), structure: false, all: false };
  const visit = (path: string): void => {
    const segs = path.split('/').slice(1).map(unescape);
    const head = segs[0];
    if (head === 'sections') {
      const sid = segs[1];
      if (sid === undefined || sid === '') { out.all = true; out.structure = true; return; }
      out.sections.add(sid);
      if (segs.length === 2) out.structure = true; // a section added or removed
    } else if (head === 'order' || head === 'title' || path === '') {
      out.structure = true;
      if (path === '') out.all = true;
    }
  };
  for (const op of ops) {
    visit(op.path);
    if (op.op === 'move') visit(op.from); // copy only reads `from`
  }
  return out;
}
