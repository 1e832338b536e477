import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { Json, Op } from '@weft/core';
import { emptyDraft } from '@weft/core';
import { applyOpsToYDoc, yDocToDraft } from '@weft/ydoc';
import type { PrevSnapshot } from './fold.ts';
import { DraftFold, foldSnapshot, yBaseOf } from './fold.ts';
import type { TailStep } from './fold.ts';
import { genesis } from '@weft/ydoc';
// Test-only: the session's own genesis, to prove both services start the same lineage.

const section = (id: string): Json => ({
  id, kind: 'surface', catalog: 'weft@1', data: {},
  components: { root: { id: 'root', component: 'Stack', children: ['t'] }, t: { id: 't', component: 'Heading', props: { text: id } } },
});

const stepsOps: Op[][] = [
  [{ op: 'add', path: '/title', value: 'Home' }],
  [{ op: 'add', path: '/sections/hero', value: section('hero') }, { op: 'add', path: '/order/-', value: 'hero' }],
  [{ op: 'replace', path: '/sections/hero/components/t/props/text', value: 'Hi' }],
  [{ op: 'add', path: '/sections/faq', value: section('faq') }, { op: 'add', path: '/order/0', value: 'faq' }],
];

/** Steps with Yjs updates from one doc lineage, as the session's mirror records them. */
function lineage(ops: Op[][]): { steps: TailStep[]; doc: Y.Doc; seed: PrevSnapshot } {
  // A new draft's lineage starts from genesis, as the session's DraftDoc.load does (random client
  // id for the edits, like a session process).
  const doc = new Y.Doc();
  Y.applyUpdate(doc, genesis('d1', 0));
  const seed: PrevSnapshot = { version: 0, epoch: 0, doc: emptyDraft('d1') as unknown as Json, yState: Y.encodeStateAsUpdate(doc) };
  const steps: TailStep[] = ops.map((o, i) => {
    const before = Y.encodeStateVector(doc);
    applyOpsToYDoc(doc, o);
    return { version: i + 1, ops: o, yUpdate: Y.encodeStateAsUpdate(doc, before) };
  });
  return { steps, doc, seed };
}

describe('foldSnapshot', () => {
  it('folds the log from nothing into the draft at the last version', () => {
    const { steps } = lineage(stepsOps);
    const f = foldSnapshot('d1', 0, null, steps);
    expect(f.version).toBe(4);
    expect(f.doc.title).toBe('Home');
    expect(f.doc.order).toEqual(['faq', 'hero']);
    expect(f.doc.sections['hero']?.components['t']?.props).toEqual({ text: 'Hi' });
  });

  it('continues from a previous snapshot, without mutating it, to the same result as a full fold', () => {
    const { steps } = lineage(stepsOps);
    const first = foldSnapshot('d1', 0, null, steps.slice(0, 2));
    const prev = { version: 2, epoch: 0, doc: first.doc as unknown as Json, yState: first.yState };
    const frozen = JSON.stringify(prev.doc);
    const next = foldSnapshot('d1', 0, prev, steps.slice(2));
    expect(JSON.stringify(prev.doc)).toBe(frozen);
    expect(next.doc).toEqual(foldSnapshot('d1', 0, null, steps).doc);
  });

  it('continues the Yjs lineage: the state decodes to the same draft as the JSON', () => {
    const { steps, doc, seed } = lineage(stepsOps);
    const full = foldSnapshot('d1', 0, null, steps);
    expect(full.yNote).toBeNull();
    const fromNothing = new Y.Doc();
    Y.applyUpdate(fromNothing, full.yState!);
    expect(yDocToDraft(fromNothing, 'd1')).toEqual(full.doc);
    const a = foldSnapshot('d1', 0, seed, steps.slice(0, 3));
    const b = foldSnapshot('d1', 0, { version: 3, epoch: 0, doc: a.doc as unknown as Json, yState: a.yState }, steps.slice(3));
    expect(b.yState).not.toBeNull();
    const loaded = new Y.Doc();
    Y.applyUpdate(loaded, b.yState!);
    expect(yDocToDraft(loaded, 'd1')).toEqual(yDocToDraft(doc, 'd1'));
    expect(yDocToDraft(loaded, 'd1').order).toEqual(b.doc.order);
    // Applying the state to a client that already has the lineage adds nothing (no duplicates).
    const client = new Y.Doc();
    Y.applyUpdate(client, Y.encodeStateAsUpdate(doc));
    Y.applyUpdate(client, b.yState!);
    expect(client.getArray('order').length).toBe(2);
  });

  it('rebuilds steps logged without Yjs bytes from their ops, the same way every time (events are never updated)', () => {
    const { steps, seed } = lineage(stepsOps);
    const bare = steps.map((s, i) => (i >= 2 ? { ...s, yUpdate: null } : s));
    const f = foldSnapshot('d1', 0, seed, bare);
    expect(f.yNote).toBeNull();
    expect(f.yState).toEqual(foldSnapshot('d1', 0, seed, bare).yState);
    const y = new Y.Doc();
    Y.applyUpdate(y, f.yState!);
    expect(yDocToDraft(y, 'd1')).toEqual(f.doc);
    expect(f.doc.order).toEqual(['faq', 'hero']);
  });

  it('stores no Yjs state when the stored bytes do not chain, or the epoch changed', () => {
    const { steps, seed } = lineage(stepsOps);
    // Step 4's bytes were built on step 3's original bytes; without them they wait for parents.
    const gap = steps.map((s, i) => (i === 2 ? { ...s, yUpdate: null } : s));
    const f = foldSnapshot('d1', 0, seed, gap);
    expect(f.yState).toBeNull();
    expect(f.yNote).toMatch(/do not chain/);
    expect(f.doc.order).toEqual(['faq', 'hero']);
    const a = foldSnapshot('d1', 0, seed, steps.slice(0, 2));
    expect(a.yState).not.toBeNull();
    const e = foldSnapshot('d1', 1, { version: 2, epoch: 0, doc: a.doc as unknown as Json, yState: a.yState }, steps.slice(2));
    expect(e.yState).toBeNull();
    // and a snapshot without state cannot seed one
    const n = foldSnapshot('d1', 0, { version: 2, epoch: 0, doc: a.doc as unknown as Json, yState: null }, steps.slice(2));
    expect(n.yState).toBeNull();
  });

  it('starts a new lineage from the shared genesis (the one the session uses), deterministic', () => {
    for (const [id, epoch] of [['d1', 0], ['other-draft', 3]] as const) expect(genesis(id, epoch)).toEqual(genesis(id, epoch));
    expect(genesis('d1', 0)).not.toEqual(genesis('d1', 1)); // the epoch is part of the lineage
    expect(yBaseOf('d1', 2, null)).toEqual({ version: 0, yState: genesis('d1', 2) });
  });

  it('a client holding the old history gets no duplicate content from a fold started at genesis', () => {
    const { steps, doc } = lineage(stepsOps);
    const f = foldSnapshot('d1', 0, null, steps);
    const client = new Y.Doc();
    Y.applyUpdate(client, Y.encodeStateAsUpdate(doc));
    Y.applyUpdate(client, f.yState!);
    expect(yDocToDraft(client, 'd1')).toEqual(yDocToDraft(doc, 'd1'));
    expect(client.getArray('order').toJSON()).toEqual(['faq', 'hero']);
    // and the reverse: a session loaded from the snapshot accepts the old client's state as known
    const loaded = new Y.Doc();
    Y.applyUpdate(loaded, f.yState!);
    Y.applyUpdate(loaded, Y.encodeStateAsUpdate(client));
    expect(yDocToDraft(loaded, 'd1')).toEqual(f.doc);
  });

  it('an open fold advanced piecewise gives the same snapshots as one-shot folds', () => {
    const { steps, doc } = lineage(stepsOps);
    const open = new DraftFold('d1', 0, null, yBaseOf('d1', 0, null));
    for (const [a, b] of [[0, 1], [1, 3], [3, 4]] as const) {
      open.advance(steps.slice(a, b));
      const warm = open.result();
      const cold = foldSnapshot('d1', 0, null, steps.slice(0, b));
      expect(warm.version).toBe(b);
      expect(warm.doc).toEqual(cold.doc);
      const w = new Y.Doc(); Y.applyUpdate(w, warm.yState!);
      const c = new Y.Doc(); Y.applyUpdate(c, cold.yState!);
      expect(yDocToDraft(w, 'd1')).toEqual(yDocToDraft(c, 'd1'));
      expect(Y.encodeStateVector(w)).toEqual(Y.encodeStateVector(c));
    }
    // results are copies: a later advance does not change an earlier snapshot
    const r = open.result();
    expect(r.doc).toEqual(yDocToDraft(doc, 'd1'));
    open.dispose();
  });

  it('JSON base above the Yjs base: the fold replays the Yjs side from its older base', () => {
    const { steps } = lineage(stepsOps);
    const two = foldSnapshot('d1', 0, null, steps.slice(0, 2));
    const noY = { version: 3, epoch: 0, doc: foldSnapshot('d1', 0, null, steps.slice(0, 3)).doc as unknown as Json, yState: null };
    const f = new DraftFold('d1', 0, noY, { version: 2, yState: two.yState! });
    expect(f.from).toBe(2);
    f.advance(steps.slice(2));
    const r = f.result();
    expect(r.version).toBe(4);
    expect(r.doc).toEqual(foldSnapshot('d1', 0, null, steps).doc);
    const y = new Y.Doc(); Y.applyUpdate(y, r.yState!);
    expect(yDocToDraft(y, 'd1')).toEqual(r.doc);
  });

  it('refuses a tail that is not contiguous (a bug, not an outcome)', () => {
    const { steps } = lineage(stepsOps);
    expect(() => foldSnapshot('d1', 0, null, [steps[0]!, steps[2]!])).toThrow(/not contiguous/);
  });
});
