// A small seeded PRNG (sfc32) for fuzz and simulation tests (CONVENTIONS.md §12).
// Print the seed on failure; replay with WEFT_SEED=<seed>.

export interface Prng {
  readonly seed: number;
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** A uniformly chosen element; throws on an empty array. */
  pick<T>(arr: readonly T[]): T;
  /** true with probability p (default 0.5). */
  bool(p?: number): boolean;
  /** A new independent generator derived from this one. */
  fork(): Prng;
}

export function prng(seed: number): Prng {
  let a = 0x9e3779b9, b = 0x243f6a88, c = 0xb7e15162, d = seed >>> 0;
  const next = (): number => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next(); // mix the seed in
  const self: Prng = {
    seed: seed >>> 0,
    next,
    int(n) {
      if (!Number.isInteger(n) || n <= 0) throw new RangeError(`int(n) needs a positive integer, got ${n}`);
      return Math.floor(next() * n);
    },
    pick(arr) {
      if (arr.length === 0) throw new RangeError('pick() from an empty array');
      return arr[Math.floor(next() * arr.length)] as (typeof arr)[number];
    },
    bool(p = 0.5) {
      return next() < p;
    },
    fork() {
      return prng(Math.floor(next() * 4294967296));
    },
  };
  return self;
}

/** WEFT_SEED when set (to replay a failure), else a fresh random seed. */
export function seedFromEnv(env: Record<string, string | undefined> = process.env): number {
  const s = env['WEFT_SEED'];
  if (s !== undefined && s !== '') {
    const n = Number(s);
    if (!Number.isInteger(n)) throw new Error(`WEFT_SEED must be an integer, got ${s}`);
    return n >>> 0;
  }
  return Math.floor(Math.random() * 4294967296) >>> 0;
}
