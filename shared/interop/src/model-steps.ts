// The tolerant JSON Lines reader for model answers (RFC 000 status, "The tolerant reader"):
// objects may span lines or share one, prose and ``` fences are set aside (JSON inside a fence is
// still read), trailing commas and raw control characters in strings are read, a bare op or
// `{ops:[…]}` or `{ops:{one op}}` or an array of ops is one step, an array of steps is its steps,
// a ```surface fence (the prompt shows them) is one step adding its section, and a <think> block
// or a JSON snippet inside a prose line is prose, not an unreadable step. A character scanner
// finds where each top-level value ends; parseLenient reads it. Nothing is evaluated.
import type { Json } from '@weft/core';
import { parseLenient } from './lenient-json.ts';
import { isObject } from './json-util.ts';
import { parseSurfaceFence } from './surface-fence.ts';

export type Step = { ops: unknown[] } | { say: string } | { done: true };
export interface StepError { line: number; message: string }
export interface ModelSteps { steps: Step[]; prose: string[]; errors: StepError[] }

export const NO_STEP_MESSAGE =
  'The answer holds no JSON object. Write one step per line: {"ops":[…]}, {"say":"…"} or {"done":true}.';

/** Reads a whole answer at once. */
export function readModelSteps(text: string): ModelSteps {
  const r = new StepReader();
  const steps = r.push(text);
  steps.push(...r.end());
  return { steps, prose: r.prose, errors: r.errors };
}

/** Incremental reader: push chunks as they stream; each step comes out as its object completes. */
export class StepReader {
  readonly prose: string[] = [];
  readonly errors: StepError[] = [];
  #objects = 0;
  /** Text of the value being collected (depth > 0), or of the current prose line. */
  #buf = '';
  #depth = 0;
  #inString = false;
  #escape = false;
  #line = 1;
  #startLine = 1;
  /** Whether the current line had prose before a value began (then a failed value is prose). */
  #lineHasProse = false;
  #lineText = '';
  /** Inside <think>…</think>: the tail seen so far, to find the end tag. */
  #think: string | null = null;
  #thinkLine = 0;
  /** Inside a ```surface fence: its info string, body lines so far and the line it opened on. */
  #fence: { info: string; lines: string[]; line: number; cur: string; inInfo: boolean } | null = null;

  /** The text of the top-level value being read now (null between values, in prose or a fence):
   *  what a ghost of the step being written is drawn from. */
  get pending(): string | null {
    return this.#depth > 0 && this.#fence === null ? this.#buf : null;
  }

  push(chunk: string): Step[] {
    const out: Step[] = [];
    for (const ch of chunk) {
      if (this.#think !== null) this.#thinking(ch);
      else if (this.#fence !== null) this.#fenced(ch, out);
      else if (this.#depth === 0) this.#outside(ch, out);
      else this.#inside(ch, out);
      if (ch === '\n') this.#line++;
    }
    return out;
  }

  #thinking(ch: string): void {
    this.#think = (this.#think + ch).slice(-8);
    if (this.#think === '</think>') this.#think = null;
  }

  #fenced(ch: string, out: Step[]): void {
    const f = this.#fence!;
    if (ch !== '\n') {
      f.cur += ch;
      return;
    }
    if (f.inInfo) f.info += f.cur;
    else if (FENCE_CLOSE.test(f.cur)) return this.#endFence(out);
    else f.lines.push(f.cur);
    f.inInfo = false;
    f.cur = '';
  }

  /** The fence as one step: add its section (components and data; parseSurfaceFence maps them). */
  #endFence(out: Step[]): void {
    const f = this.#fence!;
    this.#fence = null;
    if (f.inInfo) f.info += f.cur;
    else if (f.cur.trim() !== '' && !FENCE_CLOSE.test(f.cur)) f.lines.push(f.cur);
    this.#objects++;
    const parsed = parseSurfaceFence(f.lines.join('\n'), f.info.trim());
    for (const e of parsed.errors) this.errors.push({ line: f.line + e.line, message: `In the surface fence: ${e.message}` });
    if (parsed.errors.some((e) => e.line === 0)) return;
    const id = parsed.section.id.replace(/~/g, '~0').replace(/\//g, '~1');
    out.push({ ops: [{ op: 'add', path: `/sections/${id}`, value: parsed.section }] });
  }

  /** Ends the stream: an unfinished value is an error; no object at all is exactly one error. */
  end(): Step[] {
    const out: Step[] = [];
    if (this.#think !== null) {
      this.#think = null;
      this.#objects++;
      this.errors.push({ line: this.#thinkLine, message: 'The <think> block is not closed with </think>; nothing after it was read.' });
    }
    if (this.#fence !== null) this.#endFence(out);
    if (this.#depth > 0) {
      this.errors.push({ line: this.#startLine, message: 'The JSON object is not closed before the end of the answer.' });
      this.#depth = 0;
      this.#buf = '';
    }
    this.#flushLine();
    if (this.#objects === 0 && this.errors.length === 0) this.errors.push({ line: 1, message: NO_STEP_MESSAGE });
    return out;
  }

  #outside(ch: string, out: Step[]): void {
    if (ch === '{' && FENCE_OPEN.test(this.#lineText)) {
      this.#fence = { info: `${this.#lineText.trim().replace(/^(```|~~~)/, '')}{`, lines: [], line: this.#line, cur: '', inInfo: true };
      this.#lineText = '';
      return;
    }
    if (ch === '{' || ch === '[') {
      this.#depth = 1;
      this.#buf = ch;
      this.#startLine = this.#line;
      this.#lineHasProse = this.#lineText.trim() !== '';
      return;
    }
    if (ch === '\n') {
      this.#flushLine();
      return;
    }
    this.#lineText += ch;
    // A <think> block opens at the start of a line; the same words mid-sentence are prose.
    if (this.#lineText.endsWith('<think>') && this.#lineText.slice(0, -'<think>'.length).trim() === '') {
      this.#lineText = '';
      this.#think = '';
      this.#thinkLine = this.#line;
    }
    void out;
  }


  #flushLine(): void {
    const t = this.#lineText.trim();
    this.#lineText = '';
    if (FENCE_OPEN.test(t)) {
      // ```surface with no info object: a fence all the same (its missing id is reported).
      this.#fence = { info: 'surface', lines: [], line: this.#line, cur: '', inInfo: false };
      return;
    }
    // Code fence markers are set aside; JSON between them is read like any other.
    if (t === '' || /^(```|~~~)[\w-]*$/.test(t)) return;
    this.prose.push(t);
  }

  #inside(ch: string, out: Step[]): void {
    if (ch === '\n' && this.#lineHasProse && !/^(\{\s*("|$)|\[\s*(\{|$))/.test(this.#buf)) {
      // A bracket inside a prose line that is not JSON: give it back to the prose.
      this.#lineText += this.#buf;
      this.#buf = '';
      this.#depth = 0;
      this.#inString = false;
      this.#escape = false;
      this.#flushLine();
      return;
    }
    this.#buf += ch;
    if (this.#inString) {
      if (this.#escape) this.#escape = false;
      else if (ch === '\\') this.#escape = true;
      else if (ch === '"') this.#inString = false;
      return;
    }
    if (ch === '"') this.#inString = true;
    else if (ch === '{' || ch === '[') this.#depth++;
    else if (ch === '}' || ch === ']') {
      this.#depth--;
      if (this.#depth === 0) this.#complete(out);
    }
  }

  #complete(out: Step[]): void {
    const text = this.#buf;
    this.#buf = '';
    const r = parseLenient(text);
    if (!r.ok || text.slice(r.end).trim() !== '') {
      if (this.#lineHasProse || text.startsWith('[')) {
        this.#lineText += text; // brackets inside prose, e.g. "see [1]"
        return;
      }
      this.#objects++;
      this.errors.push({ line: this.#startLine, message: `The object does not parse: ${r.ok ? 'unbalanced brackets' : r.message}.` });
      return;
    }
    const steps = toSteps(r.value);
    if (steps === undefined) {
      if (this.#lineHasProse) {
        this.#lineText += text; // a JSON snippet inside a sentence: an illustration, not a step
        return;
      }
      this.#objects++;
      this.errors.push({ line: this.#startLine, message: 'Not a step: expected {"ops":[…]}, {"say":"…"}, {"done":true}, an op {"op","path",…} or an array of ops.' });
      return;
    }
    this.#objects++;
    out.push(...steps);
  }
}

/** A line that opens a ```surface fence (its info object may follow on the same line), and one
 *  that closes it. */
const FENCE_OPEN = /^\s{0,3}(```|~~~)surface\s*$/;
const FENCE_CLOSE = /^\s{0,3}(```|~~~)\s*$/;

function isOp(v: unknown): boolean {
  return isObject(v) && typeof v['op'] === 'string' && typeof v['path'] === 'string';
}

export function toStep(v: Json): Step | undefined {
  if (Array.isArray(v)) return v.length > 0 && v.every(isOp) ? { ops: v } : undefined;
  if (!isObject(v)) return undefined;
  if (Array.isArray(v['ops'])) return { ops: v['ops'] };
  if (isOp(v['ops'])) return { ops: [v['ops']!] }; // {"ops": {one op}}, as the doors read it too (readOpsField in @weft/protocol)
  if (typeof v['say'] === 'string') return { say: v['say'] };
  if (v['done'] === true) return { done: true };
  if (isOp(v)) return { ops: [v] };
  return undefined;
}

/** One value as steps: an array of ops is one step, an array of steps is its steps. */
export function toSteps(v: Json): Step[] | undefined {
  const one = toStep(v);
  if (one !== undefined) return [one];
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const many = v.map(toStep);
  return many.every((s) => s !== undefined) ? (many as Step[]) : undefined;
}
