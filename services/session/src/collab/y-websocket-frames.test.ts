import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameProblem } from './frame-check.ts';
import { authFrame, fromHocuspocus, toHocuspocus } from './y-websocket-frames.ts';

/** A Hocuspocus frame: the document's name, then `body`. */
const addressed = (doc: string, ...body: (number | string)[]): Uint8Array => {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, doc);
  for (const b of body) typeof b === 'number' ? encoding.writeVarUint(e, b) : encoding.writeVarString(e, b);
  return encoding.toUint8Array(e);
};

describe('y-websocket frames ⇄ Hocuspocus frames', () => {
  it('the token becomes a Hocuspocus authentication of the URL\'s document', () => {
    const f = authFrame('home', 'tok');
    expect(frameProblem(f)).toBeNull();
    const d = decoding.createDecoder(f);
    expect([decoding.readVarString(d), decoding.readVarUint(d), decoding.readVarUint(d), decoding.readVarString(d)]).toEqual(['home', 2, 0, 'tok']);
  });

  it('client sync, awareness and awareness queries are addressed to the document; other types, and nothing, are refused', () => {
    expect(toHocuspocus('home', new Uint8Array([0, 0, 1, 0]))).toEqual(addressed('home', 0, 0, 1, 0));
    expect(toHocuspocus('home', new Uint8Array([1, 1, 0]))).toEqual(addressed('home', 1, 1, 0));
    expect(toHocuspocus('home', new Uint8Array([3]))).toEqual(addressed('home', 3));
    for (const bad of [[2, 0, 0], [5, 2, 0x7b, 0x7d], [7], [9], [], [0xff]]) expect(toHocuspocus('home', new Uint8Array(bad))).toBeNull();
  });

  it('server frames lose the document\'s name; the sync reply becomes a sync message', () => {
    expect(fromHocuspocus(addressed('home', 0, 1, 0))).toEqual({ kind: 'frame', frame: new Uint8Array([0, 1, 0]) });
    expect(fromHocuspocus(addressed('home', 1, 1, 0))).toEqual({ kind: 'frame', frame: new Uint8Array([1, 1, 0]) });
    expect(fromHocuspocus(addressed('home', 4, 0, 1, 0))).toEqual({ kind: 'frame', frame: new Uint8Array([0, 0, 1, 0]) });
  });

  it('a refused authentication is y-protocols\' permission denied plus the close code of its reason', () => {
    const denied = (reason: string) => fromHocuspocus(addressed('home', 2, 1, reason));
    const yDenied = (reason: string) => { const e = encoding.createEncoder(); encoding.writeVarUint(e, 2); encoding.writeVarUint(e, 0); encoding.writeVarString(e, reason); return encoding.toUint8Array(e); };
    expect(denied('UNAUTHORIZED')).toEqual({ kind: 'denied', frame: yDenied('UNAUTHORIZED'), code: 4401, reason: 'UNAUTHORIZED' });
    expect(denied('NOT_FOUND')).toMatchObject({ code: 4404 });
    expect(denied('UNAVAILABLE')).toMatchObject({ code: 4500 });
    expect(denied('permission-denied')).toMatchObject({ code: 4403 });
    expect(denied('__proto__')).toMatchObject({ code: 4403 });
  });

  it('Hocuspocus-only traffic is not passed on; a document\'s close is', () => {
    expect(fromHocuspocus(addressed('home', 2, 2, 0))).toEqual({ kind: 'skip' }); // authenticated
    expect(fromHocuspocus(addressed('home', 8, 1))).toEqual({ kind: 'skip' }); // sync status
    expect(fromHocuspocus(addressed('home', 5, '{"type":"refused"}'))).toEqual({ kind: 'skip' });
    expect(fromHocuspocus(addressed('home', 7, 'Server closed the connection'))).toEqual({ kind: 'closed', reason: 'Server closed the connection' });
  });

  it('any bytes from a client: refused or addressed, never a throw; what passes comes back out unchanged', () => {
    // Mostly frames that start with a type y-websocket sends, so most runs pass the filter.
    const frame = fc.oneof(fc.tuple(fc.constantFrom(0, 1, 3), fc.uint8Array({ maxLength: 64 })).map(([t, rest]) => new Uint8Array([t, ...rest])), fc.uint8Array({ maxLength: 64 }));
    fc.assert(fc.property(fc.string({ maxLength: 60 }), frame, (doc, bytes) => {
      const up = toHocuspocus(doc, bytes);
      if (up === null) return;
      expect(() => frameProblem(up)).not.toThrow();
      const back = fromHocuspocus(up);
      expect(back).toEqual({ kind: 'frame', frame: bytes });
    }), { numRuns: 2000 });
  });
});
