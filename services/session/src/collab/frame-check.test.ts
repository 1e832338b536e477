import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import { Awareness, encodeAwarenessUpdate } from 'y-protocols/awareness';
import { writeSyncStep1, writeUpdate } from 'y-protocols/sync';
import * as Y from 'yjs';
import { frameProblem } from './frame-check.ts';

/** A frame as a provider sends it: the document's name, the message type, then its body. */
const frame = (type: number, body: (e: encoding.Encoder) => void): Uint8Array => {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, 'draft');
  encoding.writeVarUint(e, type);
  body(e);
  return encoding.toUint8Array(e);
};

describe('frameProblem', () => {
  const doc = new Y.Doc();
  doc.getMap('meta').set('title', 'x');
  const awareness = new Awareness(doc);
  awareness.setLocalState({ user: { name: 'a' } });

  it('passes what a provider sends: sync step 1, an update, awareness, a token, a stateless message, a close', () => {
    expect(frameProblem(frame(0, (e) => writeSyncStep1(e, doc)))).toBeNull();
    expect(frameProblem(frame(0, (e) => writeUpdate(e, Y.encodeStateAsUpdate(doc))))).toBeNull();
    expect(frameProblem(frame(1, (e) => encoding.writeVarUint8Array(e, encodeAwarenessUpdate(awareness, [doc.clientID]))))).toBeNull();
    expect(frameProblem(frame(2, (e) => { encoding.writeVarUint(e, 0); encoding.writeVarString(e, 'token'); }))).toBeNull();
    expect(frameProblem(frame(5, (e) => encoding.writeVarString(e, '{"type":"submit"}')))).toBeNull();
    expect(frameProblem(frame(7, () => {}))).toBeNull();
  });

  it('names what it cannot read', () => {
    expect(frameProblem(new Uint8Array([200]))).toMatch(/^unreadable/);
    expect(frameProblem(frame(0, (e) => encoding.writeVarUint(e, 2)))).toMatch(/^unreadable \(Unexpected end of array\)/);
    expect(frameProblem(frame(0, (e) => { encoding.writeVarUint(e, 9); encoding.writeVarUint(e, 0); }))).toBe('unknown sync message 9');
    expect(frameProblem(frame(6, (e) => encoding.writeVarString(e, 'x')))).toBe('a server-internal message type');
    const notJson = encoding.createEncoder();
    encoding.writeVarUint(notJson, 1);
    encoding.writeVarUint(notJson, 5);
    encoding.writeVarUint(notJson, 1);
    encoding.writeVarString(notJson, '{bad');
    expect(frameProblem(frame(1, (e) => encoding.writeVarUint8Array(e, encoding.toUint8Array(notJson))))).toMatch(/^unreadable \(.*JSON/);
  });
});
