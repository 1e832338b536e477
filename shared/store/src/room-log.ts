import type { Result } from '@weft/core';
import type { AppendError, NewStep, StoredStep } from './types.ts';
import type { Fence } from './leases.ts';

/**
 * The port a draft's room commits through (CONVENTIONS.md "Inside a service"): three members, so
 * the room can be tested against an in-memory log with no database. `EventStore` (Postgres or
 * PGlite) and `MemoryLog` implement it and pass one contract suite (room-log-contract.ts).
 */
export interface RoomLog {
  /**
   * Steps as versions expectedVersion+1..+n, all or nothing; an old opId writes nothing and is
   * named. With a fence, only while that node still holds the draft's lease at that epoch (FENCED).
   */
  append(draftId: string, expectedVersion: number, steps: readonly NewStep[], fence?: Fence): Promise<Result<StoredStep[], AppendError>>;
  findByOpIds(draftId: string, opIds: readonly string[]): Promise<Map<string, StoredStep>>;
  /** Ops already committed under a turn (the turn budget survives a reload). */
  turnOpCount(draftId: string, turnId: string): Promise<number>;
  /** Ops an actor committed on the draft since it last finished a turn (the agent's budget survives a reload). */
  actorOpsSinceTurn(draftId: string, actor: string): Promise<number>;
}
