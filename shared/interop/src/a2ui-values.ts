// A2UI Dynamic* values and function calls → Weft bindings and named functions (PROTOCOLS.md §5).
import type { Json, JsonObject } from '@weft/core';
import { isObject } from './json-util.ts';
import { note } from './notes.ts';
import type { InteropNote } from './notes.ts';

export interface ValueCtx {
  notes: InteropNote[];
  /** Where the value came from, for notes. */
  path: string;
}

/** A binding path made absolute: A2UI resolves paths without a leading `/` against the root here. */
export function absPath(p: string): string {
  return p.startsWith('/') ? p : `/${p}`;
}

/** Converts a dynamic value; `undefined` means it could not be carried over (a note says why). */
export function importDynamic(v: unknown, ctx: ValueCtx): Json | undefined {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (Array.isArray(v)) {
    const out: Json[] = [];
    for (const [i, x] of v.entries()) {
      const c = importDynamic(x, { ...ctx, path: `${ctx.path}/${i}` });
      if (c !== undefined) out.push(c);
    }
    return out;
  }
  if (!isObject(v)) return undefined;
  if (typeof v['path'] === 'string' && Object.keys(v).length === 1) return { path: absPath(v['path']) };
  if (typeof v['call'] === 'string') return importCall(v, ctx);
  ctx.notes.push(note('value-invalid', ctx.path, 'An object value that is neither a binding nor a function call was left out.', true));
  return undefined;
}

const RENAMED = new Set(['formatNumber', 'formatCurrency', 'formatDate', 'pluralize', 'required', 'email']);

function importCall(v: Record<string, unknown>, ctx: ValueCtx): Json | undefined {
  const name = v['call'] as string;
  const args = isObject(v['args']) ? v['args'] : {};
  const arg = (k: string): Json | undefined => importDynamic(args[k], { ...ctx, path: `${ctx.path}/args/${k}` });
  const unknown = (why: string): undefined => {
    ctx.notes.push(note('function-unknown', ctx.path, `Function "${name}" ${why}; the value was left out.`, true));
    return undefined;
  };
  if (name === 'formatString') {
    const tpl = args['value'];
    if (typeof tpl !== 'string') return unknown('has a non-literal template');
    const parts = splitTemplate(tpl);
    if (parts === undefined) return unknown('interpolates function calls, which have no Weft equivalent');
    if (parts.length === 1 && typeof parts[0] === 'string') return parts[0];
    return { call: 'concat', args: { parts } };
  }
  if (!RENAMED.has(name) && name !== 'length') return unknown('has no Weft equivalent');
  const out: JsonObject = {};
  const dropped: string[] = [];
  const keep = (from: string, to = from): void => {
    const a = arg(from);
    if (a !== undefined) out[to] = a;
  };
  switch (name) {
    case 'formatNumber':
      keep('value');
      keep('decimals');
      if ('grouping' in args) dropped.push('grouping');
      break;
    case 'formatCurrency':
      keep('value');
      keep('currency');
      if ('decimals' in args) dropped.push('decimals');
      if ('grouping' in args) dropped.push('grouping');
      break;
    case 'formatDate':
      keep('value');
      // A2UI takes a free pattern; Weft has named styles only.
      if ('format' in args) dropped.push('format');
      break;
    case 'pluralize': {
      keep('value', 'count');
      keep('other');
      if ('one' in args) keep('one');
      else if (out['other'] !== undefined) out['one'] = out['other'];
      for (const k of ['zero', 'two', 'few', 'many']) if (k in args) dropped.push(k);
      break;
    }
    case 'length': {
      // A2UI's length is a bounds check; Weft splits it into minLength / maxLength.
      keep('value');
      const min = arg('min');
      const max = arg('max');
      if (min !== undefined && max === undefined) return mapped('minLength', { ...out, min });
      if (max !== undefined && min === undefined) return mapped('maxLength', { ...out, max });
      if (min !== undefined && max !== undefined) {
        ctx.notes.push(note('function-mapped', ctx.path, 'length with min and max became minLength (max dropped).', true));
        return { call: 'minLength', args: { ...out, min } };
      }
      return { call: 'length', args: out };
    }
    default:
      keep('value');
  }
  if (dropped.length > 0) {
    ctx.notes.push(note('function-mapped', ctx.path, `${name}: argument(s) ${dropped.join(', ')} have no Weft equivalent and were dropped.`, true));
  }
  return { call: name, args: out };

  function mapped(to: string, a: JsonObject): Json {
    ctx.notes.push(note('function-mapped', ctx.path, `length became ${to}.`, false));
    return { call: to, args: a };
  }
}

/** `"Hi ${/name}, ${rel}"` → parts; undefined when an interpolation is a function call. */
export function splitTemplate(tpl: string): Json[] | undefined {
  const parts: Json[] = [];
  let lit = '';
  let i = 0;
  while (i < tpl.length) {
    if (tpl[i] === '\\' && tpl.startsWith('${', i + 1)) {
      lit += '${';
      i += 3;
      continue;
    }
    if (tpl.startsWith('${', i)) {
      const close = tpl.indexOf('}', i + 2);
      if (close < 0) return undefined;
      const inner = tpl.slice(i + 2, close).trim();
      if (!/^\/?[A-Za-z0-9_~.\-]+(\/[A-Za-z0-9_~.\-]+)*$|^\/$/.test(inner)) return undefined;
      if (lit !== '') parts.push(lit);
      lit = '';
      parts.push({ path: absPath(inner) });
      i = close + 1;
      continue;
    }
    lit += tpl[i];
    i++;
  }
  if (lit !== '' || parts.length === 0) parts.push(lit);
  return parts;
}
