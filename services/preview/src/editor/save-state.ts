// Whether this page's edits have reached the server. Edits go into the peer's Y.Doc at once; the
// provider sends them and the server confirms each one (Hocuspocus sync status). While it cannot
// (the database restarting, the node going away), the edits wait in the page and go out when it
// reconnects — the page says so instead of looking saved.

export interface SaveInput {
  /** The provider is synced with the server now. */
  synced: boolean;
  /** Edits sent or waiting that the server has not confirmed. */
  unsynced: boolean;
  /** Since when (ms) the page has been out of step (not synced, or with unconfirmed edits); null: in step. */
  since: number | null;
  now: number;
}

/** How long an edit may wait for its confirmation before the page says so (a normal one takes ms). */
export const SAVING_AFTER_MS = 1500;
/** …and before it says the edits are not saved yet. */
export const UNSAVED_AFTER_MS = 5000;

/** The line to show, or null when everything the page did is confirmed (or it is too soon to say). */
export function saveState(s: SaveInput): { text: string; cls: 'wb-warn' | '' } | null {
  if (s.since === null) return null;
  const waited = s.now - s.since;
  if (s.unsynced) {
    if (waited >= UNSAVED_AFTER_MS) return { text: 'not saved yet — your edits are kept here and sent when the server is back', cls: 'wb-warn' };
    if (waited >= SAVING_AFTER_MS) return { text: 'saving…', cls: '' };
    return null;
  }
  if (!s.synced && waited >= SAVING_AFTER_MS) return { text: 'reconnecting…', cls: '' };
  return null;
}
