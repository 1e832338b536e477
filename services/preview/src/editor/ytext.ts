// Text props that people type into are Y.Text inside a props Y.Map (shared/ydoc supports both
// shapes), so two typists in one field merge character by character; each change still leaves
// the doc as a `replace …/props/<name>` op that the server validates and logs.
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

/**
 * Binds an input to the prop's Y.Text: local input → minimal insert/delete; remote changes →
 * the input's value with the caret kept in place. Returns the unbind function.
 */
export function bindText(doc: Y.Doc, sid: string, cid: string, name: string, input: HTMLInputElement | HTMLTextAreaElement): () => void {
  let text = ensureText(doc, sid, cid, name);
  if (!text) return () => {};
  let shown = text.toString();
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
    shown = text!.toString();
    input.value = shown;
    if (document.activeElement === input) input.setSelectionRange(start, end);
  };
  const attach = (t: Y.Text): void => { text = t; t.observe(onRemote); };
  attach(text);
  const onInput = (): void => {
    // Someone may have replaced the prop (an HTTP write, another peer's conversion): rebind.
    const now = currentText(doc, sid, cid, name) ?? ensureText(doc, sid, cid, name);
    if (!now) return;
    if (now !== text) { text!.unobserve(onRemote); attach(now); shown = now.toString(); }
    const ed = diffText(shown, input.value, input.selectionStart ?? undefined);
    shown = input.value;
    if (!ed) return;
    doc.transact(() => {
      if (ed.remove > 0) text!.delete(ed.index, ed.remove);
      if (ed.insert !== '') text!.insert(ed.index, ed.insert);
    }, input);
  };
  input.addEventListener('input', onInput);
  return () => { input.removeEventListener('input', onInput); text?.unobserve(onRemote); };
}
