import type { Kysely } from 'kysely';
import type { Result } from '@weft/core';
import type { DB } from './schema.ts';
import type { AppendError, NewStep, StoredStep } from './types.ts';
import type { Fence } from './leases.ts';
import { append } from './append.ts';
import { appendMany } from './append-many.ts';
import type { DraftBatch } from './append-many.ts';
import { pgCode } from './rows.ts';

interface Queued extends DraftBatch { resolve(r: Result<StoredStep[], AppendError>): void; reject(e: unknown): void }

/**
 * Appends from every draft of a tick go out together: one statement for all ready batches, at most
 * `maxInFlight` statements at a time (the rest wait and join the next one, so batches grow under
 * load instead of queueing on the pool). A statement that fails on a duplicate opId (or any
 * non-connection error) is retried one draft at a time, so one draft's retry never fails another's
 * commit; a lost connection rejects every batch of the statement (outcome unknown to each room).
 */
export class GroupCommit {
  private readonly db: Kysely<DB>;
  private readonly maxInFlight: number;
  private queue: Queued[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** Statements issued and batches carried (metrics, benchmarks). */
  readonly stats = { statements: 0, batches: 0, fallbacks: 0, /** wall time of the statements, summed */ seconds: 0 };

  constructor(db: Kysely<DB>, maxInFlight = 2) {
    this.db = db;
    this.maxInFlight = maxInFlight;
  }

  append(draftId: string, expectedVersion: number, steps: readonly NewStep[], fence?: Fence): Promise<Result<StoredStep[], AppendError>> {
    return new Promise((resolve, reject) => {
      this.queue.push({ draftId, expectedVersion, steps, fence, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.issue();
    });
  }

  private issue(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      // One batch per draft per statement (a second batch of a draft waits for the next one:
      // its expected version depends on the first).
      const take: Queued[] = [];
      const rest: Queued[] = [];
      const drafts = new Set<string>();
      for (const q of this.queue) {
        if (drafts.has(q.draftId)) rest.push(q);
        else {
          drafts.add(q.draftId);
          take.push(q);
        }
      }
      this.queue = rest;
      this.inFlight++;
      void this.run(take).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async run(take: Queued[]): Promise<void> {
    this.stats.statements++;
    this.stats.batches += take.length;
    const t0 = performance.now();
    try {
      await this.write(take);
    } finally {
      this.stats.seconds += (performance.now() - t0) / 1000;
    }
  }

  private async write(take: Queued[]): Promise<void> {
    if (take.length === 1 || take.some((q) => q.steps.length === 0 || hasDuplicateOpIds(q.steps))) return this.oneByOne(take);
    try {
      const results = await appendMany(this.db, take);
      take.forEach((q, i) => q.resolve(results[i]!));
    } catch (e) {
      if (isConnectionError(e)) {
        for (const q of take) q.reject(e);
        return;
      }
      // A duplicate opId (23505) or anything else of one draft's making: nothing was written;
      // each draft on its own, so the others still commit and the duplicate is named.
      this.stats.fallbacks++;
      await this.oneByOne(take);
    }
  }

  private async oneByOne(take: Queued[]): Promise<void> {
    await Promise.all(take.map(async (q) => {
      try {
        q.resolve(await append(this.db, q.draftId, q.expectedVersion, q.steps, q.fence));
      } catch (e) {
        q.reject(e);
      }
    }));
  }
}

function hasDuplicateOpIds(steps: readonly NewStep[]): boolean {
  return new Set(steps.map((s) => s.opId)).size !== steps.length;
}

/** Errors after which the statement's outcome is unknown (it may have committed). */
function isConnectionError(e: unknown): boolean {
  const code = pgCode(e);
  if (code === '23505') return false;
  return code === undefined || /^(ECONN|EPIPE|ETIMEDOUT|CONNECT|CONNECTION_|08|57P)/.test(code);
}
