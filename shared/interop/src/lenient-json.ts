// A forgiving JSON parser for model output (RFC 000 status: "raw control characters in strings
// or trailing commas are read"). Recursive descent over the text; never eval. Everything else
// follows JSON: keys are double-quoted strings, literals are true/false/null.
import type { Json } from '@weft/core';
import { FORBIDDEN } from './json-util.ts';

export type LenientResult = { ok: true; value: Json; end: number } | { ok: false; message: string; at: number };

const MAX_DEPTH = 64;

/** Parses one JSON value starting at `start` (leading whitespace skipped); `end` is just past it. */
export function parseLenient(text: string, start = 0): LenientResult {
  const p = new Parser(text, start);
  try {
    const value = p.value(0);
    return { ok: true, value, end: p.i };
  } catch (e) {
    if (e instanceof SyntaxErrorAt) return { ok: false, message: e.message, at: e.at };
    throw e;
  }
}

class SyntaxErrorAt extends Error {
  readonly at: number;
  constructor(message: string, at: number) {
    super(message);
    this.at = at;
  }
}

class Parser {
  i: number;
  readonly s: string;
  constructor(s: string, i: number) {
    this.s = s;
    this.i = i;
  }

  fail(msg: string): never {
    throw new SyntaxErrorAt(`${msg} at offset ${this.i}`, this.i);
  }

  ws(): void {
    while (this.i < this.s.length && ' \t\r\n\uFEFF'.includes(this.s[this.i] as string)) this.i++;
  }

  value(depth: number): Json {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    this.ws();
    const c = this.s[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === undefined) this.fail('unexpected end of input');
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    return this.number();
  }

  object(depth: number): Json {
    this.i++;
    const out: { [k: string]: Json } = {};
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail('expected a "key"');
      const key = this.string();
      this.ws();
      if (this.s[this.i] !== ':') this.fail('expected ":"');
      this.i++;
      const v = this.value(depth + 1);
      // Never create prototype keys from model text.
      if (!FORBIDDEN.has(key)) out[key] = v;
      this.ws();
      const c = this.s[this.i];
      if (c === ',') {
        this.i++;
        this.ws();
        if (this.s[this.i] === '}') {
          this.i++;
          return out; // trailing comma
        }
        continue;
      }
      if (c === '}') {
        this.i++;
        return out;
      }
      this.fail('expected "," or "}"');
    }
  }

  array(depth: number): Json {
    this.i++;
    const out: Json[] = [];
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.ws();
      const c = this.s[this.i];
      if (c === ',') {
        this.i++;
        this.ws();
        if (this.s[this.i] === ']') {
          this.i++;
          return out; // trailing comma
        }
        continue;
      }
      if (c === ']') {
        this.i++;
        return out;
      }
      this.fail('expected "," or "]"');
    }
  }

  string(): string {
    this.i++;
    let out = '';
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) this.fail('unterminated string');
      this.i++;
      if (c === '"') return out;
      if (c !== '\\') {
        out += c; // raw control characters (a literal line break) are kept as they are
        continue;
      }
      const e = this.s[this.i++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const hex = this.s.slice(this.i, this.i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          this.i += 4;
          break;
        }
        default: this.fail('bad escape');
      }
    }
  }

  number(): number {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (!m) this.fail('unexpected character');
    this.i += m[0].length;
    const n = Number(m[0]);
    if (!Number.isFinite(n)) this.fail('number out of range');
    return n;
  }
}

/**
 * The value a JSON prefix has so far (a step the model is still writing): open strings, arrays
 * and objects are closed where the text stops, a key without its value is left out, a literal
 * cut short is left out. For ghosts only — never validated, never stored. Forgiving like
 * parseLenient (trailing commas, raw control characters); null when the text is not JSON-like.
 */
export function parsePartial(text: string): Json | null {
  const p = new PartialParser(text);
  try {
    const v = p.value(0);
    return v === undefined ? null : v;
  } catch (e) {
    if (e instanceof SyntaxErrorAt) return null;
    throw e;
  }
}

class PartialParser extends Parser {
  /** The text ended inside the value being read. */
  cut = false;
  constructor(s: string) {
    super(s, 0);
  }
  private atEnd(): boolean {
    this.ws();
    if (this.i >= this.s.length) this.cut = true;
    return this.cut;
  }
  override value(depth: number): Json {
    if (this.atEnd()) return undefined as unknown as Json;
    const c = this.s[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    const rest = this.s.slice(this.i);
    if (rest.length < 5 && ['true', 'false', 'null'].some((w) => w.startsWith(rest))) {
      this.i = this.s.length;
      this.cut = true;
      return undefined as unknown as Json;
    }
    const v = super.value(depth);
    if (this.i >= this.s.length) this.cut = true; // a number may go on
    return v;
  }
  override object(depth: number): Json {
    if (depth > 64) this.fail('nesting too deep');
    this.i++;
    const out: { [k: string]: Json } = {};
    for (;;) {
      if (this.atEnd()) return out;
      if (this.s[this.i] === '}') { this.i++; return out; }
      if (this.s[this.i] === ',') { this.i++; continue; }
      if (this.s[this.i] !== '"') this.fail('expected a "key"');
      const key = this.string();
      if (this.cut || this.atEnd()) return out;
      if (this.s[this.i] !== ':') this.fail('expected ":"');
      this.i++;
      const v = this.value(depth + 1);
      if (v !== undefined && !FORBIDDEN.has(key)) out[key] = v;
      if (this.cut) return out;
    }
  }
  override array(depth: number): Json {
    if (depth > 64) this.fail('nesting too deep');
    this.i++;
    const out: Json[] = [];
    for (;;) {
      if (this.atEnd()) return out;
      if (this.s[this.i] === ']') { this.i++; return out; }
      if (this.s[this.i] === ',') { this.i++; continue; }
      const v = this.value(depth + 1);
      if (v !== undefined) out.push(v);
      if (this.cut) return out;
    }
  }
  override string(): string {
    this.i++;
    let out = '';
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === '"') { this.i++; return out; }
      if (c === '\\') {
        if (this.i + 1 >= this.s.length) break;
        const e = this.s[this.i + 1]!;
        if (e === 'u') {
          const hex = this.s.slice(this.i + 2, this.i + 6);
          if (hex.length < 4) break;
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          this.i += 6;
          continue;
        }
        const m: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (!Object.hasOwn(m, e)) this.fail('bad escape');
        out += m[e];
        this.i += 2;
        continue;
      }
      out += c;
      this.i++;
    }
    this.i = this.s.length;
    this.cut = true;
    return out;
  }
}
