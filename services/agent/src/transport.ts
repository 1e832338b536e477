// The seam between an agent and a door. Today: HTTP (WeftHttpClient), the Yjs peer (WeftPeer,
// with presence and ghosts) and an in-memory pipeline for pure tests and the acceptance bench.
import { randomUUID } from 'node:crypto';
import { applyStep, cloneJson, emptyDraft } from '@weft/core';
import type { Draft, Note, Op, Refusal } from '@weft/core';
import type { PeerPresence, WeftHttpClient, WeftPeer } from '@weft/client';

export interface SubmitResult { version: number; applied: Op[]; repairs: Note[]; refused: Refusal[] }
export interface SubmitOpts { turnId?: string; opId?: string }

export interface BuildTransport {
  /** The draft as the door has it now. */
  draft(): Promise<{ draft: Draft; version: number }>;
  /** One step through the pipeline. Door errors (budget, auth, closed session) throw. */
  submit(ops: unknown[], opts: SubmitOpts): Promise<SubmitResult>;
  /** Ends a turn: RUN_FINISHED. Returns the turn's summary (op counts) when the door gives one. */
  finishTurn?(turnId: string): Promise<Record<string, number> | null>;
  /** The op budget of one turn, when the door has one. */
  opsPerTurn?: number;
  presence?(p: PeerPresence): void;
  /** The op being written (null when done): shown to viewers, never stored. */
  ghost?(op: unknown | null): void;
  close?(): Promise<void>;
}

export class HttpBuildTransport implements BuildTransport {
  readonly client: WeftHttpClient;
  readonly draftId: string;
  sessionId: string | undefined;
  opsPerTurn?: number;

  constructor(client: WeftHttpClient, draftId: string) {
    this.client = client;
    this.draftId = draftId;
  }

  /** Opens a build session (budgets come with it); submits then carry its id. */
  async open(): Promise<this> {
    const s = await this.client.openSession(this.draftId);
    this.sessionId = s.sessionId;
    const budget = (s as { budgets?: { opsPerTurn?: number } }).budgets?.opsPerTurn;
    if (typeof budget === 'number') this.opsPerTurn = budget;
    return this;
  }

  async draft(): Promise<{ draft: Draft; version: number }> {
    const d = await this.client.getDraft(this.draftId);
    return { draft: d.draft, version: d.version };
  }

  async submit(ops: unknown[], opts: SubmitOpts): Promise<SubmitResult> {
    return this.client.submit(this.draftId, {
      opId: opts.opId ?? `agent-${randomUUID()}`, ops,
      ...(opts.turnId ? { turnId: opts.turnId } : {}), ...(this.sessionId ? { sessionId: this.sessionId } : {}),
    });
  }

  async finishTurn(turnId: string): Promise<Record<string, number> | null> {
    return (await this.client.finishTurn(this.draftId, turnId)).summary;
  }

  async close(): Promise<void> {
    if (this.sessionId) await this.client.closeSession(this.sessionId).catch(() => undefined);
  }
}

/** The Yjs door: presence and ghosts through awareness; submits as stateless messages. */
export class PeerBuildTransport implements BuildTransport {
  readonly peer: WeftPeer;
  constructor(peer: WeftPeer) {
    this.peer = peer;
  }
  async draft(): Promise<{ draft: Draft; version: number }> {
    return { draft: this.peer.draft(), version: -1 };
  }
  async submit(ops: unknown[], opts: SubmitOpts): Promise<SubmitResult> {
    const r = await this.peer.submit(ops, { ...(opts.turnId ? { turnId: opts.turnId } : {}), ...(opts.opId ? { opId: opts.opId } : {}) });
    if (!r.ok) throw Object.assign(new Error(r.error ? `${r.error.code}: ${r.error.message}` : 'submit failed'), { code: r.error?.code });
    return { version: r.version, applied: r.applied, repairs: r.repairs, refused: r.refused };
  }
  presence(p: PeerPresence): void {
    this.peer.setPresence(p);
  }
  ghost(op: unknown | null): void {
    this.peer.setGhost(op === null ? null : { op, partial: true });
  }
  async close(): Promise<void> {
    this.peer.close();
  }
}

/** The pipeline in memory (no service): pure tests and the acceptance bench. */
export class LocalBuildTransport implements BuildTransport {
  doc: Draft;
  version = 0;
  opsPerTurn?: number;
  readonly log: SubmitResult[] = [];
  ghost?: (op: unknown | null) => void;

  constructor(draft: Draft = emptyDraft('local'), opsPerTurn?: number) {
    this.doc = draft;
    if (opsPerTurn !== undefined) this.opsPerTurn = opsPerTurn;
  }
  async draft(): Promise<{ draft: Draft; version: number }> {
    return { draft: cloneJson(this.doc as never) as unknown as Draft, version: this.version };
  }
  async submit(ops: unknown[]): Promise<SubmitResult> {
    const r = applyStep(this.doc, ops);
    if (r.applied.length > 0) this.version++;
    const out = { version: this.version, applied: r.applied, repairs: r.notes, refused: r.refused };
    this.log.push(out);
    return out;
  }
}
