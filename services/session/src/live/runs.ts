// Agent runs on the draft's stream (issue 17). An agent opens a run (RUN_STARTED with the brief as
// AG-UI input), reports its events as the model writes (notes, steps as tool calls, ghosts,
// results) and ends it (RUN_FINISHED or RUN_ERROR); everything goes out live on the draft's SSE
// stream, each event carrying `metadata.weft.{runId, seq}`. The transcript is kept in the store
// with the streaming deltas merged: a message or a step is written once it is complete (the
// partial text of a step — partial JSON — is never stored), ghosts are never stored.
import type { Json } from '@weft/core';
import type { AgUiEvent, GhostValue, RunFinishedEvent, RunScope, RunView, RunWithEvents, WeftEventMeta } from '@weft/protocol';
import { CustomEventName, runStarted } from '@weft/protocol';
import type { Ctx } from '../context.ts';
import { mustRoom } from '../commands/drafts.ts';
import { WeftError } from '../commands/errors.ts';
import { requireScope } from '../commands/principal.ts';
import type { Principal } from '../commands/principal.ts';

/** What is streaming now in one run: a message or a step, merged until its END. */
interface Open { start: AgUiEvent; delta: string; seq: number }
interface Live {
  draftId: string;
  runId: string;
  actor: string;
  seq: number;
  open: Map<string, Open>;
  cancel: boolean;
  /** Reports of one run are handled one after the other. */
  chain: Promise<unknown>;
  listeners: Set<(ev: AgUiEvent) => void>;
  /** When the agent last reported (it reports at least every second while it runs). */
  lastReport: number;
  watchdog: NodeJS.Timeout | null;
}

export class Runs {
  private readonly live = new Map<string, Live>();
  static key = (draftId: string, runId: string): string => `${draftId}\u0000${runId}`;

  get(draftId: string, runId: string): Live | undefined {
    return this.live.get(Runs.key(draftId, runId));
  }
  add(l: Live): void {
    this.live.set(Runs.key(l.draftId, l.runId), l);
  }
  delete(l: Live): void {
    if (l.watchdog) clearInterval(l.watchdog);
    this.live.delete(Runs.key(l.draftId, l.runId));
  }
  /** Live events of one run (the run's own SSE endpoint); returns the unsubscribe. */
  subscribe(draftId: string, runId: string, fn: (ev: AgUiEvent) => void): (() => void) | null {
    const l = this.get(draftId, runId);
    if (!l) return null;
    l.listeners.add(fn);
    return () => l.listeners.delete(fn);
  }
  get size(): number {
    return this.live.size;
  }
  countFor(draftId: string): number {
    let n = 0;
    for (const l of this.live.values()) if (l.draftId === draftId) n++;
    return n;
  }
}

const meta = (ctx: Ctx, l: Live, seq: number): { weft: WeftEventMeta } => ({
  weft: { version: ctx.rooms.peek(l.draftId)?.committedVersion ?? 0, actor: l.actor, turnId: l.runId, runId: l.runId, seq },
});

function send(ctx: Ctx, l: Live, events: AgUiEvent[]): void {
  if (events.length === 0) return;
  ctx.sse.publish(l.draftId, null, events);
  for (const ev of events) for (const fn of l.listeners) fn(ev);
}

/** Bounds on what a run holds in memory while it streams. */
const LIMITS = { openParts: 64, partChars: 512 * 1024, runsPerDraft: 8, silentMs: 120_000 } as const;

/** What an agent asks for when it opens a run (the HTTP body, checked). */
export interface RunRequest { runId: string; brief: string; scope: RunScope | null; model: string | null }

/**
 * Opens a run for `p` on a draft it may write: stored, then RUN_STARTED (its turn is open from now
 * on, so the steps join it). The request is read only once `p` may write (a 403 before a 400).
 */
export async function openRun(ctx: Ctx, p: Principal, draftId: string, request: () => Promise<RunRequest>): Promise<RunView> {
  requireScope(p, draftId, 'write');
  const r = await request();
  await mustRoom(ctx, draftId);
  return createRun(ctx, { draftId, actor: p.actor.id, ...r });
}

/** The running run `p` opened, to report into (any other answers NOT_FOUND: only its agent reports). */
export function ownRun(ctx: Ctx, p: Principal, draftId: string, runId: string): Live {
  requireScope(p, draftId, 'write');
  const l = ctx.runs.get(draftId, runId);
  if (!l || l.actor !== p.actor.id) throw new WeftError('NOT_FOUND', `No running run "${runId}" of yours on draft "${draftId}".`);
  return l;
}

async function createRun(ctx: Ctx, r: { draftId: string; runId: string; actor: string; brief: string; scope: RunScope | null; model: string | null }): Promise<RunView> {
  const room = ctx.rooms.peek(r.draftId);
  const version = room?.committedVersion ?? 0;
  if (ctx.runs.countFor(r.draftId) >= LIMITS.runsPerDraft) throw new WeftError('RATE_LIMITED', `The draft already has ${LIMITS.runsPerDraft} runs streaming; end one (or press Stop) first.`);
  const view = await ctx.store.runs.create(r);
  if (!view) throw new WeftError('IDEMPOTENCY_CONFLICT', `The draft already has a run "${r.runId}"; start a run with a new id.`);
  const started = ctx.turns.begin(r.draftId, r.runId, r.actor, version, ctx.now());
  const l: Live = { draftId: r.draftId, runId: r.runId, actor: r.actor, seq: 0, open: new Map(), cancel: false, chain: Promise.resolve(), listeners: new Set(), lastReport: ctx.now(), watchdog: null };
  ctx.runs.add(l);
  // An agent that stopped reporting (its process died) does not hold the run open forever.
  l.watchdog = setInterval(() => {
    if (ctx.now() - l.lastReport < LIMITS.silentMs) return;
    void reportEvents(ctx, l, [{ type: 'RUN_ERROR', code: 'UNAVAILABLE', message: `The agent stopped reporting for ${LIMITS.silentMs / 1000} s; the run ended. Send the brief again.` }])
      .catch((e: unknown) => ctx.log.warn('ending a silent run failed', { runId: l.runId, error: String(e) }));
  }, 10_000);
  l.watchdog.unref();
  const ev = (started[0] as ReturnType<typeof runStarted> | undefined) ?? runStarted(r.draftId, r.runId, { version }, ctx.now());
  ev.input = {
    threadId: r.draftId, runId: r.runId, messages: [{ id: `${r.runId}-brief`, role: 'user', content: r.brief }], tools: [], context: [],
    ...(r.scope || r.model ? { forwardedProps: { ...(r.scope ? { scope: r.scope as unknown as Json } : {}), ...(r.model ? { model: r.model } : {}) } } : {}),
  };
  ev.metadata = meta(ctx, l, ++l.seq);
  await ctx.store.runs.append(r.draftId, r.runId, [{ seq: 1, event: ev }]);
  send(ctx, l, [ev]);
  return view;
}

/**
 * One report of an agent: its events go out live at once; what is complete is stored (one
 * INSERT); RUN_FINISHED / RUN_ERROR end the run and its turn. Answers whether someone asked to
 * stop the run, and the turn's summary once it ended.
 */
export function reportEvents(ctx: Ctx, l: Live, events: AgUiEvent[]): Promise<{ seq: number; cancel: boolean; summary: Record<string, number> | null }> {
  const next = l.chain.then(() => handle(ctx, l, events));
  l.chain = next.catch(() => undefined);
  return next;
}

async function handle(ctx: Ctx, l: Live, events: AgUiEvent[]): Promise<{ seq: number; cancel: boolean; summary: Record<string, number> | null }> {
  if (ctx.runs.get(l.draftId, l.runId) !== l) throw new WeftError('SESSION_CLOSED', `Run "${l.runId}" has ended; start a new run.`);
  l.lastReport = ctx.now();
  const live: AgUiEvent[] = [];
  const keep: AgUiEvent[] = [];
  let end: AgUiEvent | null = null;
  let summary: Record<string, number> | null = null;
  for (const raw of events) {
    if (end) throw new WeftError('BAD_REQUEST', 'Nothing may follow RUN_FINISHED or RUN_ERROR in a run.', { path: '/events' });
    const ev = { ...raw, timestamp: ctx.now() } as AgUiEvent;
    if (ev.type === 'RUN_FINISHED' || ev.type === 'RUN_ERROR') {
      end = ev; // numbered after what the end closes, so it is the run's last event
      continue;
    }
    const seq = ++l.seq;
    ev.metadata = meta(ctx, l, seq);
    switch (ev.type) {
      case 'TEXT_MESSAGE_START':
      case 'TOOL_CALL_START': {
        const k = ev.type === 'TEXT_MESSAGE_START' ? `m:${ev.messageId}` : `t:${ev.toolCallId}`;
        if (l.open.has(k)) throw new WeftError('BAD_REQUEST', `${ev.type}: that one is open already.`, { path: '/events' });
        if (l.open.size >= LIMITS.openParts) throw new WeftError('BAD_REQUEST', `At most ${LIMITS.openParts} messages and steps may be open at once in a run; end one first.`, { path: '/events' });
        l.open.set(k, { start: ev, delta: '', seq });
        live.push(ev);
        break;
      }
      case 'TEXT_MESSAGE_CONTENT':
      case 'TOOL_CALL_ARGS': {
        const o = l.open.get(ev.type === 'TEXT_MESSAGE_CONTENT' ? `m:${ev.messageId}` : `t:${ev.toolCallId}`);
        if (!o) throw new WeftError('BAD_REQUEST', `${ev.type} for a ${ev.type === 'TEXT_MESSAGE_CONTENT' ? 'message' : 'tool call'} that is not open (send its START first).`, { path: '/events' });
        if (o.delta.length + ev.delta.length > LIMITS.partChars) throw new WeftError('PAYLOAD_TOO_LARGE', `One message or step of a run holds at most ${LIMITS.partChars} characters.`, { path: '/events', limit: LIMITS.partChars });
        o.delta += ev.delta;
        o.seq = seq;
        live.push(ev);
        break;
      }
      case 'TEXT_MESSAGE_END':
      case 'TOOL_CALL_END': {
        const k = ev.type === 'TEXT_MESSAGE_END' ? `m:${ev.messageId}` : `t:${ev.toolCallId}`;
        const o = l.open.get(k);
        if (!o) throw new WeftError('BAD_REQUEST', `${ev.type} for one that is not open.`, { path: '/events' });
        l.open.delete(k);
        keep.push(...merged(o), ev);
        live.push(ev);
        break;
      }
      case 'CUSTOM':
        // A ghost is the run's, whoever reported it; never stored.
        if (ev.name === CustomEventName.ghost && typeof ev.value === 'object' && ev.value !== null) {
          (ev.value as unknown as GhostValue).runId = l.runId;
          (ev.value as unknown as GhostValue).actor = l.actor;
        }
        live.push(ev);
        break;
      default:
        keep.push(ev);
        live.push(ev);
    }
  }
  send(ctx, l, live);
  if (end) {
    const closing = closeOpen(ctx, l);
    send(ctx, l, closing.live);
    keep.push(...closing.keep);
    end.metadata = meta(ctx, l, ++l.seq);
    const own = end;
    // The run's last event: RUN_ERROR as reported, or RUN_FINISHED with the turn's summary and the run's result.
    const finalEvent = (f: RunFinishedEvent): AgUiEvent => own.type === 'RUN_ERROR' ? own : {
      ...f, timestamp: own.timestamp, metadata: own.metadata,
      result: { ...(isRecord(f.result) ? f.result : {}), ...(isRecord((own as RunFinishedEvent).result) ? (own as RunFinishedEvent).result as Record<string, Json> : {}) },
      ...((own as RunFinishedEvent).outcome ? { outcome: (own as RunFinishedEvent).outcome } : {}),
    } as RunFinishedEvent;
    const box: { last: AgUiEvent | null } = { last: null };
    summary = ctx.finishTurn(l.draftId, l.runId, (f) => (box.last = finalEvent(f)));
    let last = box.last;
    if (last === null) {
      // The turn was finished already (by an admin, or a closed session): the run still ends.
      last = finalEvent({ type: 'RUN_FINISHED', threadId: l.draftId, runId: l.runId });
      ctx.sse.publish(l.draftId, null, [last]);
    }
    end = last;
    for (const fn of l.listeners) fn(last);
    keep.push(last);
  }
  if (keep.length > 0) {
    const from = await ctx.store.runs.nextSeq(l.draftId, l.runId);
    await ctx.store.runs.append(l.draftId, l.runId, keep.map((event, i) => ({ seq: from + i, event })));
  }
  if (end) {
    const e = end as AgUiEvent;
    const status = e.type === 'RUN_ERROR' ? 'failed' : (e as RunFinishedEvent).outcome?.type === 'cancelled' ? 'cancelled' : 'done';
    await ctx.store.runs.finish(l.draftId, l.runId, {
      status,
      result: e.type === 'RUN_FINISHED' ? ((e as RunFinishedEvent).result ?? null) : null,
      error: e.type === 'RUN_ERROR' ? { code: e.code ?? 'INTERNAL', message: e.message } : null,
    });
    ctx.runs.delete(l);
  }
  return { seq: l.seq, cancel: l.cancel, summary };
}

/** START, the deltas as one, then (by the caller) END: the transcript's form of a streamed part. */
function merged(o: Open): AgUiEvent[] {
  const s = o.start;
  if (o.delta === '') return [s];
  const meta = { weft: { ...(s.metadata?.weft as WeftEventMeta), seq: o.seq } };
  if (s.type === 'TEXT_MESSAGE_START') return [s, { type: 'TEXT_MESSAGE_CONTENT', messageId: s.messageId, delta: o.delta, timestamp: s.timestamp!, metadata: meta }];
  if (s.type === 'TOOL_CALL_START') return [s, { type: 'TOOL_CALL_ARGS', toolCallId: s.toolCallId, delta: o.delta, timestamp: s.timestamp!, metadata: meta }];
  return [s];
}

/**
 * The run ends with parts still open: messages are closed and kept (prose); a step still being
 * written is closed on the stream but not kept (its text is partial JSON).
 */
function closeOpen(ctx: Ctx, l: Live): { live: AgUiEvent[]; keep: AgUiEvent[] } {
  const live: AgUiEvent[] = [];
  const keep: AgUiEvent[] = [];
  for (const o of l.open.values()) {
    const s = o.start;
    const m = meta(ctx, l, ++l.seq);
    if (s.type === 'TEXT_MESSAGE_START') {
      const end: AgUiEvent = { type: 'TEXT_MESSAGE_END', messageId: s.messageId, timestamp: ctx.now(), metadata: m };
      live.push(end);
      keep.push(...merged(o), end);
    } else if (s.type === 'TOOL_CALL_START') {
      live.push({ type: 'TOOL_CALL_END', toolCallId: s.toolCallId, timestamp: ctx.now(), metadata: m });
    }
  }
  l.open.clear();
  return { live, keep };
}

/** The draft's newest runs with their transcripts, newest first (the Build chat on open). */
export async function recentRuns(ctx: Ctx, p: Principal, draftId: string, limit: number): Promise<RunWithEvents[]> {
  requireScope(p, draftId, 'read');
  await mustRoom(ctx, draftId);
  return ctx.store.runs.recent(draftId, limit);
}

/** One run with its transcript as kept. */
export async function readRun(ctx: Ctx, p: Principal, draftId: string, runId: string): Promise<RunWithEvents> {
  requireScope(p, draftId, 'read');
  return keptRun(ctx, draftId, runId);
}

async function keptRun(ctx: Ctx, draftId: string, runId: string): Promise<RunWithEvents> {
  const run = await ctx.store.runs.get(draftId, runId);
  if (!run) throw new WeftError('NOT_FOUND', `No run "${runId}" on draft "${draftId}".`);
  return { ...run, events: await ctx.store.runs.events(draftId, run.runId) };
}

/**
 * Follows one run: `onEvent` is subscribed before the transcript is read, so nothing reported in
 * between is lost (the caller drops what it already has by seq). `unsubscribe` is null when the
 * run is not streaming on this node (ended, or running on another).
 */
export async function followRun(ctx: Ctx, p: Principal, draftId: string, runId: string, onEvent: (ev: AgUiEvent) => void): Promise<{ run: RunWithEvents; unsubscribe: (() => void) | null }> {
  requireScope(p, draftId, 'read');
  const unsubscribe = ctx.runs.subscribe(draftId, runId, onEvent);
  try {
    return { run: await keptRun(ctx, draftId, runId), unsubscribe };
  } catch (e) {
    unsubscribe?.();
    throw e;
  }
}

/** Asks the run's agent to stop (any writer may): it learns it at its next report and ends the run (cancelled). */
export async function cancelRun(ctx: Ctx, p: Principal, draftId: string, runId: string): Promise<void> {
  requireScope(p, draftId, 'write');
  const l = ctx.runs.get(draftId, runId);
  const asked = await ctx.store.runs.requestCancel(draftId, runId);
  if (!asked && !l) throw new WeftError('NOT_FOUND', `No running run "${runId}" on draft "${draftId}".`);
  if (l && !l.cancel) {
    l.cancel = true;
    send(ctx, l, [{ type: 'CUSTOM', name: CustomEventName.runCancel, value: { runId }, timestamp: ctx.now(), metadata: meta(ctx, l, ++l.seq) }]);
  }
}

/** At start (one node): runs a previous process left running end as RUN_ERROR in their transcript. */
export async function interruptRuns(ctx: Ctx): Promise<number> {
  const left = await ctx.store.runs.running();
  for (const r of left) {
    const ev: AgUiEvent = { type: 'RUN_ERROR', code: 'UNAVAILABLE', message: 'The run was interrupted: the server stopped while it ran. Send the brief again.', timestamp: ctx.now() };
    const from = await ctx.store.runs.nextSeq(r.draftId, r.runId);
    await ctx.store.runs.append(r.draftId, r.runId, [{ seq: from, event: { ...ev, metadata: { weft: { version: 0, runId: r.runId, seq: Number.MAX_SAFE_INTEGER } } } }]);
    await ctx.store.runs.finish(r.draftId, r.runId, { status: 'failed', error: { code: 'UNAVAILABLE', message: (ev as { message: string }).message } });
  }
  return left.length;
}

function isRecord(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
