// Deterministic id rewriting to Weft's `[a-z][a-z0-9-]{0,40}` (PROTOCOLS.md §5 `id-renamed`).

export const ID_PATTERN = /^[a-z][a-z0-9-]{0,40}$/;

/** The same foreign id always maps to the same Weft id within one mapper; collisions get `-2`, `-3`… */
export class IdMapper {
  readonly #map = new Map<string, string>();
  readonly #used = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const r of reserved) this.#used.add(r);
  }

  /** Ids that are already valid keep themselves (first come), so round trips are exact. */
  map(foreign: string): string {
    const known = this.#map.get(foreign);
    if (known !== undefined) return known;
    let base = ID_PATTERN.test(foreign) ? foreign : slug(foreign);
    let candidate = base;
    for (let n = 2; this.#used.has(candidate); n++) {
      const suffix = `-${n}`;
      base = base.slice(0, 41 - suffix.length);
      candidate = base + suffix;
    }
    this.#used.add(candidate);
    this.#map.set(foreign, candidate);
    return candidate;
  }

  /** Forces a mapping (e.g. a foreign root element → "root"); call before any other map. */
  pin(foreign: string, id: string): void {
    this.#used.add(id);
    this.#map.set(foreign, id);
  }

  /** Claim a Weft id for a component we generate (e.g. a TabPanel), avoiding collisions. */
  fresh(wanted: string): string {
    return this.map(`\u0000${wanted}`);
  }

  renamed(): Array<[string, string]> {
    return [...this.#map].filter(([f, t]) => f !== t && !f.startsWith('\u0000'));
  }
}

export function slug(s: string): string {
  let out = s
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!/^[a-z]/.test(out)) out = `c-${out}`.replace(/-+$/, '');
  return out.slice(0, 41).replace(/-+$/, '') || 'c';
}
