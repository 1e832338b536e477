// The Build chat's transcript as data (pure, no DOM): AG-UI events of agent runs folded into
// runs → notes, steps (with their ghost, outcome, repairs and refusals) and rounds. The same fold
// serves the transcript loaded from the store (GET /runs) and the live draft stream; events are
// told apart per run by `metadata.weft.seq`, so what was loaded is not applied twice.

export interface Ghost { label: string; outline: { id: string | null; component: string | null; text: string | null; depth: number }[]; path: string | null }
export interface StepOutcomeView { status: string; held: boolean; repairs: { path: string; message: string; rule?: string }[]; refused: { path: string; message: string; rule?: string }[]; message?: string }
export type Item =
  | { kind: 'note'; id: string; text: string; done: boolean }
  | { kind: 'step'; id: string; args: string; ended: boolean; ghost: Ghost | null; outcome: StepOutcomeView[] | null; round: number }
  | { kind: 'round'; n: number };
export interface ChatRun {
  runId: string;
  actor: string;
  brief: string;
  scope: { sectionId: string; componentId?: string } | null;
  status: 'running' | 'done' | 'failed' | 'cancelled';
  cancelling: boolean;
  items: Item[];
  result: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  seq: number;
  round: number;
}

type Ev = Record<string, unknown> & { type: string };
const rec = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function runIdOf(ev: Ev): string | null {
  const w = rec(rec(ev['metadata'])?.['weft']);
  return typeof w?.['runId'] === 'string' ? (w['runId'] as string) : null;
}
const seqOf = (ev: Ev): number => {
  const s = rec(rec(ev['metadata'])?.['weft'])?.['seq'];
  return typeof s === 'number' ? s : 0;
};

export class Transcript {
  readonly runs = new Map<string, ChatRun>();

  /** One run again from its stored transcript (a viewer whose stream dropped deltas meanwhile);
   *  only a transcript that holds the run's end replaces what the stream showed. */
  replace(runId: string, events: Ev[]): boolean {
    const before = this.runs.get(runId);
    this.runs.delete(runId);
    for (const e of events) this.apply(e);
    const after = this.runs.get(runId);
    if (after && after.status !== 'running') return true;
    if (before) this.runs.set(runId, before);
    else this.runs.delete(runId);
    return false;
  }

  /** Folds one event; returns the run it changed (null: not a run event, or already applied). */
  apply(ev: Ev): ChatRun | null {
    const runId = runIdOf(ev);
    if (!runId) return null;
    let run = this.runs.get(runId);
    const seq = seqOf(ev);
    if (run && seq !== 0 && seq <= run.seq && ev.type !== 'RUN_ERROR') return null;
    if (!run) {
      const meta = rec(rec(ev['metadata'])?.['weft']);
      run = { runId, actor: str(meta?.['actor']), brief: '', scope: null, status: 'running', cancelling: false, items: [], result: null, error: null, seq: 0, round: 0 };
      this.runs.set(runId, run);
    }
    if (seq > run.seq) run.seq = seq;
    const note = (id: string): Extract<Item, { kind: 'note' }> => {
      let n = run!.items.find((i): i is Extract<Item, { kind: 'note' }> => i.kind === 'note' && i.id === id);
      if (!n) run!.items.push((n = { kind: 'note', id, text: '', done: false }));
      return n;
    };
    const step = (id: string): Extract<Item, { kind: 'step' }> => {
      let s = run!.items.find((i): i is Extract<Item, { kind: 'step' }> => i.kind === 'step' && i.id === id);
      if (!s) run!.items.push((s = { kind: 'step', id, args: '', ended: false, ghost: null, outcome: null, round: run!.round }));
      return s;
    };
    switch (ev.type) {
      case 'RUN_STARTED': {
        const input = rec(ev['input']);
        const first = Array.isArray(input?.['messages']) ? rec((input!['messages'] as unknown[])[0]) : null;
        run.brief = str(first?.['content']);
        const scope = rec(rec(input?.['forwardedProps'])?.['scope']);
        run.scope = scope && typeof scope['sectionId'] === 'string' ? { sectionId: scope['sectionId'] as string, ...(typeof scope['componentId'] === 'string' ? { componentId: scope['componentId'] as string } : {}) } : null;
        break;
      }
      case 'STEP_STARTED': {
        const n = Number(/round (\d+)/.exec(str(ev['stepName']))?.[1] ?? 0);
        if (n > 0) { run.round = n; if (n > 1) run.items.push({ kind: 'round', n }); }
        break;
      }
      case 'TEXT_MESSAGE_START': note(str(ev['messageId'])); break;
      case 'TEXT_MESSAGE_CONTENT': note(str(ev['messageId'])).text += str(ev['delta']); break;
      case 'TEXT_MESSAGE_END': note(str(ev['messageId'])).done = true; break;
      case 'TOOL_CALL_START': step(str(ev['toolCallId'])); break;
      case 'TOOL_CALL_ARGS': step(str(ev['toolCallId'])).args += str(ev['delta']); break;
      case 'TOOL_CALL_END': step(str(ev['toolCallId'])).ended = true; break;
      case 'TOOL_CALL_RESULT': {
        const s = step(str(ev['toolCallId']));
        try {
          const c = rec(JSON.parse(str(ev['content'])));
          s.outcome = Array.isArray(c?.['steps']) ? (c!['steps'] as StepOutcomeView[]).map(withoutBookkeeping) : [];
        } catch { s.outcome = []; }
        s.ghost = null;
        break;
      }
      case 'CUSTOM': {
        const v = rec(ev['value']);
        if (ev['name'] === 'weft.ghost' && v && typeof v['id'] === 'string') {
          const s = step(v['id'] as string);
          s.ghost = v['done'] === true || s.outcome ? null : { label: str(v['label']), outline: Array.isArray(v['outline']) ? (v['outline'] as Ghost['outline']) : [], path: typeof v['path'] === 'string' ? (v['path'] as string) : null };
        } else if (ev['name'] === 'weft.run.cancel') run.cancelling = true;
        break;
      }
      case 'RUN_FINISHED': {
        const outcome = rec(ev['outcome']);
        run.status = outcome?.['type'] === 'cancelled' ? 'cancelled' : 'done';
        run.result = rec(ev['result']);
        for (const i of run.items) if (i.kind === 'step') i.ghost = null;
        break;
      }
      case 'RUN_ERROR':
        run.status = 'failed';
        run.error = { code: str(ev['code']) || 'INTERNAL', message: str(ev['message']) };
        for (const i of run.items) if (i.kind === 'step') i.ghost = null;
        break;
      default: return null;
    }
    return run;
  }
}

/** The server keeping /order in step with an added section is no repair of the model's work. */
function withoutBookkeeping(o: StepOutcomeView): StepOutcomeView {
  const repairs = (o.repairs ?? []).filter((n) => !(n.rule === 'rewrote_path' && /^\/order\/(-|\d+)$/.test(n.path)));
  return { ...o, repairs, refused: o.refused ?? [], status: o.status === 'repaired' && repairs.length === 0 ? 'applied' : o.status };
}

/** One line for a finished run: what it wrote, what was repaired or refused, in how many rounds. */
export function runSummary(run: ChatRun): string {
  const r = run.result ?? {};
  const num = (k: string): number => (typeof r[k] === 'number' ? (r[k] as number) : 0);
  const steps = run.items.filter((i): i is Extract<Item, { kind: 'step' }> => i.kind === 'step');
  const outcomes = steps.flatMap((s) => s.outcome ?? []);
  const count = (st: string): number => outcomes.filter((o) => o.status === st).length;
  const written = outcomes.length > 0 ? count('applied') + count('repaired') : num('written');
  const repaired = outcomes.length > 0 ? count('repaired') : num('repaired');
  const refused = count('refused') + count('unreadable');
  const rounds = num('rounds') || Math.max(1, run.round);
  const parts = [`${written} step${written === 1 ? '' : 's'} written`];
  if (repaired) parts.push(`${repaired} repaired`);
  if (refused) parts.push(`${refused} refused${run.status === 'done' && rounds > 1 && r['stoppedBy'] === 'done' ? ', then fixed' : ''}`);
  parts.push(`${rounds} round${rounds === 1 ? '' : 's'}`);
  const stopped = typeof r['stoppedBy'] === 'string' && r['stoppedBy'] !== 'done' ? ` · stopped by ${r['stoppedBy'] as string}` : '';
  return parts.join(', ') + stopped;
}

/** A step in words when no ghost is left (after a reload): its ops as far as they parse. */
export function describeArgs(args: string): string {
  let v: unknown;
  try { v = JSON.parse(args); } catch { return args.length > 0 ? 'a step that does not parse as JSON' : 'an empty step'; }
  const o = rec(v);
  const ops = Array.isArray(v) ? v : Array.isArray(o?.['ops']) ? (o!['ops'] as unknown[]) : rec(o?.['ops']) ? [o!['ops']] : o && typeof o['op'] === 'string' ? [o] : [];
  const said = ops.slice(0, 3).map((x) => {
    const op = rec(x);
    const val = rec(op?.['value']);
    const what = typeof val?.['component'] === 'string' ? ` a ${val['component'] as string}` : rec(val?.['components']) ? ` a section of ${plural(Object.keys(val!['components'] as object).length, 'component')}` : '';
    return `${str(op?.['op'])}${what} ${str(op?.['path'])}`.trim();
  });
  return said.join('; ') + (ops.length > 3 ? ` … (${ops.length} ops)` : '');
}

const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
