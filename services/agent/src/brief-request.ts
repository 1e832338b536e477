// The "ask the agent about this" request: its shape, and the brief the model sees — the
// person's words plus the scoped part (its JSON Pointer and current JSON), so the model changes
// only that part unless the brief clearly asks for more. Pure: no I/O.
import type { Draft } from '@weft/core';

export interface BriefScope { sectionId: string; componentId?: string }
export interface BriefRequest { draftId: string; brief: string; scope?: BriefScope }

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,100}$/;
const MAX_BRIEF = 4000;

export function parseBriefRequest(body: unknown): { ok: true; value: BriefRequest } | { ok: false; error: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: 'The body must be a JSON object { draftId, brief, scope? }.' };
  const b = body as Record<string, unknown>;
  if (typeof b['draftId'] !== 'string' || !ID.test(b['draftId'])) return { ok: false, error: '/draftId must be a draft id.' };
  if (typeof b['brief'] !== 'string' || b['brief'].trim() === '') return { ok: false, error: '/brief must be a non-empty string.' };
  if (b['brief'].length > MAX_BRIEF) return { ok: false, error: `/brief is longer than ${MAX_BRIEF} characters.` };
  const out: BriefRequest = { draftId: b['draftId'], brief: b['brief'].trim() };
  const s = b['scope'];
  if (s !== undefined && s !== null) {
    if (typeof s !== 'object' || Array.isArray(s)) return { ok: false, error: '/scope must be { sectionId, componentId? }.' };
    const sc = s as Record<string, unknown>;
    if (typeof sc['sectionId'] !== 'string' || !ID.test(sc['sectionId'])) return { ok: false, error: '/scope/sectionId must be a section id.' };
    if (sc['componentId'] !== undefined && (typeof sc['componentId'] !== 'string' || !ID.test(sc['componentId']))) return { ok: false, error: '/scope/componentId must be a component id.' };
    out.scope = { sectionId: sc['sectionId'], ...(typeof sc['componentId'] === 'string' ? { componentId: sc['componentId'] } : {}) };
  }
  return { ok: true, value: out };
}

/** RFC 6901 escaping of one segment. */
const seg = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

export function scopePointer(scope: BriefScope): string {
  return `/sections/${seg(scope.sectionId)}${scope.componentId ? `/components/${seg(scope.componentId)}` : ''}`;
}

/** The scoped part as it is now, or null when the draft no longer has it (own keys only: a
 *  scope "constructor" is no part). */
export function scopedPart(draft: Draft, scope: BriefScope): unknown {
  const s = Object.hasOwn(draft.sections, scope.sectionId) ? draft.sections[scope.sectionId] : undefined;
  if (!s) return null;
  if (!scope.componentId) return s;
  return Object.hasOwn(s.components, scope.componentId) ? s.components[scope.componentId]! : null;
}

/** Why a scope cannot be used on this draft (RFC 20c: "the API refuses a scope that is not on
 *  the page (400) before the model runs"), with the pointer of the field to fix; null if it can. */
export function scopeProblem(draft: Draft, scope: BriefScope | undefined): { path: string; message: string } | null {
  if (!scope || scopedPart(draft, scope) !== null) return null;
  const onPage = Object.hasOwn(draft.sections, scope.sectionId);
  if (!onPage) return { path: '/scope/sectionId', message: `The draft has no section "${scope.sectionId}" (sections: ${draft.order.join(', ') || 'none'}); pick a part that is on the page, or clear the scope.` };
  return { path: '/scope/componentId', message: `Section "${scope.sectionId}" has no component "${scope.componentId}"; pick a part that is on the page, or clear the scope.` };
}

const MAX_PART_JSON = 12_000;

/** The brief as the model reads it. Without a scope it is the person's brief unchanged. */
export function scopedBrief(brief: string, draft: Draft, scope: BriefScope | undefined): string {
  if (!scope) return brief;
  const pointer = scopePointer(scope);
  const part = scopedPart(draft, scope);
  let json = part === null ? '(not in the draft now)' : JSON.stringify(part, null, 1);
  if (json.length > MAX_PART_JSON) json = `${json.slice(0, MAX_PART_JSON)}\n… (cut)`;
  const what = scope.componentId ? `the component "${scope.componentId}" of section "${scope.sectionId}"` : `the section "${scope.sectionId}"`;
  return [
    brief,
    '',
    `Scope: this brief is about ${what}, at JSON Pointer ${pointer}.`,
    `Change only that part (paths under ${pointer}${scope.componentId ? `, and /sections/${seg(scope.sectionId)}/data when the part binds to it` : ''}) unless the brief clearly asks for more.`,
    `Its current JSON:`,
    json,
  ].join('\n');
}
