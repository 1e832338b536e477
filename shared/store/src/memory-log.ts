import { err, ok } from './result.ts';
import type { Result } from '@weft/core';
import type { RoomLog } from './room-log.ts';
import type { AppendError, NewStep, StoredStep } from './types.ts';
import type { Fence } from './leases.ts';

/**
 * The event log in memory: the same answers as the Postgres append (expected version, durable
 * opIds, all or nothing), for room tests without a database. `failNext` makes the next appends
 * fail the way a lost connection does (the outcome unknown to the caller), optionally after
 * writing (`landed: true`: the COMMIT happened, only the answer was lost).
 */
export class MemoryLog implements RoomLog {
  private readonly drafts = new Map<string, StoredStep[]>();
  private position = 0;
  private failures: { landed: boolean; error: Error }[] = [];
  /** Every append call, for tests of batching. */
  readonly appends: { draftId: string; expectedVersion: number; opIds: string[] }[] = [];
  /** Resolve appends only when this promise settles (tests hold a commit open). */
  gate: Promise<void> | null = null;

  /** Who holds each draft's lease (tests of fencing); absent = no lease checked. */
  readonly leases = new Map<string, Fence>();

  createDraft(id: string): boolean {
    if (this.drafts.has(id)) return false;
    this.drafts.set(id, []);
    return true;
  }

  failNext(n = 1, landed = false, message = 'connection lost'): void {
    for (let i = 0; i < n; i++) this.failures.push({ landed, error: Object.assign(new Error(message), { code: 'ECONNRESET' }) });
  }

  async append(draftId: string, expectedVersion: number, steps: readonly NewStep[], fence?: Fence): Promise<Result<StoredStep[], AppendError>> {
    this.appends.push({ draftId, expectedVersion, opIds: steps.map((s) => s.opId) });
    if (this.gate) await this.gate;
    await Promise.resolve();
    const failure = this.failures.shift();
    if (failure && !failure.landed) throw failure.error;
    const log = this.drafts.get(draftId);
    if (!log) return err({ code: 'NOT_FOUND', draftId });
    const lease = this.leases.get(draftId);
    if (fence && (lease?.node !== fence.node || lease.epoch !== fence.epoch)) return err({ code: 'FENCED', owner: lease?.node ?? null, epoch: lease?.epoch ?? 0 });
    if (log.length !== expectedVersion) return err({ code: 'VERSION_CONFLICT', currentVersion: log.length });
    const seen = new Set<string>();
    for (const s of steps) {
      if (seen.has(s.opId)) return err({ code: 'IDEMPOTENCY_CONFLICT', opId: s.opId });
      seen.add(s.opId);
    }
    const old = log.filter((s) => seen.has(s.opId)).map((s) => s.opId);
    if (old.length > 0) return err({ code: 'IDEMPOTENCY_CONFLICT', opId: old[0]!, ...(old.length > 1 ? { opIds: old } : {}) });
    const createdAt = new Date();
    const stored = steps.map((s, i): StoredStep => ({
      draftId, version: expectedVersion + 1 + i, position: ++this.position, createdAt,
      opId: s.opId, bodyHash: s.bodyHash, actor: s.actor, actorKind: s.actorKind,
      sessionId: s.sessionId ?? null, turnId: s.turnId ?? null,
      ops: s.ops, inverse: s.inverse, notes: s.notes, refused: s.refused,
      yUpdate: s.yUpdate ?? null, kind: s.kind ?? 'do', undoOf: s.undoOf ?? [],
    }));
    log.push(...stored);
    if (failure) throw failure.error;
    return ok(stored);
  }

  async findByOpIds(draftId: string, opIds: readonly string[]): Promise<Map<string, StoredStep>> {
    const want = new Set(opIds);
    const out = new Map<string, StoredStep>();
    for (const s of this.drafts.get(draftId) ?? []) if (want.has(s.opId)) out.set(s.opId, s);
    return out;
  }

  /** The last version of each actor's last finished turn per draft (the Postgres log keeps it in turns). */
  readonly finishedTurns = new Map<string, number>();

  async actorOpsSinceTurn(draftId: string, actor: string): Promise<number> {
    const after = this.finishedTurns.get(`${draftId}/${actor}`) ?? 0;
    let n = 0;
    for (const s of this.drafts.get(draftId) ?? []) if (s.actor === actor && s.version > after) n += s.ops.length;
    return n;
  }

  async turnOpCount(draftId: string, turnId: string): Promise<number> {
    let n = 0;
    for (const s of this.drafts.get(draftId) ?? []) if (s.turnId === turnId) n += s.ops.length;
    return n;
  }

  /** Steps after `after`, in version order (tests read the log back). */
  steps(draftId: string, after = 0): StoredStep[] {
    return (this.drafts.get(draftId) ?? []).slice(after);
  }
}
