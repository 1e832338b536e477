// Row → domain conversion. postgres.js returns int8 as string and bytea as Buffer; PGlite returns
// numbers and Uint8Array. Everything leaving the store goes through here.
import type { Selectable } from 'kysely';
import type { Note, Op, Refusal } from '@weft/core';
import type { DraftsTable, EventsTable, SnapshotsTable } from './schema.ts';
import type { DraftMeta, Snapshot, StoredStep } from './types.ts';

export function int(x: string | number | bigint): number {
  const n = Number(x);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 out of safe range: ${String(x)}`);
  return n;
}

export function bytes(x: Uint8Array | null | undefined): Uint8Array | null {
  if (x === null || x === undefined) return null;
  return new Uint8Array(x.buffer.slice(x.byteOffset, x.byteOffset + x.byteLength));
}

export function toDraftMeta(r: Selectable<DraftsTable>): DraftMeta {
  return { id: r.id, title: r.title, createdBy: r.created_by, createdAt: r.created_at, headVersion: int(r.head_version), epoch: r.epoch };
}

export function toStep(r: Selectable<EventsTable>): StoredStep {
  return {
    draftId: r.draft_id,
    version: int(r.version),
    position: int(r.position),
    createdAt: r.created_at,
    opId: r.op_id,
    bodyHash: r.body_hash,
    actor: r.actor,
    actorKind: r.actor_kind,
    sessionId: r.session_id,
    turnId: r.turn_id,
    ops: r.ops as unknown as Op[],
    inverse: r.inverse as unknown as Op[],
    notes: r.notes as unknown as Note[],
    refused: r.refused as unknown as Refusal[],
    yUpdate: bytes(r.y_update),
    kind: r.kind,
    undoOf: (r.undo_of as unknown as number[]).map(Number),
  };
}

export function toSnapshot(r: Selectable<SnapshotsTable>): Snapshot {
  return {
    draftId: r.draft_id, version: int(r.version), epoch: r.epoch, doc: r.doc,
    yState: bytes(r.y_state), reason: r.reason, createdAt: r.created_at,
  };
}

/** Postgres error code of a driver error (both drivers put it on `.code`). */
export function pgCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;
}
