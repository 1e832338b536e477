// Work that came due per key, run in batches: each batch takes the oldest waiting item of up to
// `maxBatch` keys, and one batch runs at a time, so a key's items run in order and never two at
// once. Items that arrive while a batch runs wait for the next one: a burst (a thousand drafts due
// in the same second) becomes a few batches, not a thousand round trips of each kind.
// With `perSecond`, batches are paced: a burst is spread over seconds in small batches instead of
// taking the CPU it shares with the services that answer users all at once.

interface Waiting<T, R> { item: T; resolve(r: R): void; reject(e: unknown): void }

/** `run` answers each item of the batch in order: a value, or an Error for that item alone (a throw fails the whole batch). */
export type RunBatch<T, R> = (items: T[]) => Promise<(R | Error)[]>;

export class DueQueue<T, R> {
  private readonly waiting = new Map<string, Waiting<T, R>[]>();
  private running: Promise<void> | null = null;
  private readonly maxBatch: number;
  private readonly run: RunBatch<T, R>;
  private readonly perSecond: number;
  /** While set (hurry()), batches run back to back at full size. */
  private hurrying = 0;
  /** Ends the current pause early (set while one runs). */
  private wake: (() => void) | null = null;

  /** `perSecond`: items started per second at most (Infinity: unpaced). */
  constructor(maxBatch: number, run: RunBatch<T, R>, perSecond = Infinity) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError(`maxBatch must be an integer ≥ 1, got ${maxBatch}`);
    if (!(perSecond > 0)) throw new RangeError(`perSecond must be > 0, got ${perSecond}`);
    this.maxBatch = maxBatch;
    this.run = run;
    this.perSecond = perSecond;
  }

  /** Runs `work` with pacing off (a shutdown's last snapshots should not wait their turn). */
  async hurry<X>(work: () => Promise<X>): Promise<X> {
    this.hurrying++;
    this.wake?.();
    try { return await work(); } finally { this.hurrying--; }
  }

  add(key: string, item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const entry = { item, resolve, reject };
      const list = this.waiting.get(key);
      if (list) list.push(entry); else this.waiting.set(key, [entry]);
      this.running ??= this.drain();
    });
  }

  /** Items waiting, over all keys. */
  get size(): number {
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }

  /** Resolves once nothing waits and no batch runs. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    // The rest of this turn's items (a bus message handler per draft) join the first batch.
    await new Promise((r) => setImmediate(r));
    while (this.waiting.size > 0) {
      const paced = this.hurrying === 0 && Number.isFinite(this.perSecond);
      // Paced, a batch holds at most a tenth of a second's share: small pieces, evenly spaced.
      const size = paced ? Math.min(this.maxBatch, Math.max(1, Math.ceil(this.perSecond / 10))) : this.maxBatch;
      const started = performance.now();
      const batch: Waiting<T, R>[] = [];
      for (const [key, list] of this.waiting) {
        batch.push(list.shift()!);
        if (list.length === 0) this.waiting.delete(key);
        if (batch.length === size) break;
      }
      let answers: (R | Error)[] | null = null;
      let failure: unknown;
      try {
        answers = await this.run(batch.map((w) => w.item));
      } catch (e) {
        failure = e;
      }
      batch.forEach((w, i) => {
        const a = answers ? answers[i] : failure;
        if (!answers || a instanceof Error) w.reject(a); else w.resolve(a as R);
      });
      if (paced && this.waiting.size > 0) await this.pause(started + (batch.length * 1000) / this.perSecond - performance.now());
    }
    // Synchronous with the last check above: an add() after this line starts a new drain.
    this.running = null;
  }

  /** Waits `ms`, or less if hurry() is called meanwhile. */
  private pause(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => { this.wake = null; resolve(); }, ms);
      this.wake = () => { clearTimeout(t); this.wake = null; resolve(); };
    });
  }
}
