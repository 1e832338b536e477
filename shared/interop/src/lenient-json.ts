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
