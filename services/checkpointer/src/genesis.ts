// The Yjs lineage's first state, byte-identical to the session's `genesis` in
// services/session/src/collab/draft-doc.ts (a test compares them): the empty draft written by the
// fixed client id 0. Every lineage without a Yjs snapshot of its epoch starts here, so the
// checkpointer's states and the session's docs share structs and never duplicate content.
import * as Y from 'yjs';
import { emptyDraft } from '@weft/core';
import { draftToYDoc } from '@weft/ydoc';

export function genesis(draftId: string, epoch: number): Uint8Array {
  const d = new Y.Doc({ gc: true });
  d.clientID = 0;
  draftToYDoc(emptyDraft(draftId), d, epoch);
  const u = Y.encodeStateAsUpdate(d);
  d.destroy();
  return u;
}
