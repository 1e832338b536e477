// The Build chat (RFC 000 §6 "Who drives a session"): a brief box, Build / Stop, and the
// transcript of the draft's agent runs — the model's notes as they stream, each step with its
// ghost while written, then its outcome, repairs and refusals, the refusal rounds and the turn's
// summary. The transcript is the session's (GET /v1/drafts/:id/runs on open, then the draft's
// stream), so everyone watching sees the same conversation and a reload keeps it.
// Click-to-scope: a part picked in the preview scopes the next brief (shown, clearable).
import type { Draft } from '@weft/core';
import { h } from './dom.ts';
import { describeArgs, runSummary, Transcript } from './chat-model.ts';
import type { ChatRun, Item } from './chat-model.ts';
import type { Ready } from './ready.ts';

export interface ChatScope { sectionId: string; componentId?: string }

export class BuildChat {
  private readonly host: HTMLElement;
  private readonly draftId: string;
  private readonly base: string;
  private me: Ready | null = null;
  private readonly t = new Transcript();
  /** Live events that arrived before the stored transcript: applied after it (seq drops repeats). */
  private early: Record<string, unknown>[] | null = [];
  private scope: ChatScope | null = null;
  private describe: (s: ChatScope) => string = (s) => (s.componentId ? `“${s.componentId}” in section ${s.sectionId}` : `section ${s.sectionId}`);
  private modelMissing: string | null = null;
  private frame = 0;
  private readonly log: HTMLElement;
  private readonly brief: HTMLTextAreaElement;
  private readonly build: HTMLButtonElement;
  private readonly stop: HTMLButtonElement;
  private readonly scopeBox: HTMLElement;
  private readonly notice: HTMLElement;

  constructor(host: HTMLElement, draftId: string, base: string) {
    this.host = host;
    this.draftId = draftId;
    this.base = base.replace(/\/$/, '');
    this.log = h('ol', { class: 'wb-chat-log', id: 'wb-chat-log', 'aria-live': 'polite', 'aria-label': 'Build chat transcript' });
    this.brief = h('textarea', { id: 'wb-chat-brief', rows: '3', placeholder: 'Describe what to build, e.g. "a landing page for a bakery with pricing and an FAQ"', 'aria-label': 'Brief for the agent' });
    this.build = h('button', { type: 'button', id: 'wb-chat-build', class: 'wb-primary', title: 'Send the brief to the agent' }, 'Build');
    this.stop = h('button', { type: 'button', id: 'wb-chat-stop', class: 'wb-danger', title: 'Stop the running turn', hidden: true }, 'Stop');
    this.scopeBox = h('div', { class: 'wb-chat-scope', id: 'wb-chat-scope', hidden: true });
    this.notice = h('p', { class: 'wb-chat-notice', id: 'wb-chat-notice', role: 'status', hidden: true });
    this.build.addEventListener('click', () => void this.send());
    this.stop.addEventListener('click', () => void this.cancel());
    this.brief.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); void this.send(); } });
    host.replaceChildren(h('h2', {}, 'Build chat'), this.log, this.notice, this.scopeBox, this.brief, h('div', { class: 'wb-chat-actions' }, this.build, this.stop));
    document.addEventListener('weft:agui', (e) => this.onEvent((e as CustomEvent<Record<string, unknown>>).detail));
  }

  async start(r: Ready, describe?: (s: ChatScope) => string): Promise<void> {
    this.me = r;
    if (describe) this.describe = describe;
    this.brief.disabled = !r.write;
    if (!r.write) this.say('This token is read-only: you can follow the conversation but not send briefs.');
    await Promise.all([this.loadModel(), this.loadRuns()]);
    this.render();
  }

  /** The draft was deleted: no brief can be sent any more. */
  gone(): void {
    if (this.me) this.me = { ...this.me, write: false };
    this.brief.disabled = true;
    this.render();
  }

  /** Puts the cursor in the brief box (the inspector's "Ask the agent about this"). */
  focus(): void {
    this.brief.focus();
    this.host.scrollIntoView({ block: 'nearest' });
  }

  /** A part picked in the preview (or the outline) scopes the next brief. */
  setScope(s: ChatScope | null): void {
    this.scope = s;
    this.renderScope();
  }

  /** The scoped part left the page (deleted by someone): the scope goes with it. */
  draftChanged(d: Draft): void {
    const s = this.scope;
    if (!s) return;
    const sec = Object.hasOwn(d.sections, s.sectionId) ? d.sections[s.sectionId] : undefined;
    if (!sec || (s.componentId && !Object.hasOwn(sec.components, s.componentId))) this.setScope(null);
  }

  private async loadModel(): Promise<void> {
    // Every session process runs the agent (`npm start`, or behind the compose proxy, or at
    // WEFT_SESSION_URL); a preview without one answers that none is there.
    try {
      const r = await fetch(`${this.base}/agent/model`, { cache: 'no-store' });
      if (!r.ok) { this.modelMissing = r.status === 404 ? `No agent answers at ${this.base}: the Build chat needs a Weft session process there (it runs the agent).` : `Could not reach the agent (HTTP ${r.status}).`; return; }
      const j = (await r.json()) as { configured: boolean; model: string | null; message: string | null };
      this.modelMissing = j.configured ? null : j.message;
      if (j.model) this.host.querySelector('h2')!.textContent = `Build chat · ${j.model}`;
    } catch {
      this.modelMissing = 'Could not reach the agent.';
    }
  }

  private async loadRuns(): Promise<void> {
    try {
      const r = await fetch(`${this.base}/v1/drafts/${encodeURIComponent(this.draftId)}/runs`, { headers: this.auth(), cache: 'no-store' });
      if (!r.ok) return;
      const j = (await r.json()) as { runs: { events: Record<string, unknown>[]; status: ChatRun['status']; error: ChatRun['error'] }[] };
      // Oldest first, as a conversation reads.
      for (const run of [...j.runs].reverse()) {
        for (const ev of run.events) this.t.apply(ev as never);
      }
    } finally {
      const early = this.early ?? [];
      this.early = null;
      for (const ev of early) this.t.apply(ev as never);
    }
  }

  private onEvent(ev: Record<string, unknown>): void {
    if (this.early) { this.early.push(ev); return; }
    const run = this.t.apply(ev as never);
    if (!run) return;
    this.schedule();
    // At its end, the run as kept: whatever this page's stream missed (a reconnect) is filled in.
    if (ev['type'] === 'RUN_FINISHED' || ev['type'] === 'RUN_ERROR') void this.reload(run.runId);
  }

  private async reload(runId: string): Promise<void> {
    // The end is sent before it is stored: a read just after it may not hold it yet.
    for (let i = 0; i < 5; i++) {
      await new Promise((res) => setTimeout(res, 300 * (i + 1)));
      try {
        const r = await fetch(`${this.base}/v1/drafts/${encodeURIComponent(this.draftId)}/runs/${encodeURIComponent(runId)}`, { headers: this.auth(), cache: 'no-store' });
        if (!r.ok) return;
        const done = this.t.replace(runId, ((await r.json()) as { events: Record<string, unknown>[] }).events as never);
        this.schedule();
        if (done) return;
      } catch { return; /* the live fold stays */ }
    }
  }

  private auth(): Record<string, string> {
    return { authorization: `Bearer ${this.me?.token ?? ''}` };
  }

  private running(): ChatRun | undefined {
    return [...this.t.runs.values()].find((r) => r.status === 'running');
  }

  private async send(): Promise<void> {
    if (!this.me?.write) return;
    const text = this.brief.value.trim();
    if (!text) { this.say('Write a brief first.'); this.brief.focus(); return; }
    if (this.modelMissing) { this.say(this.modelMissing, true); return; }
    this.build.disabled = true;
    try {
      const r = await fetch(`${this.base}/agent/briefs`, { method: 'POST', headers: { ...this.auth(), 'content-type': 'application/json' }, body: JSON.stringify({ draftId: this.draftId, brief: text, ...(this.scope ? { scope: this.scope } : {}) }) });
      const j = (await r.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
      if (!r.ok) {
        if (r.status === 503) this.modelMissing = j?.error?.message ?? null;
        this.say(`The agent could not start: ${j?.error?.message ?? `it answered ${r.status}`}`, true);
        return;
      }
      this.brief.value = '';
      this.say(null);
    } catch (e) {
      this.say(`The agent could not start: ${(e as Error).message}`, true);
    } finally {
      this.build.disabled = false;
      this.render();
    }
  }

  private async cancel(): Promise<void> {
    const run = this.running();
    if (!run) return;
    this.stop.disabled = true;
    const r = await fetch(`${this.base}/v1/drafts/${encodeURIComponent(this.draftId)}/runs/${encodeURIComponent(run.runId)}/cancel`, { method: 'POST', headers: this.auth() }).catch(() => null);
    if (!r?.ok) this.say('Could not stop the turn (it may have ended already).', true);
    this.stop.disabled = false;
  }

  private say(text: string | null, bad = false): void {
    this.notice.hidden = text === null;
    this.notice.textContent = text ?? '';
    this.notice.className = `wb-chat-notice${bad ? ' wb-chat-bad' : ''}`;
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  private renderScope(): void {
    const s = this.scope;
    this.scopeBox.hidden = s === null;
    if (!s) { this.scopeBox.replaceChildren(); return; }
    const clear = h('button', { type: 'button', class: 'wb-link', id: 'wb-chat-scope-clear', title: 'Clear the scope: the brief is about the whole page' }, '✕ clear');
    clear.addEventListener('click', () => this.setScope(null));
    this.scopeBox.replaceChildren(h('span', {}, 'Changing '), h('strong', {}, this.describe(s)), clear);
  }

  private render(): void {
    const atBottom = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 40;
    const runs = [...this.t.runs.values()];
    this.log.replaceChildren(...(runs.length === 0 ? [h('li', { class: 'wb-muted wb-chat-empty' }, 'No conversation yet. Describe the page and press Build: the agent\'s notes and steps stream here, for everyone on this draft.')] : runs.map((r) => this.runView(r))));
    if (this.modelMissing) this.log.append(h('li', { class: 'wb-chat-model', id: 'wb-chat-no-model' }, this.modelMissing));
    const live = this.running();
    this.stop.hidden = !live;
    this.stop.textContent = live?.cancelling ? 'Stopping…' : 'Stop';
    this.build.disabled = !this.me?.write || !!live || this.modelMissing !== null;
    if (atBottom || live) this.log.scrollTop = this.log.scrollHeight;
    this.renderStageGhost(live);
  }

  /** Over the preview too: the outline of what the agent is writing, until its step is judged. */
  private renderStageGhost(live: ChatRun | undefined): void {
    const wrap = document.getElementById('wb-frame-wrap');
    if (!wrap) return;
    let box = document.getElementById('wb-stage-ghost');
    const writing = live?.items.filter((i): i is Extract<Item, { kind: 'step' }> => i.kind === 'step' && i.ghost !== null).at(-1);
    if (!writing?.ghost) { box?.remove(); return; }
    if (!box) { box = h('div', { id: 'wb-stage-ghost', class: 'wb-stage-ghost', 'aria-live': 'polite' }); wrap.append(box); }
    const g = writing.ghost;
    box.replaceChildren(h('div', { class: 'wb-stage-ghost-head' }, `${live!.actor ? `${live!.actor}'s agent` : 'The agent'} is writing ${g.label}`, h('span', { class: 'wb-muted' }, ' · not checked yet')),
      ...g.outline.slice(0, 8).map((o) => {
        const row = h('div', { class: 'wb-ghost-row' }, h('code', {}, o.component ?? '…'), o.text ? h('span', {}, ` ${o.text}`) : null);
        row.style.paddingLeft = `${Math.min(o.depth, 6) * 12}px`;
        return row;
      }));
  }

  private runView(r: ChatRun): HTMLElement {
    const li = h('li', { class: `wb-run wb-run-is-${r.status}`, 'data-run': r.runId, 'data-run-status': r.status });
    li.append(h('div', { class: 'wb-msg wb-msg-user' },
      h('span', { class: 'wb-who' }, r.actor || 'someone'),
      r.scope ? h('span', { class: 'wb-chip' }, `scoped to ${this.describe(r.scope)}`) : null,
      h('p', {}, r.brief)));
    let n = 0;
    for (const it of r.items) li.append(this.itemView(it, it.kind === 'step' ? ++n : 0, r.status !== 'running'));
    if (r.status === 'running') li.append(h('p', { class: 'wb-muted wb-run-status' }, r.cancelling ? 'Stopping…' : 'The agent is writing…'));
    else if (r.status === 'done') li.append(h('p', { class: 'wb-run-summary', 'data-summary': '' }, `Done: ${runSummary(r)}`));
    else if (r.status === 'cancelled') li.append(h('p', { class: 'wb-run-summary wb-run-cancelled', 'data-summary': '' }, `Stopped: ${runSummary(r)}`));
    else li.append(h('p', { class: 'wb-run-summary wb-chat-bad', 'data-summary': '' }, `Failed: ${r.error?.message ?? 'the run failed'}`));
    return li;
  }

  private itemView(it: Item, n: number, over: boolean): HTMLElement {
    if (it.kind === 'note') return h('div', { class: 'wb-msg wb-msg-agent', 'data-note': it.id }, it.text || '…');
    if (it.kind === 'round') return h('div', { class: 'wb-round', 'data-round': String(it.n) }, `Round ${it.n}: the refused steps went back to the model with their reasons`);
    const out = it.outcome;
    const status = out === null ? (over ? 'not-written' : it.ghost || !it.ended ? 'writing' : 'checking') : worst(out.map((o) => o.status));
    const box = h('div', { class: `wb-step wb-step-${status}`, 'data-step': it.id, 'data-status': status });
    box.append(h('div', { class: 'wb-step-head' }, h('strong', {}, `Step ${n}`), h('span', { class: 'wb-badge' }, LABEL[status] ?? status)));
    if (it.ghost) {
      // Unvalidated: what the model is writing, read from its partial text. Nothing of it is stored.
      const g = h('div', { class: 'wb-step-ghost', 'data-ghost-outline': it.id }, h('div', { class: 'wb-muted' }, `writing ${it.ghost.label}${it.ghost.path ? ` at ${it.ghost.path}` : ''} (not checked yet)`));
      for (const o of it.ghost.outline.slice(0, 12)) {
        const row = h('div', { class: 'wb-ghost-row' }, h('code', {}, o.component ?? '…'), o.id ? h('span', { class: 'wb-muted' }, ` ${o.id}`) : null, o.text ? h('span', {}, ` “${o.text}”`) : null);
        row.style.paddingLeft = `${Math.min(o.depth, 6) * 12}px`;
        g.append(row);
      }
      box.append(g);
    } else if (!it.ended || (over && out === null)) box.append(h('div', { class: 'wb-muted wb-step-what' }, 'cut off when the turn ended: nothing of it was written or kept'));
    else box.append(h('div', { class: 'wb-muted wb-step-what' }, describeArgs(it.args)));
    for (const o of out ?? []) {
      if (o.held) box.append(h('div', { class: 'wb-line wb-muted' }, o.status === 'refused' ? 'held for what it named; still waiting when the round ended, so it was refused' : 'held until the step it waited for arrived, then written with it'));
      for (const x of o.repairs.slice(0, 6)) box.append(h('div', { class: 'wb-line wb-step-repair' }, h('code', { class: 'wb-path' }, x.path), h('span', {}, `repaired: ${x.message}`)));
      for (const x of o.refused.slice(0, 6)) box.append(h('div', { class: 'wb-line wb-step-refusal' }, h('code', { class: 'wb-path' }, x.path), h('span', {}, `refused: ${x.message}`)));
      if (o.message && o.status !== 'applied') box.append(h('div', { class: 'wb-line wb-step-refusal' }, h('span', {}, o.message)));
    }
    return box;
  }
}

const LABEL: Record<string, string> = { writing: 'writing…', checking: 'checking…', applied: 'applied', repaired: 'applied with repairs', refused: 'refused', unreadable: 'unreadable', 'over-budget': 'over the budget', 'not-written': 'not written' };
const RANK = ['applied', 'repaired', 'not-written', 'over-budget', 'unreadable', 'refused'];
function worst(s: string[]): string {
  return s.reduce((a, b) => (RANK.indexOf(b) > RANK.indexOf(a) ? b : a), s[0] ?? 'applied');
}
