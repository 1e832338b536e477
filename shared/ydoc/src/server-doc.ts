// A Y.Doc made by the server (a lineage, a shadow, a fresh build). Yjs names every new doc with a
// uuidv4 guid by default: 31 crypto.getRandomValues calls, about 1 ms per doc on a busy 2-core box
// (most of a quiet draft's lineage rebuild in the 1,000-draft profile). The guid only names
// subdocuments, which drafts do not have, so server docs share one.
import * as Y from 'yjs';

const GUID = 'weft-server-doc';

export function serverDoc(): Y.Doc {
  return new Y.Doc({ gc: true, guid: GUID });
}
