// The smallest single-range edit from one string to another (common prefix and suffix), so that
// typing into a field becomes Y.Text insert/delete of just those characters and concurrent
// typists in one field both keep theirs.
export interface TextEdit { index: number; remove: number; insert: string }

export function diffText(a: string, b: string, caret?: number): TextEdit | null {
  if (a === b) return null;
  let p = 0;
  const maxP = Math.min(a.length, b.length);
  while (p < maxP && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  // With a caret, the edit ends at the caret in b: "aa" → "aaa" with the caret at 1 inserts at 0.
  if (caret !== undefined && caret <= b.length) p = Math.min(p, caret - Math.max(0, b.length - a.length));
  if (p < 0) p = 0;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return { index: p, remove: a.length - p - s, insert: b.slice(p, b.length - s) };
}

/** Where a caret at `pos` goes after an edit made by someone else. */
export function shiftCaret(pos: number, e: TextEdit): number {
  if (pos <= e.index) return pos;
  if (pos >= e.index + e.remove) return pos - e.remove + e.insert.length;
  return e.index + e.insert.length;
}
