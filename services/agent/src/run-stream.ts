// A model-driven turn as AG-UI events, as the model writes (issue 17). The model's answer streams
// as JSON Lines; this reads the same text the builder reads (its own StepReader, fed the same
// chunks first) and says what is being written right now:
//   {"say": …}       → TEXT_MESSAGE_START, _CONTENT as the words arrive, _END;
//   a step (ops)     → TOOL_CALL_START "patch_draft", TOOL_CALL_ARGS with the model's text as it
//                      arrives, TOOL_CALL_END when the object closes, and a CUSTOM weft.ghost with
//                      the outline read from the partial text (the tolerant reader's partial parse);
//   the step's outcome, once the pipeline judged it (held steps later) → TOOL_CALL_RESULT;
//   each refusal round → STEP_STARTED / STEP_FINISHED "round n".
// Nothing here is validated or stored: the steps go through the pipeline as before.
import { keepable } from '@weft/core';
import type { AgUiEvent, GhostValue, StepOutcome } from '@weft/protocol';
import { CustomEventName } from '@weft/protocol';
import { ghostOutline, parsePartial, StepReader } from '@weft/interop';
import type { Step } from '@weft/interop';
import type { StepRecord } from './model-builder.ts';
import type { Complete } from './model-client.ts';

export interface RunStreamOptions {
  /** Events in the order they happen (the reporter batches them). */
  emit: (events: AgUiEvent[]) => void;
  /** The partial op being written (presence: where the agent is), null when none. */
  ghostOp?: (op: unknown | null) => void;
  /** Prefix of message and tool call ids (the run id). */
  prefix: string;
  /** Ghost outlines at most this often (ms); the last one is always sent. */
  ghostEveryMs?: number;
  now?: () => number;
}

interface Slot { ops: string; outcome: StepOutcome['steps'][number] | null }
interface Call { id: string; round: number; slots: Slot[]; ended: boolean; resulted: boolean; cut?: boolean }
type OpenPart = { kind: 'unknown'; text: string } | { kind: 'say'; id: string; sent: string; text: string } | { kind: 'step'; call: Call; sentChars: number; text: string; ghostAt: number; ghost: string } | { kind: 'done'; text: string };

export class RunStream {
  private readonly o: RunStreamOptions;
  private round = 0;
  private n = 0;
  private readonly calls: Call[] = [];
  private out: AgUiEvent[] = [];

  constructor(o: RunStreamOptions) {
    this.o = o;
  }

  /** The same model, its answer reported as it streams (one round per call). */
  wrap(complete: Complete): Complete {
    return (messages) => {
      const self = this;
      return (async function* () {
        const round = ++self.round;
        const reader = new StepReader();
        const state: { open: OpenPart | null; prose: number; errors: number } = { open: null, prose: 0, errors: 0 };
        self.push({ type: 'STEP_STARTED', stepName: `round ${round}` });
        self.flush();
        try {
          for await (const chunk of complete(messages)) {
            self.read(reader, state, round, chunk);
            self.flush();
            yield chunk;
          }
          self.closeRound(reader, state, round);
        } finally {
          self.closeOpen(state, round);
          self.push({ type: 'STEP_FINISHED', stepName: `round ${round}` });
          self.flush();
        }
      })();
    };
  }

  /** The builder judged a step (onStep): the result of the call that held it, once all are in. */
  step(rec: StepRecord): void {
    if (rec.status === 'unreadable') return; // reported when its object closed
    const ops = JSON.stringify(rec.ops);
    const inRound = this.calls.filter((c) => c.round === rec.round + 1 && !c.resulted);
    const slot = inRound.flatMap((c) => c.slots.map((s) => ({ c, s }))).find(({ s }) => s.outcome === null && s.ops === ops)
      ?? inRound.flatMap((c) => c.slots.map((s) => ({ c, s }))).find(({ s }) => s.outcome === null);
    if (!slot) return;
    slot.s.outcome = { status: rec.status, held: rec.held, repairs: rec.repairs, refused: rec.refused, ...(rec.message ? { message: rec.message } : {}) };
    this.resultIfDone(slot.c);
    this.flush();
  }

  /** The turn is over: complete steps never written (a budget, a stop) get their result now. */
  finish(): void {
    for (const c of this.calls) {
      if (c.resulted || c.cut) continue;
      for (const s of c.slots) s.outcome ??= { status: 'not-written', held: false, repairs: [], refused: [], message: 'The turn ended before this step was written.' };
      if (c.slots.length === 0) c.slots.push({ ops: '[]', outcome: { status: 'not-written', held: false, repairs: [], refused: [], message: 'The turn ended before this step was complete.' } });
      this.resultIfDone(c);
    }
    this.flush();
  }

  private push(ev: Record<string, unknown>): void {
    this.out.push(ev as unknown as AgUiEvent);
  }
  private flush(): void {
    if (this.out.length === 0) return;
    const evs = this.out;
    this.out = [];
    this.o.emit(evs);
  }
  private id(kind: string): string {
    return `${this.o.prefix}-${kind}${++this.n}`;
  }

  /** Feeds one chunk, one code point at a time, noting where values open and close. */
  private read(reader: StepReader, st: { open: OpenPart | null; prose: number; errors: number }, round: number, chunk: string): void {
    for (const ch of chunk) {
      const steps = reader.push(ch);
      const pending = reader.pending;
      if (st.open === null && pending !== null) st.open = { kind: 'unknown', text: pending };
      else if (st.open !== null && pending !== null) st.open.text = pending;
      if (st.open && st.open.kind === 'unknown') this.classify(st, round);
      if (st.open !== null && pending === null) {
        st.open.text += ch; // the character that closed the value
        this.close(reader, st, round, steps);
      }
      else if (steps.some((x) => 'ops' in x)) this.whole(reader, st, round, steps); // a ```surface fence closed
      this.proseLines(reader, st);
    }
    if (st.open?.kind === 'say') this.sayDelta(st.open);
    if (st.open?.kind === 'step') this.argsDelta(st.open, false);
  }

  private classify(st: { open: OpenPart | null }, round: number): void {
    const t = st.open!.text;
    const key = /^\{\s*"([^"\\]{0,40})"\s*:/.exec(t)?.[1];
    if (key === undefined && !/^\[\s*\S/.test(t)) return;
    if (key === 'say') {
      const id = this.id('note');
      this.push({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' });
      st.open = { kind: 'say', id, sent: '', text: t };
    } else if (key === 'done') st.open = { kind: 'done', text: t };
    else {
      const call: Call = { id: this.id('step'), round, slots: [], ended: false, resulted: false };
      this.calls.push(call);
      this.push({ type: 'TOOL_CALL_START', toolCallId: call.id, toolCallName: 'patch_draft' });
      st.open = { kind: 'step', call, sentChars: 0, text: t, ghostAt: 0, ghost: '' };
    }
  }

  private sayDelta(p: Extract<OpenPart, { kind: 'say' }>, final?: string): void {
    const v = final ?? (() => { const x = parsePartial(p.text); return x !== null && typeof x === 'object' && !Array.isArray(x) && typeof x['say'] === 'string' ? x['say'] : p.sent; })();
    if (v.length > p.sent.length && v.startsWith(p.sent)) {
      this.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: p.id, delta: keepable(v.slice(p.sent.length)) });
      p.sent = v;
    }
  }

  private argsDelta(p: Extract<OpenPart, { kind: 'step' }>, final: boolean): void {
    if (p.text.length > p.sentChars) {
      this.push({ type: 'TOOL_CALL_ARGS', toolCallId: p.call.id, delta: keepable(p.text.slice(p.sentChars)) });
      p.sentChars = p.text.length;
    }
    const now = (this.o.now ?? Date.now)();
    if (!final && now - p.ghostAt < (this.o.ghostEveryMs ?? 120)) return;
    const g = ghostOutline(p.text);
    if (!g) return;
    const sig = JSON.stringify(g);
    if (sig === p.ghost) return;
    p.ghost = sig;
    p.ghostAt = now;
    const value: GhostValue = { id: p.call.id, runId: this.o.prefix, actor: '', label: g.label, outline: g.outline, path: g.path };
    this.push({ type: 'CUSTOM', name: CustomEventName.ghost, value });
    const op = parsePartial(p.text);
    const first = Array.isArray(op) ? op[0] : op && typeof op === 'object' && Array.isArray(op['ops']) ? op['ops'][0] : op;
    this.o.ghostOp?.(first ?? null);
  }

  /** The value closed (or went back to prose): end the message, or end the call. */
  private close(reader: StepReader, st: { open: OpenPart | null; errors: number }, round: number, steps: Step[]): void {
    const p = st.open!;
    st.open = null;
    if (p.kind === 'say') {
      const said = steps.find((s): s is { say: string } => 'say' in s);
      this.sayDelta(p, said?.say);
      this.push({ type: 'TEXT_MESSAGE_END', messageId: p.id });
    } else if (p.kind === 'step') {
      this.argsDelta(p, true);
      this.endCall(p.call, reader, st, steps);
    } else if (p.kind === 'unknown') {
      // An object that closed before its first key was read ("{}", "[1]"): a step if it was one.
      const ops = steps.filter((s): s is { ops: unknown[] } => 'ops' in s);
      if (ops.length > 0 || reader.errors.length > st.errors) {
        const call: Call = { id: this.id('step'), round, slots: [], ended: false, resulted: false };
        this.calls.push(call);
        this.push({ type: 'TOOL_CALL_START', toolCallId: call.id, toolCallName: 'patch_draft' });
        this.push({ type: 'TOOL_CALL_ARGS', toolCallId: call.id, delta: keepable(p.text) });
        this.endCall(call, reader, st, steps);
      }
    }
    st.errors = reader.errors.length;
  }

  /** A step that came out whole (a surface fence): its call starts and ends at once. */
  private whole(reader: StepReader, st: { errors: number }, round: number, steps: Step[]): void {
    const call: Call = { id: this.id('step'), round, slots: [], ended: false, resulted: false };
    this.calls.push(call);
    this.push({ type: 'TOOL_CALL_START', toolCallId: call.id, toolCallName: 'patch_draft' });
    this.push({ type: 'TOOL_CALL_ARGS', toolCallId: call.id, delta: keepable(JSON.stringify({ ops: steps.flatMap((x) => ('ops' in x ? x.ops : [])) })) });
    this.endCall(call, reader, st, steps);
  }

  private endCall(call: Call, reader: StepReader, st: { errors: number }, steps: Step[]): void {
    call.ended = true;
    this.push({ type: 'TOOL_CALL_END', toolCallId: call.id });
    for (const s of steps) if ('ops' in s) call.slots.push({ ops: JSON.stringify(s.ops), outcome: null });
    if (call.slots.length === 0) {
      const e = reader.errors.slice(st.errors).at(-1);
      call.slots.push({ ops: '[]', outcome: { status: 'unreadable', held: false, repairs: [], refused: [], message: e ? `line ${e.line}: ${e.message}` : 'Not a step.' } });
      this.resultIfDone(call);
    }
  }

  private proseLines(reader: StepReader, st: { prose: number }): void {
    while (st.prose < reader.prose.length) {
      const line = reader.prose[st.prose++]!;
      const id = this.id('note');
      this.push({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' });
      this.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: keepable(line) });
      this.push({ type: 'TEXT_MESSAGE_END', messageId: id });
    }
  }

  private closeRound(reader: StepReader, st: { open: OpenPart | null; prose: number; errors: number }, round: number): void {
    const rest = reader.end();
    if (st.open) this.close(reader, st, round, rest);
    this.proseLines(reader, st);
  }

  /** A stream that broke off: what was open is closed (a step cut short is never written). */
  private closeOpen(st: { open: OpenPart | null }, round: number): void {
    const p = st.open;
    st.open = null;
    if (!p) return;
    void round;
    if (p.kind === 'say') this.push({ type: 'TEXT_MESSAGE_END', messageId: p.id });
    // A step cut short stays open: the session closes it on the stream when the run ends and
    // keeps none of it (its text is partial JSON).
    if (p.kind === 'step') p.call.cut = true;
  }

  private resultIfDone(c: Call): void {
    if (c.resulted || !c.ended || c.slots.some((s) => s.outcome === null)) return;
    c.resulted = true;
    const content: StepOutcome = { steps: c.slots.map((s) => s.outcome!) };
    this.push({ type: 'TOOL_CALL_RESULT', messageId: `${c.id}-result`, toolCallId: c.id, content: JSON.stringify(content), role: 'tool' });
    this.push({ type: 'CUSTOM', name: CustomEventName.ghost, value: { id: c.id, runId: this.o.prefix, actor: '', label: '', outline: [], path: null, done: true } satisfies GhostValue });
    if (!this.calls.some((x) => !x.resulted && x.ended === false)) this.o.ghostOp?.(null);
  }
}
