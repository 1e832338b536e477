// The numeric limits of RFC §1 and RELIABILITY.md, in one place so docs, tests and the prompt agree.
export const Limits = {
  /** Components per surface. */
  maxComponents: 200,
  /** Surface data model, as JSON text (UTF-16 code units of JSON.stringify). */
  maxDataBytes: 64 * 1024,
  /** Surfaces per page. */
  maxSurfaces: 30,
  /** Tree depth: root is level 1. */
  maxTreeDepth: 8,
  /** Any string value in an op or a draft. */
  maxString: 64 * 1024,
  /** Nesting depth of any JSON value. */
  maxNesting: 64,
  /** Items in any array. */
  maxArray: 10_000,
  /** One op, as JSON text. */
  maxOpBytes: 256 * 1024,
  /** The page title. */
  maxTitle: 1000,
  /** Surfaces with held ops at once (RFC status: "at most 3"); a surface's ops wait as one chain. */
  maxHeld: 3,
  /** Held ops at once, all chains together (a surface sent one component per op). */
  maxHeldOps: 200,
  /** Nesting of function calls inside bindable values. */
  maxCallDepth: 4,
  /** Nesting of and/or/not in a condition. */
  maxConditionDepth: 16,
} as const;

export const ID_MAX = 41;

/** `^[a-z][a-z0-9-]{0,40}$`, checked by hand (no regex on hot paths, no surprises). */
export function isValidId(id: unknown): id is string {
  if (typeof id !== 'string' || id.length === 0 || id.length > ID_MAX) return false;
  const c0 = id.charCodeAt(0);
  if (c0 < 97 || c0 > 122) return false;
  for (let i = 1; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45)) return false;
  }
  return true;
}

/** A camelCase, snake_case or spaced id in the kebab-case it means (`heroTitle` → `hero-title`),
 *  or null when that is not a valid id either. */
export function kebabId(id: string): string | null {
  const k = id.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/[\s_]+/g, '-').toLowerCase();
  return k !== id && isValidId(k) ? k : null;
}
