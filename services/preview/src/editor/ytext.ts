// Text props that people type into are Y.Text inside a props Y.Map (shared/ydoc supports both
// shapes), so two typists in one field merge character by character; each field edit (sent as
// one update, typing-batch.ts) leaves the doc as one `replace …/props/<name>` op that the server
// validates and logs.
import * as Y from 'yjs';
import { SECTIONS_ROOT } from '@weft/ydoc';
import { diffText, shiftCaret } from './text-diff.ts';

function compMap(doc: Y.Doc, sid: string, cid: string): Y.Map<unknown> | null {
  const s = doc.getMap(SECTIONS_ROOT).get(sid);
  const comps = s instanceof Y.Map ? s.get('components') : null;
  const c = comps instanceof Y.Map ? comps.get(cid) : null;
  return c instanceof Y.Map ? (c as Y.Map<unknown>) : null;
}

/** The Y.Text of a string prop, converting the props to a Y.Map first if need be; null if the prop is not a string. */
export function ensureText(doc: Y.Doc, sid: string, cid: string, name: string): Y.Text | null {
  const c = compMap(doc, sid, cid);
  if (!c) return null;
  const cur = c.get('props');
  if (cur instanceof Y.Map) {
    const v = cur.get(name);
    if (v instanceof Y.Text) return v;
    if (typeof v !== 'string' && v !== undefined) return null;
    const t = new Y.Text(typeof v === 'string' ? v : '');
    doc.transact(() => cur.set(name, t));
    return t;
  }
  const json = (cur && typeof cur === 'object' && !Array.isArray(cur) ? cur : {}) as Record<string, unknown>;
  const v = json[name];
  if (typeof v !== 'string' && v !== undefined) return null;
  const m = new Y.Map<unknown>();
  const t = new Y.Text(typeof v === 'string' ? v : '');
  for (const [k, x] of Object.entries(json)) if (k !== name) m.set(k, x);
  m.set(name, t);
  doc.transact(() => c.set('props', m));
  return t;
}

/** The Y.Text now stored for the prop, if it is one (another peer may have replaced it). */
export function currentText(doc: Y.Doc, sid: string, cid: string, name: string): Y.Text | null {
  const p = compMap(doc, sid, cid)?.get('props');
  const v = p instanceof Y.Map ? p.get(name) : null;
  return v instanceof Y.Text ? v : null;
}

/** The prop's value when it is a plain string (not a Y.Text); null otherwise. */
function plainValue(doc: Y.Doc, sid: string, cid: string, name: string): string | null {
  const p = compMap(doc, sid, cid)?.get('props');
  const v = p instanceof Y.Map ? p.get(name) : p && typeof p === 'object' ? (p as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v : null;
}

/**
 * Binds an input to the prop's Y.Text: local input → minimal insert/delete; remote changes →
 * the input's value with the caret kept in place. Returns the unbind function.
 */
export interface BindOptions {
  /** The field's edit ended (blur): send what typing holds (typing-batch.ts). */
  onEnd?: () => void;
  /** Ctrl/Cmd+Z (Shift: redo) inside the field: the app's undo, not the browser's. */
  onUndo?: (mode: 'undo' | 'redo') => void;
  /** Text the person had typed that the doc lacks (it was replaced meanwhile): typed again. */
  retype?: string;
  /** After each keystroke, with the field's text (shown to the others before it is sent). */
  onType?: (value: string) => void;
}

export function bindText(doc: Y.Doc, sid: string, cid: string, name: string, input: HTMLInputElement | HTMLTextAreaElement, o: BindOptions = {}): () => void {
  // The prop becomes a Y.Text when the field is bound (focus), sent at once so that two people
  // starting to type share one Y.Text (an equal value in another form: no step, @weft/ydoc).
  const first = ensureText(doc, sid, cid, name);
  if (!first) return () => {}; // not a string prop
  let text: Y.Text | null = null;
  let shown = first.toString();
  if (input.value !== shown) input.value = shown;
  const onRemote = (e: Y.YTextEvent, tr: Y.Transaction): void => {
    if (tr.local && tr.origin === input) return;
    let pos = 0;
    let start = input.selectionStart ?? 0;
    let end = input.selectionEnd ?? 0;
    for (const d of e.delta) {
      if (d.retain !== undefined) pos += d.retain;
      else if (typeof d.insert === 'string') {
        const ed = { index: pos, remove: 0, insert: d.insert };
        start = shiftCaret(start, ed); end = shiftCaret(end, ed);
        pos += d.insert.length;
      } else if (d.delete !== undefined) {
        const ed = { index: pos, remove: d.delete, insert: '' };
        start = shiftCaret(start, ed); end = shiftCaret(end, ed);
      }
    }
    shown = e.target.toString();
    input.value = shown;
    if (document.activeElement === input) input.setSelectionRange(start, end);
  };
  const follow = (t: Y.Text | null): void => {
    if (t === text) return;
    text?.unobserve(onRemote);
    text = t;
    text?.observe(onRemote);
  };
  follow(currentText(doc, sid, cid, name));
  // Someone replaced the prop itself (an undo, an HTTP write: a plain string where the Y.Text
  // was): show what is there now; the next keystroke turns it into a Y.Text again.
  const onTransaction = (tr: Y.Transaction): void => {
    if (tr.origin === input) return;
    const now = currentText(doc, sid, cid, name);
    if (now === text) return;
    follow(now);
    const value = now ? now.toString() : plainValue(doc, sid, cid, name);
    if (!now && document.activeElement === input) queueMicrotask(() => follow(ensureText(doc, sid, cid, name)));
    if (value === null || value === shown) return;
    shown = value;
    input.value = value;
  };
  doc.on('afterTransaction', onTransaction);
  const onInput = (): void => {
    const typed = input.value;
    doc.transact(() => {
      const t = currentText(doc, sid, cid, name) ?? ensureText(doc, sid, cid, name);
      if (!t) return;
      follow(t);
      const ed = diffText(t.toString(), typed, input.selectionStart ?? undefined);
      if (!ed) return;
      if (ed.remove > 0) t.delete(ed.index, ed.remove);
      if (ed.insert !== '') t.insert(ed.index, ed.insert);
    }, input);
    shown = typed;
    o.onType?.(typed);
  };
  const onBlur = (): void => o.onEnd?.();
  const onKey = (ev: Event): void => {
    const e = ev as KeyboardEvent;
    if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== 'z' || !o.onUndo) return;
    e.preventDefault();
    o.onUndo(e.shiftKey ? 'redo' : 'undo');
  };
  input.addEventListener('input', onInput);
  input.addEventListener('blur', onBlur);
  input.addEventListener('keydown', onKey);
  if (o.retype !== undefined && o.retype !== shown) {
    input.value = o.retype;
    onInput();
  }
  return () => {
    input.removeEventListener('input', onInput);
    input.removeEventListener('blur', onBlur);
    input.removeEventListener('keydown', onKey);
    doc.off('afterTransaction', onTransaction);
    follow(null);
  };
}
