// Named actions (Button.onClick, Form.onSubmit). Never snapped by repair (RFC open question 3).
import type { ActionName } from './draft.ts';
import { ACTION_NAMES } from './draft.ts';
import { checkBinding, checkOperand, isBinding } from './bindings.ts';
import { isValidId } from './limits.ts';
import { parsePointer } from './pointer.ts';
import type { Problem } from './problem.ts';
import { isAllowedUrl, urlPolicyText } from './url.ts';

type FieldKind = 'pointer' | 'value' | 'number' | 'url' | 'bindable-string' | 'string' | 'id';
export interface ActionSpec {
  name: ActionName;
  description: string;
  fields: Readonly<Record<string, { required: boolean; kind: FieldKind }>>;
}

export const ACTION_SPECS: Readonly<Record<ActionName, ActionSpec>> = {
  set: { name: 'set', description: 'Sets a data path to a literal or another path.', fields: { path: { required: true, kind: 'pointer' }, value: { required: true, kind: 'value' } } },
  toggle: { name: 'toggle', description: 'Flips a boolean at a data path.', fields: { path: { required: true, kind: 'pointer' } } },
  increment: { name: 'increment', description: 'Adds `by` (default 1) to a number.', fields: { path: { required: true, kind: 'pointer' }, by: { required: false, kind: 'number' } } },
  reset: { name: 'reset', description: 'Restores the initial data (or one path).', fields: { path: { required: false, kind: 'pointer' } } },
  navigate: { name: 'navigate', description: 'Goes to a safe URL.', fields: { href: { required: true, kind: 'url' } } },
  copy: { name: 'copy', description: 'Copies text to the clipboard.', fields: { text: { required: true, kind: 'bindable-string' } } },
  share: { name: 'share', description: 'Web Share, falling back to copy.', fields: { text: { required: false, kind: 'string' }, href: { required: false, kind: 'url' } } },
  scrollTo: { name: 'scrollTo', description: 'Scrolls to a component of the surface.', fields: { target: { required: true, kind: 'id' } } },
};

export function checkAction(a: unknown, at: string): Problem | null {
  const bad = (m: string): Problem => ({ rule: 'invalid_action', path: at, message: m });
  if (a === null || typeof a !== 'object' || Array.isArray(a)) return bad(`action at "${at}" must be an object like {"action":"set","path":"/p","value":1}`);
  const o = a as Record<string, unknown>;
  const name = o['action'];
  if (typeof name !== 'string' || !Object.hasOwn(ACTION_SPECS, name)) {
    return bad(`unknown action ${JSON.stringify(name)} at "${at}"; use one of ${ACTION_NAMES.join(', ')}`);
  }
  const spec = ACTION_SPECS[name as ActionName];
  for (const k of Object.keys(o)) {
    if (k !== 'action' && !Object.hasOwn(spec.fields, k)) return bad(`action "${name}" has no field "${k}"; its fields are ${Object.keys(spec.fields).join(', ') || 'none'}`);
  }
  for (const [f, s] of Object.entries(spec.fields)) {
    const v = o[f];
    const here = `${at}/${f}`;
    if (v === undefined) {
      if (s.required) return bad(`action "${name}" needs "${f}"`);
      continue;
    }
    switch (s.kind) {
      case 'pointer': {
        if (typeof v !== 'string') return bad(`"${f}" of action "${name}" must be a JSON Pointer string`);
        const p = parsePointer(v);
        if (!p.ok) return { rule: p.error.rule, path: here, message: p.error.message };
        break;
      }
      case 'value':
        if (isBinding(v)) {
          const p = checkBinding(v, here);
          if (p) return p;
        }
        break;
      case 'number':
        if (typeof v !== 'number') return bad(`"${f}" of action "${name}" must be a number`);
        break;
      case 'url':
        if (typeof v !== 'string' || !isAllowedUrl(v, 'url')) return { rule: 'invalid_url', path: here, message: `"${f}" of action "${name}" must be ${urlPolicyText('url')}` };
        break;
      case 'bindable-string': {
        if (typeof v === 'string') break;
        const p = checkOperand(v, here);
        if (p) return p;
        if (typeof v !== 'object' || v === null) return bad(`"${f}" of action "${name}" must be a string or a binding`);
        break;
      }
      case 'string':
        if (typeof v !== 'string') return bad(`"${f}" of action "${name}" must be a string`);
        break;
      case 'id':
        if (!isValidId(v)) return bad(`"${f}" of action "${name}" must be a component id`);
        break;
    }
  }
  return null;
}
