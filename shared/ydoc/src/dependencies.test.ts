import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { hasMissingParents as missing, readUpdate } from './dependencies.ts';

const hasMissingParents = (u: Uint8Array, known: Map<number, number>): boolean => missing(readUpdate(u), known);

const sv = (d: Y.Doc): Map<number, number> => Y.decodeStateVector(Y.encodeStateVector(d));
const capture = (d: Y.Doc, f: () => void): Uint8Array => {
  const parts: Uint8Array[] = [];
  const on = (u: Uint8Array): void => { parts.push(u); };
  d.on('update', on);
  f();
  d.off('update', on);
  return Y.mergeUpdates(parts);
};

describe('readUpdate', () => {
  it('gives each writing client\'s end clock, like Y.parseUpdateMeta', () => {
    const d = new Y.Doc();
    const u = capture(d, () => { d.getArray('order').push(['a', 'b']); d.getMap('meta').set('t', 1); });
    expect(readUpdate(u).to).toEqual(Y.parseUpdateMeta(u).to);
    expect(() => readUpdate(new Uint8Array([5, 255, 255]))).toThrow();
  });
});

describe('hasMissingParents', () => {
  it('is false for an update built on what the doc has, or only on itself', () => {
    const server = new Y.Doc();
    server.getArray('order').push(['a', 'b']);
    const peer = new Y.Doc();
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(server));
    const u = capture(peer, () => { peer.getArray('order').insert(1, ['x', 'y']); peer.getMap('meta').set('title', 't'); });
    expect(hasMissingParents(u, sv(server))).toBe(false);
    const fresh = new Y.Doc();
    const own = capture(fresh, () => { fresh.getArray('order').push(['p']); fresh.getArray('order').push(['q']); });
    expect(hasMissingParents(own, sv(server))).toBe(false);
  });

  it('is true for an update built on another lineage (a peer still on an old epoch)', () => {
    const old = new Y.Doc();
    old.getArray('order').push(['a', 'b']);
    const peer = new Y.Doc();
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(old));
    const fresh = new Y.Doc(); // the new epoch: same content, other structs
    fresh.getArray('order').push(['a', 'b']);
    const u = capture(peer, () => peer.getArray('order').insert(1, ['x']));
    expect(hasMissingParents(u, sv(fresh))).toBe(true);
    expect(hasMissingParents(u, sv(old))).toBe(false);
    // A map entry set inside a nested type the doc never had.
    const nested = capture(peer, () => { const m = new Y.Map(); peer.getMap('sections').set('s', m); });
    const inner = capture(peer, () => (peer.getMap('sections').get('s') as Y.Map<unknown>).set('k', 1));
    expect(hasMissingParents(inner, sv(fresh))).toBe(true);
    expect(hasMissingParents(Y.mergeUpdates([nested, inner]), sv(fresh))).toBe(false);
    // Deleting what the doc never had.
    const del = capture(peer, () => peer.getArray('order').delete(0, 1));
    expect(hasMissingParents(del, sv(fresh))).toBe(true);
    expect(hasMissingParents(del, sv(peer))).toBe(false);
  });
});
