import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import type { Draft, Op } from '@weft/core';
import { draftToYDoc, readEpoch, yDocToDraft } from './mirror.ts';
import { applyOpsToYDoc } from './apply-ops.ts';
import { observeDraftOps } from './events-to-ops.ts';
import { YDocPathError } from './pointer.ts';
import { draft as randomDraft, op as randomOp, rng } from '../test/gen.ts';

const applyJson = (d: Draft, ops: readonly Op[]): Draft =>
  jsonpatch.applyPatch(structuredClone(d), structuredClone(ops) as jsonpatch.Operation[], true, true).newDocument;

const fromDraft = (d: Draft): Y.Doc => {
  const doc = new Y.Doc();
  draftToYDoc(d, doc);
  return doc;
};

describe('draftToYDoc / yDocToDraft', () => {
  it('round-trips a draft exactly, key order included', () => {
    fc.assert(fc.property(fc.integer(), (seed) => {
      const d = randomDraft(rng(seed));
      const back = yDocToDraft(fromDraft(d), d.id);
      expect(JSON.stringify(back)).toBe(JSON.stringify(d));
    }), { numRuns: 100 });
  });

  it('keeps the epoch in meta and refuses a non-empty doc', () => {
    const d = randomDraft(rng(1));
    const doc = new Y.Doc();
    draftToYDoc(d, doc, 3);
    expect(readEpoch(doc)).toBe(3);
    expect(() => draftToYDoc(d, doc)).toThrow(/empty doc/);
  });

  it('returns fresh objects: mutating the result leaves the doc alone', () => {
    const d = randomDraft(rng(7));
    d.sections['s9'] = { id: 's9', kind: 'surface', catalog: 'x@1', components: {}, data: { list: [1, 2] } };
    const doc = fromDraft(d);
    const out = yDocToDraft(doc, d.id);
    (out.sections['s9']!.data['list'] as number[]).push(3);
    expect(yDocToDraft(doc, d.id).sections['s9']!.data['list']).toEqual([1, 2]);
  });
});

describe('applyOpsToYDoc', () => {
  it('equals applying the ops to the JSON, for random drafts and op sequences', () => {
    fc.assert(fc.property(fc.integer(), fc.integer({ min: 1, max: 40 }), (seed, n) => {
      const r = rng(seed);
      let json = randomDraft(r);
      const doc = fromDraft(json);
      for (let i = 0; i < n; i++) {
        const batch = [randomOp(r, json)];
        json = applyJson(json, batch);
        applyOpsToYDoc(doc, batch);
        expect(yDocToDraft(doc, json.id)).toEqual(json);
      }
    }), { numRuns: 120 });
  });

  it('applies a whole list in one transaction', () => {
    const d = randomDraft(rng(3));
    const doc = fromDraft(d);
    let transactions = 0;
    doc.on('afterTransaction', () => transactions++);
    const ops: Op[] = [
      { op: 'replace', path: '/title', value: 'T' },
      { op: 'add', path: '/sections/zz', value: { id: 'zz', kind: 'surface', catalog: 'weft@1', components: {}, data: {} } },
      { op: 'add', path: '/order/-', value: 'zz' },
      { op: 'add', path: '/sections/zz/components/root', value: { id: 'root', component: 'Stack', children: [] } },
      { op: 'add', path: '/sections/zz/components/root/props', value: { gap: 'md' } },
      { op: 'add', path: '/sections/zz/components/root/props/align', value: 'start' },
    ];
    applyOpsToYDoc(doc, ops, 'me');
    expect(transactions).toBe(1);
    expect(yDocToDraft(doc, d.id)).toEqual(applyJson(d, ops));
  });

  it('throws YDocPathError on a path the draft does not have', () => {
    const doc = fromDraft({ id: 'd', title: '', order: [], sections: {} });
    expect(() => applyOpsToYDoc(doc, [{ op: 'remove', path: '/sections/nope' }])).toThrow(YDocPathError);
    expect(() => applyOpsToYDoc(doc, [{ op: 'replace', path: '/order/0', value: 'x' }])).toThrow(YDocPathError);
    expect(() => applyOpsToYDoc(doc, [{ op: 'add', path: '/nope', value: 1 }])).toThrow(YDocPathError);
  });
});

describe('yEventsToOps', () => {
  it('a peer synced by update bytes turns its events into ops that keep a JSON copy equal', () => {
    fc.assert(fc.property(fc.integer(), fc.integer({ min: 1, max: 30 }), (seed, n) => {
      const r = rng(seed);
      let json = randomDraft(r);
      const a = fromDraft(json);
      const b = new Y.Doc();
      Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
      let copy = yDocToDraft(b, json.id);
      observeDraftOps(b, (ops) => { copy = applyJson(copy, ops); });
      a.on('update', (u: Uint8Array) => Y.applyUpdate(b, u, 'remote'));
      for (let i = 0; i < n; i++) {
        const valid: Op[] = [];
        for (let j = Math.floor(r() * 3); j >= 0; j--) {
          const o = randomOp(r, json); // valid against the state after the previous ones
          json = applyJson(json, [o]);
          valid.push(o);
        }
        applyOpsToYDoc(a, valid);
        expect(yDocToDraft(b, json.id)).toEqual(json);
        expect(copy).toEqual(json);
      }
    }), { numRuns: 100 });
  });
});

describe('props held as a Y.Map with Y.Text values (the way open for typed text, issue 8)', () => {
  it('reads Y.Text as a string, reports typing as a replace of the prop, and writes keys into the map', () => {
    const d: Draft = {
      id: 'd', title: '', order: ['s'],
      sections: { s: { id: 's', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Text', props: { text: 'Hello', tone: 'muted' } } } } },
    };
    const a = fromDraft(d);
    a.transact(() => {
      const comp = (a.getMap('sections').get('s') as Y.Map<unknown>).get('components') as Y.Map<Y.Map<unknown>>;
      const props = new Y.Map<unknown>();
      comp.get('root')!.set('props', props);
      props.set('text', new Y.Text('Hello'));
      props.set('tone', 'muted');
    });
    expect(yDocToDraft(a, 'd')).toEqual(d);
    const b = new Y.Doc();
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    const seen: Op[][] = [];
    observeDraftOps(b, (ops) => seen.push(ops));
    a.on('update', (u: Uint8Array) => Y.applyUpdate(b, u));
    const text = ((((a.getMap('sections').get('s') as Y.Map<unknown>).get('components') as Y.Map<Y.Map<unknown>>).get('root')!.get('props')) as Y.Map<unknown>).get('text') as Y.Text;
    text.insert(5, ', world');
    expect(seen).toEqual([[{ op: 'replace', path: '/sections/s/components/root/props/text', value: 'Hello, world' }]]);
    applyOpsToYDoc(a, [{ op: 'add', path: '/sections/s/components/root/props/size', value: 'lg' }, { op: 'remove', path: '/sections/s/components/root/props/tone' }]);
    expect(yDocToDraft(b, 'd').sections['s']!.components['root']!.props).toEqual({ text: 'Hello, world', size: 'lg' });
    expect(seen[1]).toEqual([
      { op: 'add', path: '/sections/s/components/root/props/size', value: 'lg' },
      { op: 'remove', path: '/sections/s/components/root/props/tone' },
    ]);
  });
});
