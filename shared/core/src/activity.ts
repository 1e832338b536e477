// Observable activity on a draft (the builder-relay seed's contract): a concise account of
// actions, statuses and results, never chain-of-thought. Agents report `validation`,
// `operation` and `agent` entries; `request` and `persistence` are the system's own. Pure: the
// input check is one ajv schema run with allErrors, so a bad report gets EVERY problem at once.
import { Ajv } from 'ajv';
import type { ErrorObject } from 'ajv';
import { escapeSegment } from './pointer.ts';
import { storable, unstorableMessage } from './text.ts';

export const ACTIVITY_KINDS = ['request', 'validation', 'operation', 'persistence', 'agent'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
/** What an agent may report; the other kinds are recorded by the system where it owns the event. */
export const REPORTABLE_KINDS = ['validation', 'operation', 'agent'] as const;
export type ReportableKind = (typeof REPORTABLE_KINDS)[number];
export const ACTIVITY_STATUSES = ['queued', 'active', 'done', 'error'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

export const ActivityLimits = {
  /** Characters (code points) of a label, after trimming. */
  label: 120,
  detail: 500,
  /** Entries kept per draft: the newest. */
  keep: 120,
} as const;

/** One entry as stored and streamed. `id` is the store's, `at` epoch milliseconds. */
export interface Activity {
  id: string;
  kind: ActivityKind;
  status: ActivityStatus;
  label: string;
  detail?: string;
  at: number;
  /** Who reported it: the token's actor id, or "weft" for the system's own entries. */
  actor: string;
}

/** What an agent sends (strict: no other fields). */
export interface ActivityInput {
  kind: ReportableKind;
  status: ActivityStatus;
  label: string;
  detail?: string;
}

/** One problem of a report: a JSON Pointer into the report and what to do. */
export interface ActivityProblem { path: string; message: string }

/** The report's JSON Schema (also what the MCP tool advertises). */
export const ACTIVITY_INPUT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'status', 'label'],
  properties: {
    kind: { enum: [...REPORTABLE_KINDS] },
    status: { enum: [...ACTIVITY_STATUSES] },
    // \S: non-blank (the label is trimmed before the check).
    label: { type: 'string', minLength: 1, maxLength: ActivityLimits.label, pattern: '\\S' },
    detail: { type: 'string', maxLength: ActivityLimits.detail },
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: true, unicodeRegExp: true }).compile(ACTIVITY_INPUT_SCHEMA);

function describe(e: ErrorObject): ActivityProblem {
  switch (e.keyword) {
    case 'additionalProperties': {
      const k = String((e.params as { additionalProperty: string }).additionalProperty);
      const why = k === 'chainOfThought' || /reason|thought|thinking|scratch/i.test(k) ? ' (activity is what was observably done, never reasoning)' : '';
      return { path: `/${escapeSegment(k)}`, message: `unknown field "${k}"${why}; a report has kind, status, label and detail only` };
    }
    case 'required': {
      const k = String((e.params as { missingProperty: string }).missingProperty);
      return { path: `/${k}`, message: `"${k}" is required` };
    }
    case 'enum':
      return { path: e.instancePath, message: e.instancePath === '/kind'
        ? `kind must be one of ${REPORTABLE_KINDS.join(', ')} (request and persistence are recorded by the system)`
        : `status must be one of ${ACTIVITY_STATUSES.join(', ')}` };
    case 'maxLength':
      return { path: e.instancePath, message: `${e.instancePath.slice(1)} is longer than ${(e.params as { limit: number }).limit} characters` };
    case 'minLength':
    case 'pattern':
      return { path: e.instancePath, message: 'label must not be blank' };
    case 'type':
      return { path: e.instancePath, message: e.instancePath === '' ? 'a report is a JSON object {kind, status, label, detail?}' : `${e.instancePath.slice(1)} must be a string` };
    default:
      return { path: e.instancePath, message: e.message ?? 'is invalid' };
  }
}

/** Text the log cannot keep (U+0000, a lone surrogate) is refused by name, not stored mangled. */
const badText = (v: unknown): boolean => typeof v === 'string' && !storable(v);

/**
 * Checks a report. Strings are trimmed first; a valid one comes back trimmed. Every problem is
 * listed (the pointer of each field and what to do); nothing is kept of an invalid report.
 */
export function parseActivityInput(raw: unknown): { ok: true; value: ActivityInput } | { ok: false; errors: ActivityProblem[] } {
  let v = raw;
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    for (const k of ['label', 'detail']) if (typeof o[k] === 'string') o[k] = (o[k] as string).trim();
    v = o;
  }
  const errors: ActivityProblem[] = [];
  if (!validate(v)) {
    for (const e of validate.errors ?? []) {
      const p = describe(e);
      // A blank label fails minLength and pattern: say it once.
      if (!errors.some((x) => x.path === p.path && x.message === p.message)) errors.push(p);
    }
  }
  if (v !== null && typeof v === 'object') {
    for (const k of ['label', 'detail']) {
      if (Object.hasOwn(v, k) && badText((v as Record<string, unknown>)[k])) errors.push({ path: `/${k}`, message: unstorableMessage(k) });
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  const o = v as Record<string, unknown>;
  const value: ActivityInput = { kind: o['kind'] as ReportableKind, status: o['status'] as ActivityStatus, label: o['label'] as string };
  if (typeof o['detail'] === 'string' && o['detail'] !== '') value.detail = o['detail'];
  return { ok: true, value };
}

/** A system entry's text clipped to the limits (labels are built from names and counts). */
export function clipActivityText(s: string, max: number): string {
  const cps = [...s];
  return cps.length <= max ? s : `${cps.slice(0, max - 1).join('')}…`;
}
