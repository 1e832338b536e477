// Other people's typing, shown in this page's preview keystroke by keystroke before their edit is
// sent (typing-batch.ts holds it until a pause): their presence carries what the field holds, and
// a text-only element of the preview shows it. Never stored, never judged — the step that follows
// is. Set as textContent (data, never markup).
export interface Typing { sectionId: string; componentId: string; prop: string; value: string }

interface Echo { el: Element; shown: string; endedAt: number | null; t: Typing }

/** How long an ended echo waits for the real step before the page's own value is put back. */
const SETTLE_MS = 2500;

export class TypingEcho {
  private readonly frame: HTMLIFrameElement;
  private readonly valueOf: (t: Typing) => string | null;
  private readonly echoes = new Map<string, Echo>();

  /** `valueOf`: the prop's value in this page's draft (what to show once an echo is over). */
  constructor(frame: HTMLIFrameElement, valueOf: (t: Typing) => string | null) {
    this.frame = frame;
    this.valueOf = valueOf;
  }

  private find(t: Typing): Element | null {
    const d = this.frame.contentDocument;
    if (!d) return null;
    const sec = [...d.querySelectorAll('[data-section-id]')].find((s) => s.tagName !== 'SCRIPT' && s.getAttribute('data-section-id') === t.sectionId);
    const el = sec ? [...sec.querySelectorAll('[data-component-id]')].find((c) => c.getAttribute('data-component-id') === t.componentId) : null;
    // Only an element that is its text (a Heading, a Text): anything with structure is left alone.
    return el && el.children.length === 0 ? el : null;
  }

  /** Everyone's current typing (from presence); call on every presence change and render. */
  update(active: readonly Typing[]): void {
    const now = Date.now();
    const live = new Set<string>();
    for (const t of active) {
      const key = `${t.sectionId}/${t.componentId}#${t.prop}`;
      live.add(key);
      const el = this.find(t);
      if (!el) continue;
      if (el.textContent !== t.value) el.textContent = t.value;
      this.echoes.set(key, { el, shown: t.value, endedAt: null, t });
    }
    for (const [key, e] of this.echoes) {
      if (live.has(key)) continue;
      e.endedAt ??= now;
      if (now - e.endedAt < SETTLE_MS) continue;
      // The step has had time to arrive (the preview then morphed the element); if it did not
      // (refused, or still what was echoed), show the page's own value again.
      const v = this.valueOf(e.t);
      if (e.el.isConnected && e.el.textContent === e.shown && v !== null && v !== e.shown) e.el.textContent = v;
      this.echoes.delete(key);
    }
  }

  get pending(): boolean {
    return this.echoes.size > 0;
  }
}

/** Reads a peer's `typing` presence field; anything malformed is ignored. */
export function readTyping(v: unknown): Typing | null {
  const t = v as Partial<Typing> | null;
  if (!t || typeof t !== 'object') return null;
  if (typeof t.sectionId !== 'string' || typeof t.componentId !== 'string' || typeof t.prop !== 'string' || typeof t.value !== 'string') return null;
  return { sectionId: t.sectionId, componentId: t.componentId, prop: t.prop, value: t.value.slice(0, 2000) };
}
