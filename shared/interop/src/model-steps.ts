// The tolerant JSON Lines reader for model answers (RFC 000 status, "The tolerant reader"):
// objects may span lines or share one, prose and ``` fences are set aside (JSON inside a fence is
// still read), trailing commas and raw control characters in strings are read, a bare op or
// `{ops:[…]}` or an array of ops is one step. A character scanner finds where each top-level
// value ends; parseLenient reads it. Nothing is evaluated.
import type { Json } from '@weft/core';
import { parseLenient } from './lenient-json.ts';
import { isObject } from './json-util.ts';

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

  push(chunk: string): Step[] {
    const out: Step[] = [];
    for (const ch of chunk) {
      if (this.#depth === 0) this.#outside(ch, out);
      else this.#inside(ch, out);
      if (ch === '\n') this.#line++;
    }
    return out;
  }

  /** Ends the stream: an unfinished value is an error; no object at all is exactly one error. */
  end(): Step[] {
    if (this.#depth > 0) {
      this.errors.push({ line: this.#startLine, message: 'The JSON object is not closed before the end of the answer.' });
      this.#depth = 0;
      this.#buf = '';
    }
    this.#flushLine();
    if (this.#objects === 0 && this.errors.length === 0) this.errors.push({ line: 1, message: NO_STEP_MESSAGE });
    return [];
  }

  #outside(ch: string, out: Step[]): void {
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
    void out;
  }


  #flushLine(): void {
    const t = this.#lineText.trim();
    this.#lineText = '';
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
    const step = toStep(r.value);
    if (step === undefined) {
      if (Array.isArray(r.value) && this.#lineHasProse) {
        this.#lineText += text;
        return;
      }
      this.#objects++;
      this.errors.push({ line: this.#startLine, message: 'Not a step: expected {"ops":[…]}, {"say":"…"}, {"done":true}, an op {"op","path",…} or an array of ops.' });
      return;
    }
    this.#objects++;
    out.push(step);
  }
}

function isOp(v: unknown): boolean {
  return isObject(v) && typeof v['op'] === 'string' && typeof v['path'] === 'string';
}

export function toStep(v: Json): Step | undefined {
  if (Array.isArray(v)) return v.length > 0 && v.every(isOp) ? { ops: v } : undefined;
  if (!isObject(v)) return undefined;
  if (Array.isArray(v['ops'])) return { ops: v['ops'] };
  if (typeof v['say'] === 'string') return { say: v['say'] };
  if (v['done'] === true) return { done: true };
  if (isOp(v)) return { ops: [v] };
  return undefined;
}
