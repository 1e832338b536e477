// Test-only: appends steps to the real event store with Yjs updates on the session's lineage
// (genesis + a random-client doc, as a session process records them) and publishes each version
// on a bus the way the session does (STATE_DELTA with the applied ops).
import * as Y from 'yjs';
import { applyOpsUnchecked, emptyDraft } from '@weft/core';
import type { Draft, Op } from '@weft/core';
import type { Bus } from '@weft/bus';
import type { EventStore } from '@weft/store';
import { applyOpsToYDoc } from '@weft/ydoc';
import { genesis } from '@weft/ydoc';

let counter = 0;
export const freshId = (): string => `ck-${process.pid}-${Date.now().toString(36)}-${counter++}`;

export async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface Writer {
  readonly draftId: string;
  version: number;
  /** Every update since genesis: what a long-connected client holds. */
  readonly history: Uint8Array[];
  /** Commits one step; publishes it unless `publish` is false (a lost notification). */
  commit(ops: Op[], publish?: boolean): Promise<number>;
  /** Edits i = 0..n-1: one replace of the title per step. */
  edits(n: number, publish?: boolean): Promise<void>;
}

export async function createWriter(store: EventStore, bus: Pick<Bus, 'publish'>, draftId = freshId()): Promise<Writer> {
  const created = await store.createDraft({ id: draftId, title: '', createdBy: 'test' });
  if (!created.ok) throw new Error(`draft ${draftId} exists`);
  const doc = new Y.Doc({ gc: true });
  const g = genesis(draftId, 0);
  Y.applyUpdate(doc, g);
  const w: Writer = {
    draftId,
    version: 0,
    history: [g],
    async commit(ops, publish = true) {
      const sv = Y.encodeStateVector(doc);
      applyOpsToYDoc(doc, ops);
      const yUpdate = Y.encodeStateAsUpdate(doc, sv);
      const r = await store.append(draftId, w.version, [{ opId: `op-${w.version + 1}`, bodyHash: `h${w.version + 1}`, actor: 'test', actorKind: 'human', ops, inverse: [], notes: [], refused: [], yUpdate }]);
      if (!r.ok) throw new Error(`append failed: ${JSON.stringify(r.error)}`);
      w.version++;
      w.history.push(yUpdate);
      if (publish) await bus.publish(draftId, { draftId, version: w.version, events: [{ type: 'STATE_DELTA', delta: ops }] });
      return w.version;
    },
    async edits(n, publish = true) {
      for (let i = 0; i < n; i++) await w.commit([{ op: 'replace', path: '/title', value: `title ${w.version + 1}` }], publish);
    },
  };
  return w;
}

/** The draft by replaying the whole log from version 0 (no snapshot). */
export async function fullReplay(store: EventStore, draftId: string): Promise<{ draft: Draft; version: number }> {
  const draft = emptyDraft(draftId);
  let version = 0;
  for (const s of await store.readSteps(draftId)) {
    const r = applyOpsUnchecked(draft, s.ops);
    if (!r.ok) throw new Error(`replay v${s.version}: ${r.error.message}`);
    version = s.version;
  }
  return { draft, version };
}
