// Actions become data attributes for the first-party runtime: never an inline handler. Only the
// known fields of each named action are kept, and URLs in them pass the URL policy first.

import { ACTION_NAMES } from '@weft/core';
import type { Json, JsonObject } from '@weft/core';
import type { Comp } from './comp.ts';
import { attr } from './escape.ts';

export interface CleanAction {
  name: string;
  action: JsonObject;
  /** The navigate target (checked), for rendering the control as a link. */
  href?: string;
}

const FIELDS: Readonly<Record<string, readonly string[]>> = {
  set: ['path', 'value'],
  toggle: ['path'],
  increment: ['path', 'by'],
  reset: ['path'],
  navigate: ['href'],
  copy: ['text'],
  share: ['text', 'href'],
  scrollTo: ['target'],
};

export function cleanAction(c: Comp, prop: string): CleanAction | undefined {
  const raw = c.raw(prop);
  if (raw === undefined || raw === null) return undefined;
  const name = typeof raw === 'object' && !Array.isArray(raw) ? raw['action'] : undefined;
  if (typeof raw !== 'object' || Array.isArray(raw) || typeof name !== 'string' || !(ACTION_NAMES as readonly string[]).includes(name)) {
    c.note('invalid_action', `${prop} is not one of the named actions; the control does nothing`);
    return undefined;
  }
  const action: JsonObject = { action: name };
  let href: string | undefined;
  for (const field of FIELDS[name] ?? []) {
    if (!Object.hasOwn(raw, field)) continue;
    const v: Json | undefined = raw[field];
    if (v === undefined) continue;
    if (field === 'href') {
      const checked = c.checkUrl(v, 'link', `${prop}.href`);
      if (checked === undefined) continue;
      action[field] = checked;
      href = checked;
    } else {
      action[field] = v;
    }
  }
  if (name === 'navigate' && href === undefined) return undefined;
  c.scope.logic.live = true;
  return href !== undefined && name === 'navigate' ? { name, action, href } : { name, action };
}

/** ` data-weft-action="…" data-weft-action-json="…"` */
export function actionAttrs(a: CleanAction | undefined): string {
  return a === undefined ? '' : `${attr('data-weft-action', a.name)}${attr('data-weft-action-json', JSON.stringify(a.action))}`;
}
