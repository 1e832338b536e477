// The handoff from build.js (a deferred classic script: it owns the token) to this module bundle.
// build.js announces the token with `weft:ready` and also leaves it on `window.weftReady`, because
// the module may run after the announcement: the ticket can come back before a cold cache has
// fetched and compiled the editor, and then the event was gone and the page stayed at
// "Connecting the editor…" (seen in 4 of 6 fresh browsers creating a draft from the drafts page).

/** What build.js hands over once the token is known. */
export interface Ready { token: string; write: boolean; actor: { id: string; kind: string } }

declare global {
  interface Window { weftReady?: Ready | null }
}

/** Calls `f` for the current sign-in, if build.js made it already, and for every later one. */
export function onReady(f: (r: Ready) => void): void {
  document.addEventListener('weft:ready', (e) => f((e as CustomEvent<Ready>).detail));
  const early = window.weftReady;
  if (early) f(early);
}
