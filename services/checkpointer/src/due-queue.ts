// Work that came due per key, run in batches: each batch takes the oldest waiting item of up to
// `maxBatch` keys, and one batch runs at a time, so a key's items run in order and never two at
// once. Items that arrive while a batch runs wait for the next one: a burst (a thousand drafts due
// in the same second) becomes a few batches, not a thousand round trips of each kind.

interface Waiting<T, R> { item: T; resolve(r: R): void; reject(e: unknown): void }

/** `run` answers each item of the batch in order: a value, or an Error for that item alone (a throw fails the whole batch). */
export type RunBatch<T, R> = (items: T[]) => Promise<(R | Error)[]>;

export class DueQueue<T, R> {
  private readonly waiting = new Map<string, Waiting<T, R>[]>();
  private running: Promise<void> | null = null;
  private readonly maxBatch: number;
  private readonly run: RunBatch<T, R>;

  constructor(maxBatch: number, run: RunBatch<T, R>) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError(`maxBatch must be an integer ≥ 1, got ${maxBatch}`);
    this.maxBatch = maxBatch;
    this.run = run;
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
      const batch: Waiting<T, R>[] = [];
      for (const [key, list] of this.waiting) {
        batch.push(list.shift()!);
        if (list.length === 0) this.waiting.delete(key);
        if (batch.length === this.maxBatch) break;
      }
      let answers: (R | Error)[];
      try {
        answers = await this.run(batch.map((w) => w.item));
      } catch (e) {
        for (const w of batch) w.reject(e);
        continue;
      }
      batch.forEach((w, i) => {
        const a = answers[i];
        if (a instanceof Error) w.reject(a); else w.resolve(a as R);
      });
    }
    // Synchronous with the last check above: an add() after this line starts a new drain.
    this.running = null;
  }
}
