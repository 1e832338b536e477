// Weft bindings and named functions → A2UI Dynamic* values and basic-catalog function calls.
import type { Json } from '@weft/core';
import type { A2uiValue } from './a2ui-types.ts';
import { lookup, isObject } from './json-util.ts';
import { note } from './notes.ts';
import type { InteropNote } from './notes.ts';

export type DynKind = 'string' | 'number' | 'boolean' | 'any';

export interface ExportCtx { notes: InteropNote[]; path: string }

const DATE_FORMATS: Record<string, string> = {
  short: 'M/d/yy', medium: 'MMM d, yyyy', long: 'MMMM d, yyyy', iso: "yyyy-MM-dd'T'HH:mm:ss",
};

/** A literal, `{path}` or call → an A2UI Dynamic value of `kind`; undefined when impossible (noted). */
export function exportDynamic(v: Json | undefined, kind: DynKind, ctx: ExportCtx): A2uiValue | undefined {
  if (v === undefined) return undefined;
  if (isObject(v) && typeof v['path'] === 'string' && Object.keys(v).length === 1) return { path: v['path'] };
  if (isObject(v) && typeof v['call'] === 'string') return exportCall(v['call'], isObject(v['args']) ? v['args'] : {}, kind, ctx);
  switch (kind) {
    case 'string':
      if (typeof v === 'string') return v;
      if (typeof v === 'number' || typeof v === 'boolean') return String(v);
      break;
    case 'number':
      if (typeof v === 'number') return v;
      break;
    case 'boolean':
      if (typeof v === 'boolean') return v;
      break;
    case 'any':
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
      if (Array.isArray(v)) return v;
      break;
  }
  ctx.notes.push(note('value-invalid', ctx.path, `A ${v === null ? 'null' : typeof v} value has no A2UI ${kind} form; left out.`, true));
  return undefined;
}

function exportCall(name: string, args: { [k: string]: Json }, kind: DynKind, ctx: ExportCtx): A2uiValue | undefined {
  const unmapped = (why: string): undefined => {
    ctx.notes.push(note('function-unknown', ctx.path, `Function "${name}" ${why}; left out.`, true));
    return undefined;
  };
  const sub = (k: string, kk: DynKind): A2uiValue | undefined => exportDynamic(args[k], kk, { ...ctx, path: `${ctx.path}/args/${k}` });
  const dropArgs = (...ks: string[]): void => {
    const present = ks.filter((k) => k in args);
    if (present.length > 0) ctx.notes.push(note('function-mapped', ctx.path, `${name}: ${present.join(', ')} dropped (no A2UI equivalent).`, true));
  };
  const returns = (r: string): boolean => kind === 'any' || kind === r;
  const call = (c: string, a: { [k: string]: A2uiValue | undefined }, returnType: string): A2uiValue => {
    const clean: { [k: string]: A2uiValue } = {};
    for (const [k, x] of Object.entries(a)) if (x !== undefined) clean[k] = x;
    return { call: c, args: clean, returnType };
  };
  switch (name) {
    case 'concat': {
      if (!returns('string')) return unmapped(`returns a string, not a ${kind}`);
      const parts = Array.isArray(args['parts']) ? args['parts'] : [];
      let tpl = '';
      for (const p of parts) {
        if (isObject(p) && typeof p['path'] === 'string') tpl += `\${${p['path']}}`;
        else if (typeof p === 'string') tpl += p.replaceAll('${', '\\${');
        else if (typeof p === 'number' || typeof p === 'boolean') tpl += String(p);
        else return unmapped('has a nested call or object part, which formatString cannot hold');
      }
      return call('formatString', { value: tpl }, 'string');
    }
    case 'formatNumber':
      if (!returns('string')) return unmapped(`returns a string, not a ${kind}`);
      dropArgs('locale');
      return call('formatNumber', { value: sub('value', 'number'), decimals: sub('decimals', 'number') }, 'string');
    case 'formatCurrency':
      if (!returns('string')) return unmapped(`returns a string, not a ${kind}`);
      dropArgs('locale');
      return call('formatCurrency', { value: sub('value', 'number'), currency: sub('currency', 'string') }, 'string');
    case 'formatDate': {
      if (!returns('string')) return unmapped(`returns a string, not a ${kind}`);
      dropArgs('locale');
      const style = typeof args['style'] === 'string' ? args['style'] : 'medium';
      return call('formatDate', { value: sub('value', 'any'), format: lookup(DATE_FORMATS, style) ?? lookup(DATE_FORMATS, 'medium') }, 'string');
    }
    case 'pluralize':
      if (!returns('string')) return unmapped(`returns a string, not a ${kind}`);
      return call('pluralize', { value: sub('count', 'number'), one: sub('one', 'string'), other: sub('other', 'string') }, 'string');
    case 'required':
    case 'email':
      if (!returns('boolean')) return unmapped(`returns a boolean, not a ${kind}`);
      return call(name, { value: name === 'email' ? sub('value', 'string') : sub('value', 'any') }, 'boolean');
    case 'minLength':
    case 'maxLength': {
      if (!returns('boolean')) return unmapped(`returns a boolean, not a ${kind}`);
      const bound = name === 'minLength' ? 'min' : 'max';
      const b = args[bound];
      if (typeof b !== 'number') return unmapped(`needs a literal ${bound}`);
      return call('length', { value: sub('value', 'string'), [bound]: b }, 'boolean');
    }
    default:
      return unmapped('has no basic-catalog equivalent');
  }
}
