// The fixed set of named functions (RFC §3): specs that validation and the prompt read, and pure
// implementations over already-resolved arguments. No eval, no regex built from input.
import type { FunctionName, Json } from './draft.ts';

export interface FunctionArgSpec {
  required: boolean;
  /** Literal type the argument must have when given as a literal ('any' = no check). */
  type: 'any' | 'string' | 'number' | 'integer' | 'array';
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  /** For `concat.parts`: items may themselves be operands or calls. */
  operands?: boolean;
  description: string;
}

export interface FunctionSpec {
  name: FunctionName;
  description: string;
  args: Readonly<Record<string, FunctionArgSpec>>;
  returns: 'string' | 'number' | 'boolean';
}

const locale: FunctionArgSpec = { required: false, type: 'string', description: 'BCP 47 locale, default en-US' };
const value: FunctionArgSpec = { required: true, type: 'any', description: 'the value' };

export const FUNCTION_SPECS: Readonly<Record<FunctionName, FunctionSpec>> = {
  formatDate: {
    name: 'formatDate', returns: 'string', description: 'Formats an ISO date (UTC).',
    args: { value: { ...value, description: 'ISO 8601 date string' }, style: { required: false, type: 'string', enum: ['short', 'medium', 'long', 'iso'], description: 'default medium' }, locale },
  },
  formatNumber: {
    name: 'formatNumber', returns: 'string', description: 'Formats a number.',
    args: { value, decimals: { required: false, type: 'integer', minimum: 0, maximum: 6, description: 'fraction digits' }, locale },
  },
  formatCurrency: {
    name: 'formatCurrency', returns: 'string', description: 'Formats an amount of money.',
    args: { value, currency: { required: true, type: 'string', description: 'ISO 4217 code, 3 letters' }, locale },
  },
  pluralize: {
    name: 'pluralize', returns: 'string', description: 'Picks `one` when count is 1, else `other`.',
    args: { count: { required: true, type: 'number', description: 'the count' }, one: { required: true, type: 'string', description: 'singular' }, other: { required: true, type: 'string', description: 'plural' } },
  },
  concat: {
    name: 'concat', returns: 'string', description: 'Joins parts as text.',
    args: { parts: { required: true, type: 'array', operands: true, description: 'literals, {path} or calls' } },
  },
  length: { name: 'length', returns: 'number', description: 'Length of a string or array.', args: { value } },
  required: { name: 'required', returns: 'boolean', description: 'True if the value is present and not blank.', args: { value } },
  minLength: {
    name: 'minLength', returns: 'boolean', description: 'True if the length is at least min.',
    args: { value, min: { required: true, type: 'integer', minimum: 0, description: 'minimum length' } },
  },
  maxLength: {
    name: 'maxLength', returns: 'boolean', description: 'True if the length is at most max.',
    args: { value, max: { required: true, type: 'integer', minimum: 0, description: 'maximum length' } },
  },
  email: { name: 'email', returns: 'boolean', description: 'A fixed, linear e-mail address check.', args: { value } },
  range: {
    name: 'range', returns: 'boolean', description: 'True if the number is within [min, max].',
    args: { value, min: { required: false, type: 'number', description: 'lower bound' }, max: { required: false, type: 'number', description: 'upper bound' } },
  },
  // Host-checked arithmetic: a derived figure the host computes, so a wrong model-written total
  // cannot look plausible. A non-numeric operand gives null (the prop then shows as broken).
  add: {
    name: 'add', returns: 'number', description: 'a + b.',
    args: { a: { required: true, type: 'number', description: 'a number or {path}' }, b: { required: true, type: 'number', description: 'a number or {path}' } },
  },
  multiply: {
    name: 'multiply', returns: 'number', description: 'a × b.',
    args: { a: { required: true, type: 'number', description: 'a number or {path}' }, b: { required: true, type: 'number', description: 'a number or {path}' } },
  },
  sum: {
    name: 'sum', returns: 'number', description: 'Sum of a list of numbers, or of one field of a list of objects.',
    args: { values: { required: true, type: 'array', description: 'a list or {path} to one' }, key: { required: false, type: 'string', description: 'the field to add up when items are objects' } },
  },
};

// Intl objects are costly to build; the renderer calls these per bound prop.
const fmtCache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let f = fmtCache.get(key);
  if (f === undefined) {
    if (fmtCache.size > 256) fmtCache.clear();
    f = make();
    fmtCache.set(key, f);
  }
  return f as T;
}

function safeLocale(l: Json | undefined): string {
  if (typeof l !== 'string' || l.length === 0 || l.length > 35) return 'en-US';
  try {
    return Intl.getCanonicalLocales(l)[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

function toNumber(v: Json | undefined): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function lengthOf(v: Json | undefined): number {
  if (typeof v === 'string' || Array.isArray(v)) return v.length;
  return 0;
}

export function asText(v: Json | undefined): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** A fixed, linear check: local@domain.tld, no spaces, sane lengths. */
export function isEmail(v: Json | undefined): boolean {
  if (typeof v !== 'string' || v.length < 3 || v.length > 254) return false;
  const at = v.indexOf('@');
  if (at < 1 || at > 64 || at !== v.lastIndexOf('@')) return false;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c <= 32 || c === 127 || c === 34 || c === 40 || c === 41 || c === 44 || c === 58 || c === 59 || c === 60 || c === 62 || c === 91 || c === 92 || c === 93) return false;
  }
  const domain = v.slice(at + 1);
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  for (const l of labels) {
    if (l.length === 0 || l.length > 63 || l.startsWith('-') || l.endsWith('-')) return false;
  }
  if (v.charCodeAt(0) === 46 || v.charCodeAt(at - 1) === 46 || v.includes('..')) return false;
  return (labels[labels.length - 1] ?? '').length >= 2;
}

/**
 * Runs a function over resolved arguments (for `concat`, `parts` is the array of resolved parts).
 * Deterministic: dates and numbers format with an explicit locale (default en-US) in UTC.
 */
export function applyFunction(name: FunctionName, args: Readonly<Record<string, Json | undefined>>): Json {
  switch (name) {
    case 'formatDate': {
      const v = args['value'];
      const d = typeof v === 'string' || typeof v === 'number' ? new Date(v) : null;
      if (d === null || Number.isNaN(d.getTime())) return asText(v);
      const style = args['style'];
      if (style === 'iso') return d.toISOString();
      const dateStyle = style === 'short' || style === 'long' ? style : 'medium';
      const loc = safeLocale(args['locale']);
      return cached(`d|${loc}|${dateStyle}`, () => new Intl.DateTimeFormat(loc, { dateStyle, timeZone: 'UTC' })).format(d);
    }
    case 'formatNumber': {
      const n = toNumber(args['value']);
      if (n === null) return asText(args['value']);
      const dec = args['decimals'];
      const loc = safeLocale(args['locale']);
      const d = typeof dec === 'number' && Number.isInteger(dec) && dec >= 0 && dec <= 6 ? dec : -1;
      return cached(`n|${loc}|${d}`, () =>
        new Intl.NumberFormat(loc, d >= 0 ? { minimumFractionDigits: d, maximumFractionDigits: d } : {}),
      ).format(n);
    }
    case 'formatCurrency': {
      const n = toNumber(args['value']);
      const cur = args['currency'];
      if (n === null) return asText(args['value']);
      if (typeof cur !== 'string' || !isCurrencyCode(cur)) return String(n);
      const loc = safeLocale(args['locale']);
      try {
        return cached(`c|${loc}|${cur}`, () => new Intl.NumberFormat(loc, { style: 'currency', currency: cur })).format(n);
      } catch {
        return String(n);
      }
    }
    case 'pluralize':
      return toNumber(args['count']) === 1 ? asText(args['one']) : asText(args['other']);
    case 'concat': {
      const parts = args['parts'];
      if (!Array.isArray(parts)) return asText(parts);
      let s = '';
      for (const p of parts) s += asText(p);
      return s;
    }
    case 'length':
      return lengthOf(args['value']);
    case 'required': {
      const v = args['value'];
      if (v === undefined || v === null || v === false) return false;
      if (typeof v === 'string') return v.trim().length > 0;
      if (Array.isArray(v)) return v.length > 0;
      return true;
    }
    case 'minLength': {
      const min = toNumber(args['min']);
      return min !== null && lengthOf(args['value']) >= min;
    }
    case 'maxLength': {
      const max = toNumber(args['max']);
      return max !== null && lengthOf(args['value']) <= max;
    }
    case 'email':
      return isEmail(args['value']);
    case 'add':
    case 'multiply': {
      const a = toNumber(args['a']);
      const b = toNumber(args['b']);
      if (a === null || b === null) return null;
      return tidy(name === 'add' ? a + b : a * b);
    }
    case 'sum': {
      const values = args['values'];
      const key = args['key'];
      if (!Array.isArray(values)) return null;
      let total = 0;
      for (const v of values) {
        const item = typeof key === 'string' && v !== null && typeof v === 'object' && !Array.isArray(v) ? (Object.hasOwn(v, key) ? v[key] : undefined) : v;
        const n = toNumber(item);
        if (n === null) return null;
        total += n;
      }
      return tidy(total);
    }
    case 'range': {
      const n = toNumber(args['value']);
      if (n === null) return false;
      const min = toNumber(args['min']);
      const max = toNumber(args['max']);
      return (min === null || n >= min) && (max === null || n <= max);
    }
  }
}

/** Drops binary floating-point noise (0.1 + 0.2 → 0.3); null when the result is not finite. */
function tidy(n: number): number | null {
  return Number.isFinite(n) ? Number.parseFloat(n.toPrecision(12)) : null;
}

export function isCurrencyCode(s: string): boolean {
  if (s.length !== 3) return false;
  for (let i = 0; i < 3; i++) {
    const c = s.charCodeAt(i);
    if (c < 65 || c > 90) return false;
  }
  return true;
}
