// Reorders and section adds through the Y arrays reach the pipeline as ops judged as a whole
// (issue 15): one `move` or one list `replace`, never a delete and an insert judged one at a time.
// The pipeline here is the real one (@weft/core applyStep), as the session runs it per update.
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import { applyStep } from '@weft/core';
import type { Draft, Json, Op } from '@weft/core';
import { draftToYDoc, draftRoots, yDocToDraft } from './mirror.ts';
import { applyOpsToYDoc } from './apply-ops.ts';
import { listChange, observeDraftOps } from './events-to-ops.ts';
import { UpdateGuard, createShadow } from './update-guard.ts';

const applyJson = <T>(d: T, ops: readonly Op[]): T =>
  jsonpatch.applyPatch(structuredClone(d), structuredClone(ops) as jsonpatch.Operation[], true, true).newDocument as T;

const section = (id: string, kids: string[]) => ({
  id, kind: 'surface' as const, catalog: 'weft@1', data: {},
  components: {
    root: { id: 'root', component: 'Stack', children: kids },
    ...Object.fromEntries(kids.map((k) => [k, { id: k, component: 'Card', props: { title: k } }])),
  },
});
const base = (): Draft => ({
  id: 'd', title: 'T', order: ['hero', 'features', 'faq'],
  sections: { hero: section('hero', ['a', 'b', 'c', 'd']), features: section('features', ['x']), faq: section('faq', ['y']) },
});

/** A server-side guard over `d` (as the session's lineage doc) and one client doc synced to it. */
function setup(d: Draft = base()) {
  const server = new Y.Doc();
  draftToYDoc(d, server);
  const guard = new UpdateGuard(createShadow(server));
  const json = { draft: yDocToDraft(server, d.id) };
  const client = (): Y.Doc => {
    const c = new Y.Doc();
    Y.applyUpdate(c, Y.encodeStateAsUpdate(server));
    return c;
  };
  /** What the session does with a peer's update: ops through the pipeline, commit or revert. */
  const judge = (update: Uint8Array): { ops: Op[]; refused: string[] } => {
    const tried = guard.tryUpdate(update);
    if (!tried.ok) throw new Error(tried.error);
    const trial = structuredClone(json.draft);
    const r = applyStep(trial, tried.ops);
    if (r.refused.length > 0) {
      guard.revert();
      return { ops: tried.ops, refused: r.refused.map((x) => x.message) };
    }
    guard.commit();
    json.draft = trial;
    return { ops: tried.ops, refused: [] };
  };
  return { server, guard, json, client, judge };
}

/** The update `f` makes on `doc`. */
function edit(doc: Y.Doc, f: () => void): Uint8Array {
  const parts: Uint8Array[] = [];
  const on = (u: Uint8Array): void => { parts.push(u); };
  doc.on('update', on);
  f();
  doc.off('update', on);
  return Y.mergeUpdates(parts);
}

const kids = (d: Draft, sid = 'hero'): string[] => d.sections[sid]!.components['root']!.children ?? [];

describe('listChange', () => {
  it('names one move up, one move down, one replaced element, nothing, or the whole list', () => {
    expect(listChange(['a', 'b', 'c'], ['a', 'c', 'b'], ['l'])).toEqual([{ op: 'move', from: '/l/2', path: '/l/1' }]);
    expect(listChange(['a', 'b', 'c'], ['b', 'c', 'a'], ['l'])).toEqual([{ op: 'move', from: '/l/0', path: '/l/2' }]);
    expect(listChange(['a', 'b', 'c'], ['c', 'a', 'b'], ['l'])).toEqual([{ op: 'move', from: '/l/2', path: '/l/0' }]);
    expect(listChange(['a', 'b', 'c'], ['a', 'x', 'c'], ['l'])).toEqual([{ op: 'replace', path: '/l/1', value: 'x' }]);
    expect(listChange(['a', 'b'], ['a', 'b'], ['l'])).toEqual([]);
    expect(listChange(['a', 'b', 'c'], ['c', 'b', 'a'], ['l'])).toEqual([{ op: 'replace', path: '/l', value: ['c', 'b', 'a'] }]);
    expect(listChange(['a', 'b'], ['b'], ['l'])).toEqual([{ op: 'replace', path: '/l', value: ['b'] }]);
  });

  it('takes any list to any other, as one op (property)', () => {
    const list = fc.array(fc.constantFrom<Json>('a', 'b', 'c', 'd', 1, null, { k: 1 }), { maxLength: 7 });
    fc.assert(fc.property(list, list, (before, after) => {
      const ops = listChange(before, after, ['l']);
      expect(ops.length).toBeLessThanOrEqual(1);
      expect(applyJson({ l: before }, ops).l).toEqual(after);
    }), { numRuns: 500 });
  });
});

describe('reorders through the Y arrays, judged by the pipeline', () => {
  it('a component moved up reaches the pipeline as one move and is accepted', () => {
    const { client, judge, json } = setup();
    const c = client();
    const u = edit(c, () => applyOpsToYDoc(c, [{ op: 'move', from: '/sections/hero/components/root/children/2', path: '/sections/hero/components/root/children/1' }]));
    const r = judge(u);
    expect(r.refused).toEqual([]);
    expect(r.ops).toEqual([{ op: 'move', from: '/sections/hero/components/root/children/2', path: '/sections/hero/components/root/children/1' }]);
    expect(kids(json.draft)).toEqual(['a', 'c', 'b', 'd']);
  });

  it('every up and down move of every child and section is accepted (the moves the editor sends)', () => {
    for (const [list, n] of [['/sections/hero/components/root/children', 4], ['/order', 3]] as const) {
      for (let i = 0; i < n; i++) {
        for (const j of [i - 1, i + 1]) {
          if (j < 0 || j >= n) continue;
          const { client, judge, json } = setup();
          const c = client();
          const r = judge(edit(c, () => applyOpsToYDoc(c, [{ op: 'move', from: `${list}/${i}`, path: `${list}/${j}` }])));
          expect(r.refused, `${list} ${i}→${j}`).toEqual([]);
          expect(r.ops).toHaveLength(1);
          expect(json.draft).toEqual(yDocToDraft(c, 'd'));
        }
      }
    }
  });

  it('a section added and pushed onto order in one transaction is accepted and listed once', () => {
    const { client, judge, json } = setup();
    const c = client();
    const u = edit(c, () => c.transact(() => {
      applyOpsToYDoc(c, [{ op: 'add', path: '/sections/pricing', value: section('pricing', ['p']) as never }]);
      draftRoots(c).order.insert(1, ['pricing']);
    }));
    const r = judge(u);
    expect(r.refused).toEqual([]);
    expect(r.ops.at(-1)).toEqual({ op: 'replace', path: '/order', value: ['hero', 'pricing', 'features', 'faq'] });
    expect(json.draft.order).toEqual(['hero', 'pricing', 'features', 'faq']);
  });

  it('a section added alone gets appended to order by repair', () => {
    const { client, judge, json } = setup();
    const c = client();
    const r = judge(edit(c, () => applyOpsToYDoc(c, [{ op: 'add', path: '/sections/pricing', value: section('pricing', ['p']) as never }])));
    expect(r.refused).toEqual([]);
    expect(json.draft.order).toEqual(['hero', 'features', 'faq', 'pricing']);
  });

  it('a section removed with its order entry, in either op order, is accepted', () => {
    for (const ops of [
      [{ op: 'remove', path: '/order/1' }, { op: 'remove', path: '/sections/features' }],
      [{ op: 'remove', path: '/sections/features' }, { op: 'remove', path: '/order/1' }],
    ] as Op[][]) {
      const { client, judge, json } = setup();
      const c = client();
      const r = judge(edit(c, () => applyOpsToYDoc(c, ops)));
      expect(r.refused).toEqual([]);
      expect(json.draft.order).toEqual(['hero', 'faq']);
      expect(Object.keys(json.draft.sections)).toEqual(['hero', 'faq']);
    }
  });

  it('two people moving different children at once: both accepted, every doc converges', () => {
    const { client, judge, server, json } = setup();
    const [a, b] = [client(), client()];
    const ua = edit(a, () => applyOpsToYDoc(a, [{ op: 'move', from: '/sections/hero/components/root/children/1', path: '/sections/hero/components/root/children/0' }]));
    const ub = edit(b, () => applyOpsToYDoc(b, [{ op: 'move', from: '/sections/hero/components/root/children/2', path: '/sections/hero/components/root/children/3' }]));
    expect(judge(ua).refused).toEqual([]);
    expect(judge(ub).refused).toEqual([]);
    for (const u of [ua, ub]) Y.applyUpdate(server, u);
    Y.applyUpdate(a, ub);
    Y.applyUpdate(b, ua);
    expect(kids(yDocToDraft(a, 'd'))).toEqual(['b', 'a', 'd', 'c']);
    expect(yDocToDraft(b, 'd')).toEqual(yDocToDraft(a, 'd'));
    expect(json.draft).toEqual(yDocToDraft(server, 'd'));
  });

  it('two people moving the same child at once: the second is refused, naming the double listing', () => {
    const { client, judge, json } = setup();
    const [a, b] = [client(), client()];
    const ua = edit(a, () => applyOpsToYDoc(a, [{ op: 'move', from: '/sections/hero/components/root/children/3', path: '/sections/hero/components/root/children/0' }]));
    const ub = edit(b, () => applyOpsToYDoc(b, [{ op: 'move', from: '/sections/hero/components/root/children/3', path: '/sections/hero/components/root/children/2' }]));
    expect(judge(ua).refused).toEqual([]);
    const second = judge(ub);
    expect(second.refused.join(' ')).toMatch(/"d" is listed twice/);
    expect(kids(json.draft)).toEqual(['d', 'a', 'b', 'c']);
  });

  it('two people reordering sections at once converge to a valid order', () => {
    const { client, judge, json } = setup();
    const [a, b] = [client(), client()];
    const ua = edit(a, () => applyOpsToYDoc(a, [{ op: 'move', from: '/order/0', path: '/order/1' }]));
    const ub = edit(b, () => applyOpsToYDoc(b, [{ op: 'move', from: '/order/2', path: '/order/1' }]));
    expect(judge(ua).refused).toEqual([]);
    const second = judge(ub);
    expect(second.refused).toEqual([]);
    Y.applyUpdate(a, ub);
    Y.applyUpdate(b, ua);
    expect(yDocToDraft(a, 'd').order).toEqual(yDocToDraft(b, 'd').order);
    expect(json.draft.order).toEqual(yDocToDraft(a, 'd').order);
    expect([...json.draft.order].sort()).toEqual(['faq', 'features', 'hero']);
  });

  it('a peer following by events keeps an equal JSON copy through moves and list rewrites', () => {
    const d = base();
    const a = new Y.Doc();
    draftToYDoc(d, a);
    const b = new Y.Doc();
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    let copy = yDocToDraft(b, 'd');
    observeDraftOps(b, (ops) => { copy = applyJson(copy, ops); });
    a.on('update', (u: Uint8Array) => Y.applyUpdate(b, u));
    fc.assert(fc.property(fc.array(fc.tuple(fc.nat(3), fc.nat(3)), { minLength: 1, maxLength: 6 }), (moves) => {
      a.transact(() => {
        for (const [i, j] of moves) applyOpsToYDoc(a, [{ op: 'move', from: `/sections/hero/components/root/children/${i}`, path: `/sections/hero/components/root/children/${j}` }]);
      });
      expect(copy).toEqual(yDocToDraft(a, 'd'));
    }), { numRuns: 200 });
  });

  it('a prop stored again in another form but equal (JSON props → Y.Map with a Y.Text) is no op', () => {
    const { client, judge } = setup();
    const c = client();
    const props = ((draftRoots(c).sections.get('hero') as Y.Map<unknown>).get('components') as Y.Map<unknown>).get('a') as Y.Map<unknown>;
    const u = edit(c, () => {
      const m = new Y.Map<unknown>();
      m.set('title', new Y.Text('a'));
      props.set('props', m);
    });
    expect(judge(u).ops).toEqual([]);
    const u2 = edit(c, () => ((props.get('props') as Y.Map<unknown>).get('title') as Y.Text).insert(1, '!'));
    expect(judge(u2).ops).toEqual([{ op: 'replace', path: '/sections/hero/components/a/props/title', value: 'a!' }]);
  });
});
