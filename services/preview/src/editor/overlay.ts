// Boxes drawn over the live preview (same-origin iframe): your selection, everyone else's
// (labelled with their name), and agents' ghosts. Clicking in the preview picks a component.
import { h } from './dom.ts';
import type { Sel } from './tree.ts';

export interface Box { sel: Sel; label: string; color: string; kind: 'me' | 'peer' | 'ghost' | 'flash' | 'broken' }
/** A pointer over the preview: where in a section's box (fractions, so widths and scroll do not matter). */
export interface Pointer { sectionId: string; x: number; y: number }
export interface Cursor { at: Pointer; label: string; color: string }

/** A peer's `pointer` presence field, or null when absent or malformed. */
export function readPointer(v: unknown): Pointer | null {
  const p = v as Partial<Pointer> | null;
  if (!p || typeof p !== 'object' || typeof p.sectionId !== 'string' || typeof p.x !== 'number' || typeof p.y !== 'number') return null;
  if (!(p.x >= 0 && p.x <= 1 && p.y >= 0 && p.y <= 1)) return null;
  return { sectionId: p.sectionId, x: p.x, y: p.y };
}

export class Overlay {
  private readonly frame: HTMLIFrameElement;
  private readonly layer: HTMLElement;
  private boxes: Box[] = [];
  private cursors: Cursor[] = [];
  private raf = 0;
  private hooked: Document | null = null;
  /** Something just added, to scroll into view once it is in the page (until `until`). */
  private revealing: { sel: Sel; until: number } | null = null;

  /**
   * `onDrop`: something from the palette or the outline was dropped on the preview, over `sel`
   * (the component under the pointer); `accepts` says whether a drag is one of ours.
   */
  constructor(frame: HTMLIFrameElement, layer: HTMLElement, onPick: (s: Sel) => void, drop?: { accepts: (dt: DataTransfer) => boolean; onDrop: (s: Sel, dt: DataTransfer) => void }, onPointer?: (p: Pointer | null) => void) {
    this.frame = frame;
    this.layer = layer;
    const selAt = (t: Element | null): Sel | null => {
      const comp = t?.closest?.('[data-component-id]');
      const sec = t?.closest?.('[data-section-id]');
      if (!sec) return null;
      const sid = sec.getAttribute('data-section-id') ?? '';
      const cid = comp && sec.contains(comp) ? comp.getAttribute('data-component-id') : null;
      return cid ? { sectionId: sid, componentId: cid } : { sectionId: sid };
    };
    const hook = (): void => {
      const d = frame.contentDocument;
      if (!d || d === this.hooked || !d.querySelector('main.weft-page')) return;
      this.hooked = d;
      d.addEventListener('click', (e) => {
        const t = e.target as Element | null;
        const s = selAt(t);
        if (!s) return;
        // Links and forms do not navigate while building; controls and actions work (the runtime).
        if (t?.closest?.('a[href], button[type=submit]')) e.preventDefault();
        onPick(s);
      }, true);
      if (drop) {
        d.addEventListener('dragover', (e) => { if (e.dataTransfer && drop.accepts(e.dataTransfer) && selAt(e.target as Element | null)) e.preventDefault(); });
        d.addEventListener('drop', (e) => {
          const s = selAt(e.target as Element | null);
          if (!s || !e.dataTransfer || !drop.accepts(e.dataTransfer)) return;
          e.preventDefault();
          drop.onDrop(s, e.dataTransfer);
        });
      }
      if (onPointer) {
        d.addEventListener('mousemove', (e) => {
          const sec = (e.target as Element | null)?.closest?.('section[data-section-id]');
          if (!sec) return; // between sections: the last place stays
          const r = sec.getBoundingClientRect();
          const clamp = (v: number): number => Math.min(1, Math.max(0, v));
          onPointer({ sectionId: sec.getAttribute('data-section-id') ?? '', x: clamp((e.clientX - r.left) / (r.width || 1)), y: clamp((e.clientY - r.top) / (r.height || 1)) });
        }, { passive: true });
        // Out of the frame (relatedTarget null when the pointer leaves the document).
        d.addEventListener('mouseout', (e) => { if (e.relatedTarget === null) onPointer(null); });
      }
      d.addEventListener('scroll', () => this.schedule(), { passive: true });
      frame.contentWindow?.addEventListener('weft:updated', () => this.schedule());
      frame.contentWindow?.addEventListener('resize', () => this.schedule());
      this.schedule();
    };
    frame.addEventListener('load', hook);
    // The frame's own script morphs sections in; poll lightly for first load and layout shifts.
    setInterval(() => { hook(); this.schedule(); }, 400);
  }

  /** Scrolls `sel` into view once it shows in the preview (it may take a render to arrive). */
  reveal(sel: Sel, withinMs = 4000): void {
    this.revealing = { sel, until: Date.now() + withinMs };
    this.schedule();
  }

  setCursors(cursors: Cursor[]): void {
    this.cursors = cursors;
    this.schedule();
  }

  set(boxes: Box[]): void {
    this.boxes = boxes;
    this.schedule();
  }

  private schedule(): void {
    if (this.raf) return;
    this.raf = requestAnimationFrame(() => { this.raf = 0; this.draw(); });
  }

  private find(sel: Sel): Element | null {
    const d = this.frame.contentDocument;
    if (!d) return null;
    const sec = [...d.querySelectorAll('[data-section-id]')].find((s) => s.getAttribute('data-section-id') === sel.sectionId) ?? null;
    if (!sec || !sel.componentId) return sec;
    return [...sec.querySelectorAll('[data-component-id]')].find((c) => c.getAttribute('data-component-id') === sel.componentId) ?? null;
  }

  private draw(): void {
    const frag = document.createDocumentFragment();
    const rv = this.revealing;
    if (rv) {
      const el = Date.now() < rv.until ? this.find(rv.sel) : null;
      if (el || Date.now() >= rv.until) this.revealing = null;
      el?.scrollIntoView({ block: 'nearest' });
    }
    // The frame may be narrower than the stage (tablet, phone widths): boxes follow its offset.
    const fr = this.frame.getBoundingClientRect();
    const lr = this.layer.getBoundingClientRect();
    const dx = fr.left - lr.left;
    const dy = fr.top - lr.top;
    if (!this.frame.hidden) {
      const used = new Map<string, number>();
      for (const b of this.boxes) {
        let el = this.find(b.sel);
        let pending = false;
        if (!el && b.kind === 'ghost') { el = this.find({ sectionId: b.sel.sectionId }); pending = true; }
        if (!el) continue;
        const r = el.getBoundingClientRect();
        const key = `${b.sel.sectionId}/${b.sel.componentId ?? ''}`;
        const nth = used.get(key) ?? 0;
        used.set(key, nth + 1);
        const top = pending ? r.bottom - 34 : r.top;
        const height = pending ? 30 : r.height;
        const box = h('div', { class: `wb-box wb-box-${b.kind}`, 'data-box-kind': b.kind, 'data-box-for': key },
          h('span', { class: 'wb-box-label' }, b.label));
        box.style.cssText = `left:${dx + r.left - 2}px;top:${dy + top - 2}px;width:${r.width + 4}px;height:${height + 4}px;--c:${b.color};--nth:${nth}`;
        frag.append(box);
      }
    }
    if (!this.frame.hidden) {
      for (const c of this.cursors) {
        const sec = this.find({ sectionId: c.at.sectionId });
        if (!sec) continue;
        const r = sec.getBoundingClientRect();
        const cur = h('div', { class: 'wb-cursor', 'data-cursor-for': c.label }, h('span', { class: 'wb-cursor-label' }, c.label));
        cur.style.cssText = `left:${dx + r.left + c.at.x * r.width}px;top:${dy + r.top + c.at.y * r.height}px;--c:${c.color}`;
        frag.append(cur);
      }
    }
    this.layer.replaceChildren(frag);
  }
}
