import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { Draft, Op } from '@weft/core';
import { draftToYDoc, yDocToDraft } from './mirror.ts';
import { applyOpsToYDoc } from './apply-ops.ts';
import { UpdateGuard, createShadow } from './update-guard.ts';
import { draft as randomDraft, op as randomOp, rng } from '../test/gen.ts';

/** The update a doc emits for `ops`. */
function edit(doc: Y.Doc, ops: Op[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const on = (u: Uint8Array) => parts.push(u);
  doc.on('update', on);
  applyOpsToYDoc(doc, ops);
  doc.off('update', on);
  return parts.length === 1 ? parts[0]! : Y.mergeUpdates(parts);
}

function room(d: Draft) {
  const live = new Y.Doc();
  draftToYDoc(d, live);
  const author = new Y.Doc();
  Y.applyUpdate(author, Y.encodeStateAsUpdate(live));
  const guard = new UpdateGuard(createShadow(live));
  return { live, author, guard };
}

/**
 * Same content, same state vector, same deletions, and nearly the same bytes: Yjs merges adjacent
 * GC runs differently depending on how structs arrived (a GC of 9 + 1 vs one of 10), so the bytes
 * are not identical — but pinned tombstone contents would show as kilobytes, not a few percent.
 */
const sameState = (a: Y.Doc, b: Y.Doc) => {
  expect(yDocToDraft(a, 'd')).toEqual(yDocToDraft(b, 'd'));
  expect(Y.encodeStateVector(a)).toEqual(Y.encodeStateVector(b));
  expect(Y.equalDeleteSets(Y.createDeleteSetFromStructStore(a.store), Y.createDeleteSetFromStructStore(b.store))).toBe(true);
  const [la, lb] = [Y.encodeStateAsUpdate(a).length, Y.encodeStateAsUpdate(b).length];
  expect(lb).toBeLessThanOrEqual(la * 1.05 + 64);
};

describe('UpdateGuard', () => {
  it('turns an update into the ops it makes', () => {
    const { author, guard } = room(randomDraft(rng(5)));
    const u = edit(author, [{ op: 'replace', path: '/title', value: 'New' }]);
    expect(guard.tryUpdate(u)).toEqual({ ok: true, ops: [{ op: 'replace', path: '/title', value: 'New' }], unmapped: [] });
    guard.commit();
  });

  it('a refused update merged with its inverse never shows the refused state to a third doc', () => {
    const { live, author, guard } = room(randomDraft(rng(9)));
    const observer = new Y.Doc();
    Y.applyUpdate(observer, Y.encodeStateAsUpdate(live));
    const titles: string[] = [];
    observer.on('afterTransaction', () => titles.push(yDocToDraft(observer, 'd').title));
    const u = edit(author, [
      { op: 'replace', path: '/title', value: 'REFUSED' },
      { op: 'add', path: '/sections/zz', value: { id: 'zz', kind: 'surface', catalog: 'x', components: {}, data: {} } },
    ]);
    const tried = guard.tryUpdate(u);
    expect(tried.ok && tried.ops.map((o) => o.path)).toEqual(['/title', '/sections/zz']);
    const inverse = guard.revert();
    const merged = Y.mergeUpdates([u, inverse]);
    Y.applyUpdate(live, merged);
    Y.applyUpdate(observer, merged);
    expect(titles).not.toContain('REFUSED');
    expect(yDocToDraft(observer, 'd').sections['zz']).toBeUndefined();
    sameState(observer, guard.shadow);
    sameState(live, guard.shadow);
    // the sender converges too and its next edit lands
    Y.applyUpdate(author, merged);
    expect(yDocToDraft(author, 'd')).toEqual(yDocToDraft(live, 'd'));
    const next = edit(author, [{ op: 'replace', path: '/title', value: 'ok' }]);
    expect(guard.tryUpdate(next).ok).toBe(true);
    guard.commit();
    Y.applyUpdate(live, next);
    expect(yDocToDraft(live, 'd').title).toBe('ok');
  });

  it('reports malformed bytes without touching the shadow', () => {
    const { live, guard } = room(randomDraft(rng(2)));
    expect(guard.tryUpdate(new Uint8Array([1, 2, 3, 250, 7]))).toEqual({ ok: false, error: 'malformed' });
    expect(guard.revert()).toBeInstanceOf(Uint8Array);
    sameState(live, guard.shadow);
  });

  it('reports writes outside the draft roots as foreign, and reverts them', () => {
    const { live, author, guard } = room(randomDraft(rng(4)));
    const parts: Uint8Array[] = [];
    author.on('update', (u: Uint8Array) => parts.push(u));
    author.getMap('evil').set('x', 1);
    expect(guard.tryUpdate(parts[0]!)).toEqual({ ok: false, error: 'foreign' });
    Y.applyUpdate(live, Y.mergeUpdates([parts[0]!, guard.revert()]));
    expect(live.getMap('evil').size).toBe(0);
    expect(guard.shadow.getMap('evil').size).toBe(0);
  });

  it('1,000 random accept/refuse rounds keep shadow and live equal, with no pinned tombstones', () => {
    const r = rng(20260401);
    const { live, author, guard } = room(randomDraft(r));
    const server = new Y.Doc(); // produces server-side repairs, mirrored into the shadow
    Y.applyUpdate(server, Y.encodeStateAsUpdate(live));
    let refused = 0;
    for (let round = 0; round < 1000; round++) {
      if (r() < 0.1) {
        const u = edit(server, [randomOp(r, yDocToDraft(server, 'd'))]);
        Y.applyUpdate(live, u);
        guard.mirror(u);
        Y.applyUpdate(author, u);
        continue;
      }
      const json = yDocToDraft(author, 'd');
      const u = edit(author, [randomOp(r, json)]);
      const res = guard.tryUpdate(u);
      expect(res.ok).toBe(true);
      let toLive = u;
      if (r() < 0.4) {
        refused++;
        toLive = Y.mergeUpdates([u, guard.revert()]);
        Y.applyUpdate(author, toLive);
      } else guard.commit();
      Y.applyUpdate(live, toLive);
      Y.applyUpdate(server, toLive);
      if (round % 50 === 0) sameState(live, guard.shadow);
    }
    sameState(live, guard.shadow);
    expect(yDocToDraft(author, 'd')).toEqual(yDocToDraft(live, 'd'));
    expect(refused).toBeGreaterThan(300);
    // nothing pinned: every deleted item in the shadow was collected as in live
    let pinned = 0;
    guard.shadow.store.clients.forEach((structs) => {
      for (const s of structs) if (s instanceof Y.Item && s.keep) pinned++;
    });
    expect(pinned).toBe(0);
  });
});
