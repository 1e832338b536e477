// Optimal string alignment (restricted Damerau-Levenshtein) distance, bounded: repair only cares
// about distances ≤ 2, so rows stop early once every cell exceeds the bound.

export function editDistance(a: string, b: string, bound = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const n = a.length;
  const m = b.length;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = new Array<number>(m + 1);
  let cur = new Array<number>(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        v = Math.min(v, prev2[j - 2]! + 1);
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > bound) return bound + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m]!;
}

/** The unique nearest candidate within `max` edits, or null (no match, or a tie). */
export function nearest(word: string, candidates: readonly string[], max = 2): string | null {
  let best: string | null = null;
  let bestD = max + 1;
  let tie = false;
  for (const c of candidates) {
    const d = editDistance(word, c, max);
    if (d < bestD) {
      best = c;
      bestD = d;
      tie = false;
    } else if (d === bestD) tie = true;
  }
  return best !== null && !tie && bestD <= max ? best : null;
}

/** A name with case and separators set aside: `PricingTable`, `pricing_table` → `pricingtable`. */
export const foldName = (s: string): string => s.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * The candidate a wrong name means: the unique one equal to it case- and separator-folded
 * (`PricingTable` → `pricing-table`, however far apart by edits), else `nearest` within `max`.
 */
export function snapName(word: string, candidates: readonly string[], max = 2): string | null {
  const folded = foldName(word);
  const same = candidates.filter((c) => foldName(c) === folded);
  if (same.length === 1) return same[0]!;
  return same.length > 1 ? null : nearest(word, candidates, max);
}
