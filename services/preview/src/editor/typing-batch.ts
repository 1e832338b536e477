// One step per field edit (issue 15): the updates a person's typing makes to a Y.Text are held
// here and sent as ONE merged update when the edit ends — a pause, the field's blur, any other
// edit, or the page going away. The server then judges and logs one step per edit (one version,
// one feed entry, one undo), and the merge between two typists stays Yjs's, character by
// character: held updates are applied to the local doc at once (the caret, remote edits and the
// preview stay right), only their sending waits.
import * as Y from 'yjs';
import type { WeftPeer } from '@weft/client';

type HocuspocusProvider = WeftPeer['provider'];

/** What the provider exposes and we re-route (its own doc 'update' listener). */
type Wired = HocuspocusProvider & { boundDocumentUpdateHandler: (u: Uint8Array, origin: unknown) => void };

/** Typing transactions are made with the field as origin (ytext.ts). */
const isTyping = (origin: unknown): boolean => typeof HTMLElement !== 'undefined' && origin instanceof HTMLElement;

export class TypingBatch {
  private held: Uint8Array[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly provider: Wired;
  private readonly doc: Y.Doc;
  private readonly pauseMs: number;
  private readonly onSent: () => void;
  private readonly onUpdate = (u: Uint8Array, origin: unknown): void => {
    if (origin === this.provider) return; // from the server
    if (isTyping(origin)) {
      this.held.push(u);
      if (this.timer !== null) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.flush(), this.pauseMs);
      return;
    }
    this.flush(); // keep the order: the held typing goes first
    this.provider.boundDocumentUpdateHandler(u, origin);
  };

  /** `onSent`: called after held typing was sent. */
  constructor(provider: HocuspocusProvider, doc: Y.Doc, onSent: () => void = () => {}, pauseMs = 800) {
    this.provider = provider as Wired;
    this.doc = doc;
    this.onSent = onSent;
    this.pauseMs = pauseMs;
    doc.off('update', this.provider.boundDocumentUpdateHandler);
    doc.on('update', this.onUpdate);
  }

  get pending(): boolean {
    return this.held.length > 0;
  }

  /** Sends what is held as one update. Returns whether there was anything. */
  flush(): boolean {
    if (this.timer !== null) { clearTimeout(this.timer); this.timer = null; }
    if (this.held.length === 0) return false;
    const u = this.held.length === 1 ? this.held[0]! : Y.mergeUpdates(this.held);
    this.held = [];
    this.provider.boundDocumentUpdateHandler(u, null);
    this.onSent();
    return true;
  }

  /** Gives the provider its own listener back (the doc is being replaced: what is held is dropped). */
  detach(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.held = [];
    this.doc.off('update', this.onUpdate);
  }
}
