// The Build view's editor (issue 8), bundled by esbuild at server start (../editor-bundle.ts).
// The page joins the draft as a real Yjs peer (WeftPeer): every edit goes through the Y.Doc and
// the server's pipeline like anyone else's; a refused edit is reverted by the server for everyone
// and its reason is shown here. build.js owns the token, the feed, versions and undo; it sends
// `weft:ready` once the token is known.
import { WeftPeer } from '@weft/client';
import type { Draft, Json, JsonObject, Op, SurfaceSection } from '@weft/core';
import { colorOf, h, initials } from './dom.ts';
import { fieldsOf, isBindingValue, parseInput } from './fields.ts';
import type { FieldSpec } from './fields.ts';
import { Overlay, readPointer } from './overlay.ts';
import { onReady } from './ready.ts';
import type { Ready } from './ready.ts';
import type { Box, Pointer } from './overlay.ts';
import { addOps, addSectionOps, compPath, dropMoveOps, duplicateOps, duplicateSectionOps, moveSectionOps, moveTargets, parents, removeOps, removeSectionOps, reorderOps, reparentOps, walk } from './tree.ts';
import { STARTERS, paletteBlueprint, starterSectionOps } from './blueprints.ts';
import { explainRefusal } from './refusals.ts';
import { Orientation } from './orientation.ts';
import type { EditKind } from './refusals.ts';
import type { ChildrenPolicy, Sel } from './tree.ts';
import { bindText } from './ytext.ts';
import { TypingBatch } from './typing-batch.ts';
import { TypingEcho, readTyping } from './typing-echo.ts';
import type { Typing } from './typing-echo.ts';
import { describeStep, setKindNames } from './sentences.ts';
import type { StepLike } from './sentences.ts';
import { loadHistory } from './history.ts';
import { BuildChat } from './chat.ts';
import { saveState } from './save-state.ts';
import type { ChatScope } from './chat.ts';

interface Entry { name: string; group: string; description: string; props: Record<string, unknown>; children: ChildrenPolicy; example: JsonObject }
interface PeerView { clientId: number; id: string; kind: string; name: string; color: string; selection: Sel | null; ghost: unknown; typing: Typing | null; pointer: Pointer | null }
interface BuildHooks { describe?: (step: StepLike) => string; setPresence(p: unknown): void; ghost(g: unknown): void; feed(i: unknown): void; notice?(text: string, kind?: string): void; clearNotice?(kind: string): void; undo?(mode: 'undo' | 'redo', afterMine: boolean): void }

const $ = (id: string): HTMLElement => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`#${id} missing`);
  return e;
};
const catalog: Record<string, Entry> = JSON.parse($('wb-catalog').textContent || '{}') as Record<string, Entry>;
const policyOf = (name: string): ChildrenPolicy | undefined => catalog[name]?.children;
setKindNames(Object.keys(catalog));
const hooks = (): BuildHooks | undefined => (window as unknown as { weftBuild?: BuildHooks }).weftBuild;
const notice = (text: string, kind = 'info'): void => hooks()?.notice?.(text, kind);

let peer: WeftPeer | null = null;
let me: Ready | null = null;
let draft: Draft = { id: '', title: '', order: [], sections: {} };
let sel: Sel | null = null;
/** Input the page could not read (bad JSON, not a number): path → why, and the text as typed (kept in the field to fix). */
const errors = new Map<string, { message: string; typed: string }>();
let others: PeerView[] = [];
let unbind: (() => void) | null = null;
let boundKey = '';
let inspectorSig = '';
/** The outline as last drawn (see renderOutline). */
let outlineHtml = '';
let overlay: Overlay | null = null;
/** Broken fidelity notes of the head version, drawn on their components (refreshed after edits). */
let broken: Box[] = [];
let notesTimer = 0;
/** The last edit sent, so a refusal can say what it undid (a concurrent move, not a mistake). */
let lastEdit: { kind: EditKind; what: string; at: number } | null = null;
let paletteQuery = '';
let batch: TypingBatch | null = null;
/** What this person is typing and has not sent yet (their presence shows it to the others). */
let typing: Typing | null = null;
let echo: TypingEcho | null = null;
/** What was being typed when the doc was replaced (an epoch change): typed again into the new one. */
let retype: { key: string; value: string } | null = null;

// The Build chat (chat.ts): its transcript follows the draft's stream; a pick scopes its brief.
const chat = new BuildChat($('wb-chat'), document.body.getAttribute('data-draft-id') ?? '', document.body.getAttribute('data-session-url') || location.origin);
const scopeName = (s: ChatScope): string => {
  const c = s.componentId ? draft.sections[s.sectionId]?.components[s.componentId] : undefined;
  return c ? `${c.component} “${s.componentId}” in section ${s.sectionId}` : s.componentId ? `“${s.componentId}” in section ${s.sectionId}` : `section ${s.sectionId}`;
};
onReady((r) => {
  void chat.start(r, scopeName);
  void start(r);
  void loadHistory({ token: r.token, feed: (i) => hooks()?.feed(i), describe: (st) => describeStep(st, peer ? draft : null) }, null);
});
// The feed speaks in sentences about the draft as this page sees it (build.js asks for them).
const registerDescribe = (): void => { const hk = hooks(); if (hk) hk.describe = (step) => describeStep(step, peer ? draft : null); };
registerDescribe();
document.addEventListener('DOMContentLoaded', registerDescribe);
document.addEventListener('weft:signed-out', () => { batch?.flush(); peer?.close(); peer = null; });
// The draft was deleted: nothing left to edit or to reconnect to.
document.addEventListener('weft:gone', () => {
  // Its last state stays on screen, read-only: every edit control goes (they would write nowhere).
  batch?.detach();
  batch = null;
  if (me) me = { ...me, write: false };
  document.body.classList.add('wb-readonly');
  render();
  chat.gone();
  peer?.close();
  peer = null;
});
// Whether this page's edits reached the server (save-state.ts): polled, so a provider replaced by a
// reload or a failover needs no re-binding.
let outOfStepSince: number | null = null;
window.setInterval(() => {
  const el = document.getElementById('wb-save');
  const prov = peer?.provider;
  if (!el) return;
  const synced = prov?.isSynced ?? true;
  const unsynced = prov?.hasUnsyncedChanges ?? false;
  outOfStepSince = synced && !unsynced ? null : (outOfStepSince ?? Date.now());
  const s = saveState({ synced, unsynced, since: outOfStepSince, now: Date.now() });
  el.hidden = s === null;
  if (s) { el.textContent = s.text; el.className = `wb-status ${s.cls}`; }
}, 500);
// Typing held for its pause is sent before the page goes away.
window.addEventListener('pagehide', () => { batch?.flush(); });

async function start(r: Ready): Promise<void> {
  me = r;
  peer?.close();
  document.body.classList.toggle('wb-readonly', !r.write);
  const base = document.body.getAttribute('data-session-url') || location.origin;
  try {
    peer = await WeftPeer.join({ url: base, draftId: document.body.getAttribute('data-draft-id') ?? '', token: r.token, presence: { name: r.actor.id, color: colorOf(r.actor.id), selection: null } });
  } catch (e) {
    notice(`Could not join the draft for editing: ${(e as Error).message}`, 'bad');
    return;
  }
  const p = peer;
  batch?.detach();
  batch = new TypingBatch(p.provider, p.doc, typingSent);
  overlay ??= new Overlay($('wb-frame') as HTMLIFrameElement, $('wb-overlay'), (s) => select(s, true), { accepts: isOurDrag, onDrop: dropOn }, movePointer);
  const follow = (): void => {
    p.doc.on('update', () => schedule());
    p.provider.awareness?.on('change', () => { readPeers(); schedule(); });
  };
  follow();
  // A new Yjs epoch (server compaction): the peer has a fresh doc; re-follow it and drop the text
  // binding, which belongs to the old doc.
  p.onReload(() => {
    const f = document.activeElement as HTMLInputElement | null;
    if (batch?.pending && boundKey && f && typeof f.value === 'string') retype = { key: boundKey, value: f.value };
    batch?.detach();
    batch = new TypingBatch(p.provider, p.doc, typingSent);
    unbind?.();
    unbind = null;
    inspectorSig = '';
    follow();
    readPeers();
    schedule();
  });
  p.onRefused((m) => {
    const why = explainRefusal(m.refused, lastEdit && Date.now() - lastEdit.at < 15_000 ? lastEdit : null);
    const lines = m.refused.map((x) => ({ path: x.path, text: x.message }));
    if (why.conflict) lines.unshift({ path: '', text: why.text });
    // The refused value has snapped back: the notice and the feed say why, the field is valid again.
    for (const x of m.refused) errors.delete(x.path);
    hooks()?.feed({ kind: 'refused', actor: 'you', title: why.conflict ? 'your edit crossed someone else\'s and was undone' : 'your edit was refused and undone', lines, mine: true });
    notice(why.text, 'bad');
    inspectorSig = '';
    schedule();
  });
  readPeers();
  render();
}

function sendPresence(): void {
  peer?.setPresence({ name: me?.actor.id ?? '', color: colorOf(me?.actor.id ?? ''), selection: sel, typing, pointer });
}

/** Where this person's pointer is over the preview, sent at most every 80 ms (a live cursor for the others). */
let pointer: Pointer | null = null;
let pointerTimer: ReturnType<typeof setTimeout> | null = null;
let pointerSent = 0;
function movePointer(p: Pointer | null): void {
  pointer = p;
  const wait = 80 - (Date.now() - pointerSent);
  if (wait <= 0) { pointerSent = Date.now(); sendPresence(); return; }
  pointerTimer ??= setTimeout(() => { pointerTimer = null; pointerSent = Date.now(); sendPresence(); }, wait);
}

/** The typing batch was sent (pause, blur, another edit): the real step now speaks for it. */
function typingSent(): void {
  if (typing === null) return;
  typing = null;
  sendPresence();
}

/** Ctrl/Cmd+Z in a text field: the edit so far becomes its step, then the app undoes it whole. */
function fieldUndo(mode: 'undo' | 'redo'): void {
  const sent = batch?.flush() ?? false;
  hooks()?.undo?.(mode, sent);
}

let frame = 0;
function schedule(): void {
  if (frame) return;
  frame = requestAnimationFrame(() => { frame = 0; render(); });
}

/** Applies ops through the Y.Doc; a local throw (stale path) is shown, never swallowed. */
function edit(ops: Op[], what: string, kind: EditKind = 'change'): void {
  if (!peer || !me?.write || ops.length === 0) return;
  try {
    lastEdit = { kind, what, at: Date.now() };
    hooks()?.clearNotice?.('bad'); // a new edit supersedes the last refusal's notice
    peer.applyOps(ops);
  } catch (e) {
    notice(`Could not ${what}: ${(e as Error).message}`, 'bad');
  }
}

function readPeers(): void {
  if (!peer) return;
  const mine = peer.doc.clientID;
  others = peer.peers().filter((s) => s.clientId !== mine && s.user).map((s) => {
    const pr = (s.presence ?? {}) as Record<string, unknown>;
    // An agent acting with someone's token has their user id: its presence says it is an agent.
    const agent = pr['agent'] === true;
    const id = `${s.user?.id ?? 'someone'}${agent ? '·agent' : ''}`;
    const selection = pr['selection'] && typeof (pr['selection'] as Sel).sectionId === 'string' ? (pr['selection'] as Sel) : null;
    return { clientId: s.clientId, id, kind: agent ? 'agent' : (s.user?.kind ?? 'human'), name: typeof pr['name'] === 'string' ? (pr['name'] as string).slice(0, 40) : id, color: colorOf(id), selection, ghost: pr['ghost'] ?? null, typing: readTyping(pr['typing']), pointer: readPointer(pr['pointer']) };
  });
}

function select(s: Sel | null, fromPreview = false): void {
  sel = s;
  if (s) chat.setScope(s);
  sendPresence();
  inspectorSig = '';
  render();
  if (fromPreview && s) document.querySelector<HTMLElement>(`#wb-outline [data-key="${CSS.escape(key(s))}"]`)?.focus({ preventScroll: false });
}
const key = (s: Sel): string => `${s.sectionId}/${s.componentId ?? ''}`;

// ---- render ------------------------------------------------------------------------------
const orientation = new Orientation({
  reveal: (x) => overlay?.reveal(x),
  later: (ms) => { setTimeout(() => schedule(), ms); },
  notice: (text) => notice(text, 'info'),
});
document.addEventListener('weft:step', (e) => {
  const st = (e as CustomEvent<{ actor: string; ops: Op[] }>).detail;
  orientation.step(st.actor, st.ops ?? [], me?.actor.id ?? '');
});

function render(): void {
  if (!peer) return;
  draft = peer.draft();
  if (sel && (!draft.sections[sel.sectionId] || (sel.componentId && !draft.sections[sel.sectionId]?.components[sel.componentId]))) {
    const prev = sel;
    sel = null;
    const byMe = lastEdit !== null && lastEdit.what.startsWith('delete') && Date.now() - lastEdit.at < 3000;
    orientation.selectionGone(prev, byMe, me?.actor.id ?? '');
  }
  orientation.seen(draft);
  chat.draftChanged(draft);
  const t0 = performance.now();
  renderTitle();
  renderPresence();
  renderOutline();
  const t1 = performance.now();
  renderPalette();
  renderInspector();
  const t2 = performance.now();
  renderOverlay();
  timed(t0, t1, t2);
  clearTimeout(notesTimer);
  notesTimer = window.setTimeout(() => void refreshNotes(), 400);
}

interface Note { componentId: string; sectionId: string; rule: string; message: string; severity: string }
async function refreshNotes(): Promise<void> {
  if (!me) return;
  const id = document.body.getAttribute('data-draft-id') ?? '';
  try {
    const r = await fetch(`/preview/${encodeURIComponent(id)}/render`, { headers: { authorization: `Bearer ${me.token}` }, cache: 'no-store' });
    if (!r.ok) return;
    const notes = ((await r.json()) as { notes?: Note[] }).notes ?? [];
    const seen = new Set<string>();
    broken = [];
    for (const n of notes) {
      const key = `${n.sectionId}/${n.componentId}`;
      if (n.severity !== 'broken' || seen.has(key)) continue;
      seen.add(key);
      broken.push({ sel: n.componentId ? { sectionId: n.sectionId, componentId: n.componentId } : { sectionId: n.sectionId }, label: `${n.rule}: ${n.message}`.slice(0, 90), color: '#b45309', kind: 'broken' });
    }
    renderOverlay();
  } catch { /* the next edit retries */ }
}

// User Timing entries for the bench (services/preview/bench/build-view.bench.ts), kept bounded.
let measured = 0;
function timed(t0: number, t1: number, t2: number): void {
  performance.measure('weft:outline', { start: t0, end: t1 });
  performance.measure('weft:inspector', { start: t1, end: t2 });
  performance.measure('weft:render', { start: t0 });
  if (++measured % 500 === 0) for (const m of ['weft:outline', 'weft:inspector', 'weft:render']) performance.clearMeasures(m);
}

/** The page's title in the bar (the id in its tooltip); a writer renames it in place (Enter or leaving the field; Escape keeps it). */
let renaming = false;
function renderTitle(): void {
  const el = document.getElementById('wb-title');
  if (!el || renaming) return;
  const title = draft.title || draft.id;
  document.title = `${title} · Build · Weft`;
  if (el.textContent === title && el.dataset['write'] === String(!!me?.write)) return;
  el.textContent = title;
  el.title = me?.write ? `Rename the page (id: ${draft.id})` : `id: ${draft.id}`;
  el.dataset['write'] = String(!!me?.write);
  if (me?.write) { el.setAttribute('role', 'button'); el.tabIndex = 0; } else { el.removeAttribute('role'); el.removeAttribute('tabindex'); }
}
function startRename(): void {
  const el = document.getElementById('wb-title');
  if (!el || !me?.write || renaming) return;
  renaming = true;
  const input = h('input', { class: 'wb-title-input', value: draft.title, maxlength: '200', 'aria-label': 'Page title', spellcheck: 'false' });
  el.replaceChildren(input);
  input.focus();
  input.select();
  let done = false;
  const finish = (keep: boolean): void => {
    if (done) return;
    done = true;
    renaming = false;
    const next = input.value.trim();
    el.textContent = ''; // renderTitle writes it again
    if (keep && next !== '' && next !== draft.title) edit([{ op: 'replace', path: '/title', value: next }], 'rename the page');
    renderTitle();
  };
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') { e.preventDefault(); finish(true); } else if (e.key === 'Escape') { e.preventDefault(); finish(false); }
    e.stopPropagation(); // Ctrl/Cmd+Z here is the field's own undo, not the page's
  });
  input.addEventListener('blur', () => finish(true));
}
document.getElementById('wb-title')?.addEventListener('click', startRename);
document.getElementById('wb-title')?.addEventListener('keydown', (e) => { if (e.target === e.currentTarget && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); startRename(); } });

function renderPresence(): void {
  const box = $('weft-presence');
  const people: Node[] = [];
  const all = [{ id: me?.actor.id ?? 'you', kind: me?.actor.kind ?? 'human', name: `${me?.actor.id ?? 'you'} (you)` }, ...others];
  const seen = new Set<string>();
  for (const p of all) {
    if (seen.has(p.id)) continue;
    seen.add(p.id);
    const a = h('span', { class: `wb-avatar wb-${p.kind === 'agent' ? 'agent' : 'human'}`, title: p.name, 'data-peer': p.id }, initials(p.id));
    a.style.background = colorOf(p.id);
    people.push(a);
  }
  box.replaceChildren(...people);
  const ghosts = others.filter((o) => o.ghost);
  const g = $('weft-ghosts');
  g.replaceChildren(...ghosts.map((o) => h('div', { class: 'wb-ghost', 'data-ghost': o.id }, `${o.name} is writing ${ghostLabel(o.ghost)}`)));
}

function ghostOp(g: unknown): { path?: string; value?: unknown } | null {
  const o = (g && typeof g === 'object' && 'op' in g ? (g as { op: unknown }).op : g) as { path?: unknown; value?: unknown } | null;
  return o && typeof o === 'object' && typeof o.path === 'string' ? { path: o.path, value: o.value } : null;
}
function ghostSel(g: unknown): Sel | null {
  const op = ghostOp(g);
  const m = op?.path ? /^\/sections\/([^/]+)(?:\/components\/([^/]+))?/.exec(op.path) : null;
  if (!m) return null;
  return m[2] ? { sectionId: m[1]!, componentId: m[2] } : { sectionId: m[1]! };
}
function ghostLabel(g: unknown): string {
  const op = ghostOp(g);
  const v = op?.value as { component?: unknown } | undefined;
  const s = ghostSel(g);
  return typeof v?.component === 'string' ? `a ${v.component}` : s ? (s.componentId ?? s.sectionId) : '…';
}

function renderOverlay(): void {
  const boxes: Box[] = [...broken];
  if (sel) boxes.push({ sel, label: 'you', color: '#4f46e5', kind: 'me' });
  for (const o of others) {
    if (o.selection) boxes.push({ sel: o.selection, label: o.name, color: o.color, kind: 'peer' });
    const gs = ghostSel(o.ghost);
    if (gs) boxes.push({ sel: gs, label: `${o.name} is writing ${ghostLabel(o.ghost)}`, color: o.color, kind: 'ghost' });
  }
  for (const f of orientation.flashing()) boxes.push({ sel: f, label: 'new', color: '#16a34a', kind: 'flash' });
  overlay?.set(boxes);
  overlay?.setCursors(others.flatMap((o) => (o.pointer ? [{ at: o.pointer, label: o.name, color: o.color }] : [])));
  echo ??= new TypingEcho($('wb-frame') as HTMLIFrameElement, (t) => {
    const v = draft.sections[t.sectionId]?.components[t.componentId]?.props?.[t.prop];
    return typeof v === 'string' ? v : null;
  });
  // Your own typing too: your preview shows each keystroke before the edit is sent.
  echo.update([...(typing ? [typing] : []), ...others.flatMap((o) => (o.typing ? [o.typing] : []))]);
  if (echo.pending) setTimeout(() => schedule(), 500);
}

function btn(label: string, title: string, on: () => void, attrs: Record<string, string | boolean | undefined> = {}): HTMLButtonElement {
  const b = h('button', { type: 'button', title, 'aria-label': title, ...attrs }, label);
  b.addEventListener('click', on);
  return b;
}

function renderOutline(): void {
  const host = $('wb-outline');
  const active = (document.activeElement as HTMLElement | null)?.getAttribute?.('data-key') ?? null;
  const list = h('ul', { class: 'wb-tree', role: 'tree', 'aria-label': 'Page outline' });
  draft.order.forEach((sid, si) => {
    const s = draft.sections[sid];
    if (!s) return;
    const secSel = { sectionId: sid };
    const head = h('li', { class: 'wb-tree-section', role: 'treeitem', 'aria-expanded': 'true' });
    const row = h('div', { class: `wb-row${sel && !sel.componentId && sel.sectionId === sid ? ' wb-sel' : ''}` },
      rowButton(secSel, `▤ ${sid}`, 'section'),
      avatarsFor(secSel),
      me?.write ? h('span', { class: 'wb-row-tools' },
        btn('↑', `Move section ${sid} up`, () => edit(moveSectionOps(draft, sid, -1), 'move the section', 'move'), { disabled: si === 0 }),
        btn('↓', `Move section ${sid} down`, () => edit(moveSectionOps(draft, sid, 1), 'move the section', 'move'), { disabled: si === draft.order.length - 1 }),
        btn('❏', `Duplicate section ${sid}`, () => { const d = duplicateSectionOps(draft, sid); if (d) { edit(d.ops, 'duplicate the section'); select({ sectionId: d.id }); } }),
        btn('✕', `Delete section ${sid}`, () => { edit(removeSectionOps(sid), 'delete the section'); select(null); })) : null);
    head.append(row);
    const kids = h('ul', { role: 'group' });
    for (const [cid, depth] of walk(s)) {
      const c = s.components[cid]!;
      const cs = { sectionId: sid, componentId: cid };
      const li = h('li', { role: 'treeitem', class: `wb-row${sel?.sectionId === sid && sel.componentId === cid ? ' wb-sel' : ''}` },
        rowButton(cs, `${c.component} · ${cid}`, c.component), avatarsFor(cs));
      li.style.paddingLeft = `${depth * 14}px`;
      kids.append(li);
    }
    head.append(kids);
    list.append(head);
  });
  const tools = me?.write ? h('div', { class: 'wb-outline-tools' }, btn('+ Section', 'Add a section at the end of the page', () => {
    const a = addSectionOps(draft);
    edit(a.ops, 'add a section');
    select({ sectionId: a.id });
  }, { id: 'wb-add-section' }), draft.order.length > 0 ? starterButtons('wb-starters-more') : null) : null;
  const empty = draft.order.length === 0 ? emptyState() : null;
  const next = [...(empty ? [empty] : [list]), ...(tools ? [tools] : [])];
  // Rows are replaced only when they would look different: presence, ghosts and typing re-render
  // the view many times a second, and a button swapped between mousedown and mouseup loses the
  // click. The handlers read the draft and selection at event time, so kept rows stay right.
  const html = next.map((e) => e.outerHTML).join('');
  if (html === outlineHtml && host.childElementCount === next.length) return;
  outlineHtml = html;
  host.replaceChildren(...next);
  if (active) host.querySelector<HTMLElement>(`[data-key="${CSS.escape(active)}"]`)?.focus({ preventScroll: true });
}

function rowButton(s: Sel, label: string, kind: string): HTMLButtonElement {
  const b = btn(label, `Select ${s.componentId ? `${kind} ${s.componentId}` : `section ${s.sectionId}`}`, () => select(s), { class: 'wb-pick', 'data-key': key(s), 'aria-selected': sel !== null && key(sel) === key(s) ? 'true' : 'false' });
  b.addEventListener('keydown', (e) => onTreeKey(e, s));
  if (me?.write) {
    // Drag a component row onto another row (after it) or the palette onto a row (into or after it).
    if (s.componentId && s.componentId !== 'root') {
      b.draggable = true;
      b.addEventListener('dragstart', (e) => { e.dataTransfer?.setData(DRAG_MOVE, key(s)); if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move'; });
    }
    b.addEventListener('dragover', (e) => { if (e.dataTransfer && isOurDrag(e.dataTransfer)) { e.preventDefault(); b.classList.add('wb-drop'); } });
    b.addEventListener('dragleave', () => b.classList.remove('wb-drop'));
    b.addEventListener('drop', (e) => { b.classList.remove('wb-drop'); if (!e.dataTransfer || !isOurDrag(e.dataTransfer)) return; e.preventDefault(); dropOn(s, e.dataTransfer); });
  }
  return b;
}

// ---- drag and drop: palette → outline or preview; outline row → outline or preview ---------
const DRAG_PALETTE = 'application/x-weft-palette';
const DRAG_MOVE = 'application/x-weft-move';
const isOurDrag = (dt: DataTransfer): boolean => me?.write === true && (dt.types.includes(DRAG_PALETTE) || dt.types.includes(DRAG_MOVE));

function dropOn(at: Sel, dt: DataTransfer): void {
  const s = draft.sections[at.sectionId];
  if (!s) return;
  const name = dt.getData(DRAG_PALETTE);
  if (name && Object.hasOwn(catalog, name)) {
    const e = catalog[name]!;
    const a = addOps(s, at.componentId ?? 'root', paletteBlueprint(e.name, e.example), policyOf);
    edit(a.ops, `add a ${e.name}`);
    select({ sectionId: s.id, componentId: a.id });
    return;
  }
  const [sid, cid] = dt.getData(DRAG_MOVE).split('/');
  if (!cid || sid !== s.id) return; // a component moves within its section
  edit(dropMoveOps(s, cid, at.componentId ?? 'root'), 'move', 'move');
}

/** Arrow keys walk the outline; Alt+arrows reorder; Delete removes (keyboard-only use). */
function onTreeKey(e: KeyboardEvent, s: Sel): void {
  const all = [...document.querySelectorAll<HTMLElement>('#wb-outline .wb-pick')];
  const i = all.findIndex((x) => x.getAttribute('data-key') === key(s));
  if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && !e.altKey) {
    e.preventDefault();
    all[Math.max(0, Math.min(all.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))]?.focus();
  } else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && e.altKey && s.componentId) {
    e.preventDefault();
    const sec = draft.sections[s.sectionId];
    if (sec) edit(reorderOps(sec, s.componentId, e.key === 'ArrowDown' ? 1 : -1), 'reorder', 'move');
  } else if (e.key === 'Delete' && s.componentId && s.componentId !== 'root') {
    e.preventDefault();
    const sec = draft.sections[s.sectionId];
    if (sec) { edit(removeOps(sec, s.componentId), 'delete'); select({ sectionId: s.sectionId }); }
  }
}

function avatarsFor(s: Sel): HTMLElement {
  const on = others.filter((o) => o.selection && key(o.selection) === key(s));
  return h('span', { class: 'wb-row-peers' }, ...on.map((o) => {
    const a = h('span', { class: 'wb-mini', title: `${o.name} is here`, 'data-peer': o.id }, initials(o.name));
    a.style.background = o.color;
    return a;
  }));
}

// ---- inspector ---------------------------------------------------------------------------
function renderInspector(): void {
  const host = $('wb-inspector');
  const s = sel ? draft.sections[sel.sectionId] : undefined;
  const c = s && sel?.componentId ? s.components[sel.componentId] : undefined;
  const sig = inspectorSignature();
  if (sig === inspectorSig) return;
  inspectorSig = sig;
  const focused = document.activeElement as HTMLInputElement | null;
  const focusKey = focused?.getAttribute?.('data-field') ?? null;
  const caret = focused && 'selectionStart' in focused ? [focused.selectionStart, focused.selectionEnd] : null;
  unbind?.();
  unbind = null;
  const keepBound = boundKey;
  boundKey = '';
  if (!s || !sel) {
    host.replaceChildren(h('p', { class: 'wb-muted wb-empty' }, 'Select a component in the preview or the outline to edit it.'));
    return;
  }
  const parts: Node[] = [];
  if (c) parts.push(...componentPanel(s, c.id, keepBound));
  else parts.push(...sectionPanel(s));
  host.replaceChildren(...parts);
  if (focusKey) {
    const f = host.querySelector<HTMLInputElement>(`[data-field="${CSS.escape(focusKey)}"]`);
    if (f && f !== document.activeElement) {
      f.focus({ preventScroll: true });
      try { if (caret && typeof caret[0] === "number" && typeof caret[1] === "number") f.setSelectionRange(caret[0], caret[1]); } catch { /* not a text control */ }
    }
  }
}

/** What the inspector shows, minus the text being typed into (its input follows its Y.Text itself). */
function inspectorSignature(): string {
  const s = sel ? draft.sections[sel.sectionId] : undefined;
  const c = s && sel?.componentId ? s.components[sel.componentId] : undefined;
  const props = c ? Object.fromEntries(Object.entries(c.props ?? {}).map(([k, v]) => [k, boundKey === `${key(sel!)}#${k}` ? 0 : v])) : null;
  return JSON.stringify([sel, c ? { ...c, props } : null, s && !c ? s.data : null, [...errors], me?.write, s ? Object.keys(s.components).length : 0]);
}

function fieldError(path: string): string | null {
  for (const [p, e] of errors) if (p === path || p.startsWith(`${path}/`)) return e.message;
  return null;
}
/** The field's text: what was typed when it could not be read, else `fallback`. */
const shownText = (path: string, fallback: string): string => errors.get(path)?.typed ?? fallback;

function componentPanel(s: SurfaceSection, cid: string, keepBound: string): Node[] {
  const c = s.components[cid]!;
  const entry = catalog[c.component];
  const propsPath = `${compPath(s.id, cid)}/props`;
  const ro = !me?.write;
  const out: Node[] = [h('div', { class: 'wb-insp-head' }, h('strong', {}, c.component), h('code', {}, cid), h('span', { class: 'wb-muted' }, `in ${s.id}`))];
  if (entry) out.push(h('p', { class: 'wb-muted wb-desc' }, entry.description));
  else out.push(h('p', { class: 'wb-error' }, `Unknown component "${c.component}": kept and flagged.`));
  const form = h('div', { class: 'wb-fields' });
  const fields = entry ? fieldsOf(entry.props) : [];
  for (const f of fields) form.append(fieldRow(s, cid, f, (c.props ?? {})[f.name], propsPath, ro, keepBound));
  // Visibility condition: a JSON condition (eq/ne/gt/lt/and/or/not), empty = always visible.
  form.append(jsonRow('visible', 'Visible when', (c.visible ?? null) as Json, `${compPath(s.id, cid)}/visible`, ro, 'e.g. {"eq":[{"path":"/plan"},"pro"]}', c.visible !== undefined));
  out.push(form);
  if (!ro) {
    const p = parents(s).get(cid);
    const tools = h('div', { class: 'wb-insp-tools' });
    // The panel may outlive the tree it was drawn from (it is rebuilt only when this component
    // changes): every tool reads the section as it is at the click.
    const now = (): SurfaceSection => draft.sections[s.id] ?? s;
    if (cid !== 'root') {
      tools.append(
        btn('↑ Up', 'Move up among siblings', () => edit(reorderOps(now(), cid, -1), 'reorder', 'move'), { id: 'wb-up' }),
        btn('↓ Down', 'Move down among siblings', () => edit(reorderOps(now(), cid, 1), 'reorder', 'move'), { id: 'wb-down' }),
        btn('Duplicate', `Duplicate ${cid} and what is inside it`, () => { const d = duplicateOps(now(), cid); if (d) { edit(d.ops, 'duplicate'); select({ sectionId: s.id, componentId: d.id }); } }, { id: 'wb-duplicate' }),
        btn('Delete', `Delete ${cid} and what is inside it`, () => { edit(removeOps(now(), cid), 'delete'); select({ sectionId: s.id }); }, { class: 'wb-danger', id: 'wb-delete' }));
      const targets = moveTargets(s, cid, policyOf);
      const mv = h('select', { 'aria-label': 'Move into another parent', id: 'wb-move-to', 'data-field': 'move' },
        h('option', { value: '' }, `Move into… (now in ${p ?? '?'})`), ...targets.map((t) => h('option', { value: t }, `${s.components[t]?.component} · ${t}`)));
      mv.addEventListener('change', () => { if (mv.value) edit(reparentOps(now(), cid, mv.value), 'move', 'move'); });
      tools.append(mv);
    }
    out.push(tools);
    out.push(askAgent(s.id, cid));
  }
  return out;
}

function label(text: string, f: string, required = false): HTMLElement {
  return h('label', { class: 'wb-label', for: `wb-f-${f}` }, text, required ? h('span', { class: 'wb-req', title: 'required' }, ' *') : null);
}

function fieldRow(s: SurfaceSection, cid: string, f: FieldSpec, value: Json | undefined, propsPath: string, ro: boolean, keepBound: string): HTMLElement {
  const path = `${propsPath}/${f.name}`;
  const row = h('div', { class: 'wb-field', 'data-prop': f.name });
  const err = fieldError(path);
  const bound = isBindingValue(value);
  const head = h('div', { class: 'wb-field-head' }, label(f.name, f.name, f.required));
  if (f.bindable && !ro) {
    const b = btn(bound ? 'Unbind' : 'Bind', bound ? 'Use a literal value' : 'Bind to a data path', () => {
      set(bound ? (f.dflt ?? (f.kind === 'boolean' ? false : f.kind === 'number' || f.kind === 'integer' ? 0 : '')) : { path: '/' }, path, value !== undefined, f.name);
    }, { class: 'wb-link' });
    head.append(b);
  }
  row.append(head);
  const common = { id: `wb-f-${f.name}`, 'data-field': f.name, disabled: ro, 'aria-invalid': err ? 'true' : undefined, 'aria-describedby': err ? `wb-e-${f.name}` : undefined };
  let control: HTMLElement;
  const commit = (raw: string | boolean): void => {
    const p = parseInput(f, raw);
    if (!p.ok) { errors.set(path, { message: p.message, typed: String(raw) }); inspectorSig = ''; schedule(); return; }
    errors.delete(path);
    set(p.value, path, value !== undefined, f.name);
  };
  if (bound) {
    const i = h('input', { ...common, type: 'text', value: value.path, spellcheck: 'false', class: 'wb-mono', placeholder: '/data/path' });
    i.value = value.path;
    i.addEventListener('change', () => { errors.delete(path); set({ path: i.value }, path, true, f.name); });
    control = h('div', { class: 'wb-bind' }, h('span', { class: 'wb-chip' }, 'data'), i);
  } else if (f.kind === 'text' || f.kind === 'longtext') {
    const i = f.kind === 'longtext' ? h('textarea', { ...common, rows: '3' }) : h('input', { ...common, type: 'text' });
    i.value = typeof value === 'string' ? value : '';
    const k = `${key({ sectionId: s.id, componentId: cid })}#${f.name}`;
    const bind = (): void => {
      if (ro || !peer || unbind) return;
      errors.delete(path);
      boundKey = k;
      const again = retype?.key === k ? retype.value : undefined;
      retype = null;
      const onType = (value: string): void => { typing = { sectionId: s.id, componentId: cid, prop: f.name, value: value.slice(0, 2000) }; sendPresence(); };
      unbind = bindText(peer.doc, s.id, cid, f.name, i, { onEnd: () => batch?.flush(), onUndo: fieldUndo, onType, ...(again === undefined ? {} : { retype: again }) });
      inspectorSig = inspectorSignature(); // binding alone is no reason to rebuild
    };
    i.addEventListener('focus', bind);
    if (keepBound === k && document.activeElement?.getAttribute('data-field') === f.name) queueMicrotask(bind);
    control = i;
  } else if (f.kind === 'enum') {
    const sel = h('select', common, h('option', { value: '' }, f.required ? '—' : `(default${f.dflt !== undefined ? `: ${String(f.dflt)}` : ''})`), ...(f.options ?? []).map((o) => h('option', { value: o }, o)));
    sel.value = typeof value === 'string' ? value : '';
    sel.addEventListener('change', () => commit(sel.value));
    control = sel;
  } else if (f.kind === 'boolean') {
    const i = h('input', { ...common, type: 'checkbox' });
    i.checked = value === true;
    i.addEventListener('change', () => commit(i.checked));
    control = h('label', { class: 'wb-check' }, i, h('span', {}, value === undefined ? 'off (default)' : value ? 'on' : 'off'));
  } else if (f.kind === 'number' || f.kind === 'integer') {
    const i = h('input', { ...common, type: 'number', step: f.kind === 'integer' ? '1' : 'any', min: f.min !== undefined ? String(f.min) : undefined, max: f.max !== undefined ? String(f.max) : undefined, placeholder: f.dflt !== undefined ? String(f.dflt) : '' });
    i.value = shownText(path, typeof value === 'number' ? String(value) : '');
    i.addEventListener('change', () => commit(i.value));
    control = i;
  } else if (f.kind === 'url') {
    const i = h('input', { ...common, type: 'text', spellcheck: 'false', placeholder: 'https://… or /path' });
    i.value = shownText(path, typeof value === 'string' ? value : '');
    i.addEventListener('change', () => commit(i.value));
    control = i;
  } else {
    const t = h('textarea', { ...common, rows: '3', class: 'wb-mono', spellcheck: 'false', placeholder: f.kind === 'action' ? '{"action":"navigate","href":"/signup"}' : 'JSON' });
    t.value = shownText(path, value === undefined ? '' : JSON.stringify(value, null, 1));
    t.addEventListener('change', () => commit(t.value));
    control = t;
  }
  row.append(control);
  if (err) row.append(h('p', { class: 'wb-field-error', id: `wb-e-${f.name}`, role: 'alert' }, err));
  return row;
}

/** Sets (or removes, when `v` is undefined) a value at a pointer. */
function set(v: Json | undefined, path: string, exists: boolean, what: string): void {
  if (v === undefined) { if (exists) edit([{ op: 'remove', path }], `clear ${what}`); return; }
  edit([{ op: exists ? 'replace' : 'add', path, value: v }], `set ${what}`);
}

function jsonRow(name: string, text: string, value: Json | null, path: string, ro: boolean, placeholder: string, exists: boolean): HTMLElement {
  const err = fieldError(path);
  const t = h('textarea', { id: `wb-f-${name}`, 'data-field': name, rows: '2', class: 'wb-mono', spellcheck: 'false', placeholder, disabled: ro, 'aria-invalid': err ? 'true' : undefined });
  t.value = shownText(path, value === null ? '' : JSON.stringify(value));
  t.addEventListener('change', () => {
    if (t.value.trim() === '') { errors.delete(path); set(undefined, path, exists, name); return; }
    try { const v = JSON.parse(t.value) as Json; errors.delete(path); set(v, path, exists, name); } catch (e) { errors.set(path, { message: `Not valid JSON: ${(e as Error).message}`, typed: t.value }); inspectorSig = ''; schedule(); }
  });
  return h('div', { class: 'wb-field', 'data-prop': name }, h('div', { class: 'wb-field-head' }, label(text, name)), t,
    err ? h('p', { class: 'wb-field-error', role: 'alert' }, err) : null);
}

// ---- palette and empty state -------------------------------------------------------------
const GROUPS: [string, string][] = [['layout', 'Layout'], ['content', 'Content'], ['interactive', 'Interactive'], ['block', 'Blocks']];

/** Adds a catalog component where the selection is (inside it, after it), else at the end of the last section; on an empty page, in a new section. */
function addFromPalette(name: string): void {
  const e = catalog[name];
  if (!e) return;
  const bp = paletteBlueprint(e.name, e.example);
  const sid = sel?.sectionId ?? draft.order[draft.order.length - 1];
  const s = sid ? draft.sections[sid] : undefined;
  if (!s || !s.components['root']) {
    const a = addSectionOps(draft);
    edit(a.ops, 'add a section');
    // The new section's tree is local right away; the component goes into its root.
    const fresh = peer?.draft().sections[a.id];
    if (fresh) { const c = addOps(fresh, 'root', bp, policyOf); edit(c.ops, `add a ${e.name}`); select({ sectionId: a.id, componentId: c.id }); }
    return;
  }
  const a = addOps(s, sel?.sectionId === s.id ? (sel.componentId ?? 'root') : 'root', bp, policyOf);
  edit(a.ops, `add a ${e.name}`);
  select({ sectionId: s.id, componentId: a.id });
}

function renderPalette(): void {
  const host = document.getElementById('wb-palette');
  if (!host) return;
  host.hidden = !me?.write;
  if (host.childElementCount > 0) return; // built once; the filter works on it in place
  const search = h('input', { type: 'search', id: 'wb-palette-search', placeholder: 'Search components…', 'aria-label': 'Search components', spellcheck: 'false' });
  const groups: HTMLElement[] = [];
  for (const [g, title] of GROUPS) {
    const es = Object.values(catalog).filter((e) => e.group === g);
    if (es.length === 0) continue;
    const grid = h('div', { class: 'wb-pal-grid' }, ...es.map((e) => btn(e.name, `Add a ${e.name}: ${e.description}`, () => addFromPalette(e.name), { class: 'wb-pal-item', 'data-palette': e.name, 'data-search': `${e.name} ${e.description}`.toLowerCase(), draggable: 'true' })));
    for (const b of grid.querySelectorAll<HTMLElement>('.wb-pal-item')) b.addEventListener('dragstart', (ev) => { ev.dataTransfer?.setData(DRAG_PALETTE, b.getAttribute('data-palette') ?? ''); if (ev.dataTransfer) ev.dataTransfer.effectAllowed = 'copy'; });
    groups.push(h('div', { class: 'wb-pal-group', 'data-group': g }, h('h3', {}, title), grid));
  }
  const none = h('p', { class: 'wb-muted', id: 'wb-palette-none', hidden: true }, 'No component matches.');
  search.addEventListener('input', () => {
    paletteQuery = search.value.trim().toLowerCase();
    let any = false;
    for (const g of groups) {
      let shown = 0;
      for (const b of g.querySelectorAll<HTMLElement>('.wb-pal-item')) {
        const on = paletteQuery === '' || (b.getAttribute('data-search') ?? '').includes(paletteQuery);
        b.hidden = !on;
        if (on) shown++;
      }
      g.hidden = shown === 0;
      any ||= shown > 0;
    }
    none.hidden = any;
  });
  host.replaceChildren(h('h2', {}, 'Add'), search, ...groups, none);
}

/** What an empty page offers: whole sections to start from, made of catalog components. */
function emptyState(): HTMLElement {
  const box = h('div', { class: 'wb-empty-state', id: 'wb-empty' },
    h('p', { class: 'wb-empty-title' }, 'This page is empty.'),
    h('p', { class: 'wb-muted' }, me?.write ? 'Start with a section, or pick any component under Add.' : 'Nothing has been built yet.'));
  if (me?.write) box.append(starterButtons('wb-starters'));
  return box;
}

/** One button per starter section (on an empty page big, under the outline small). */
function starterButtons(cls: string): HTMLElement {
  return h('div', { class: cls }, ...STARTERS.map((st) => btn(st.label, `Add a ${st.label} section: ${st.description}`, () => {
    const a = starterSectionOps(draft.sections, st);
    edit(a.ops, `add a ${st.label} section`);
    select({ sectionId: a.id });
  }, { class: 'wb-starter', 'data-starter': st.id })));
}

// "Ask the agent about this": the Build chat, scoped to this component (the chat sends the
// brief and shows the run; its transcript is everyone's).
function askAgent(sid: string, cid: string): HTMLElement {
  return btn('Ask the agent about this', 'Scope the Build chat\'s next brief to this component', () => {
    chat.setScope({ sectionId: sid, componentId: cid });
    chat.focus();
  }, { id: 'wb-ask', class: 'wb-link wb-ask' });
}

function sectionPanel(s: SurfaceSection): Node[] {
  const ro = !me?.write;
  const out: Node[] = [h('div', { class: 'wb-insp-head' }, h('strong', {}, 'Section'), h('code', {}, s.id))];
  out.push(h('p', { class: 'wb-muted wb-desc' }, `${Object.keys(s.components).length} components. Pick one in the preview or the outline to edit it.`));
  // The data model: one validated JSON box per top-level key.
  const data = h('div', { class: 'wb-data', id: 'wb-data' }, h('h3', {}, 'Data model'));
  for (const [k, v] of Object.entries(s.data)) {
    const path = `/sections/${s.id}/data/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const row = jsonRow(`data-${k}`, k, v, path, ro, 'JSON value', true);
    if (!ro) row.querySelector('.wb-field-head')?.append(btn('Remove', `Remove data key ${k}`, () => edit([{ op: 'remove', path }], 'remove the key'), { class: 'wb-link' }));
    data.append(row);
  }
  if (Object.keys(s.data).length === 0) data.append(h('p', { class: 'wb-muted' }, 'No data yet.'));
  if (!ro) {
    const k = h('input', { type: 'text', placeholder: 'new key', 'aria-label': 'New data key', id: 'wb-data-key' });
    const add = btn('Add key', 'Add a data key (value null)', () => {
      const name = k.value.trim();
      if (name) edit([{ op: 'add', path: `/sections/${s.id}/data/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, value: null }], 'add the key');
    });
    data.append(h('div', { class: 'wb-inline' }, k, add));
  }
  out.push(data);
  return out;
}
