// The one registry of stable error codes (CONVENTIONS.md §5). Codes are never renamed.
// `shared/protocol` maps them to WebSocket close codes; `docs/errors.md` documents each one and a
// test checks the two agree. HTTP status lives here so that every door reports the same thing.

export const ErrorCode = {
  BAD_REQUEST: { status: 400, message: 'The request is not of the documented shape.' },
  MALFORMED_JSON: { status: 400, message: 'The body is not valid JSON.' },
  UNAUTHORIZED: { status: 401, message: 'No valid bearer token was given.' },
  FORBIDDEN: { status: 403, message: 'The token lacks the scope this needs.' },
  NOT_FOUND: { status: 404, message: 'No such draft, version or resource (or no access to it).' },
  SESSION_CLOSED: { status: 410, message: 'The build session was closed (or idled out); open a new one.' },
  VERSION_CONFLICT: { status: 409, message: 'baseVersion / expected version is not the current version.' },
  IDEMPOTENCY_CONFLICT: { status: 409, message: 'This opId was already used with a different body.' },
  UNDO_CONFLICT: { status: 409, message: 'Undo would overwrite a later change by someone else.' },
  NOTHING_TO_UNDO: { status: 409, message: 'There is no change of yours to undo (or redo).' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The body or update exceeds the size limit.' },
  VALIDATION_FAILED: { status: 422, message: 'The op was refused by validation; see path and rule.' },
  RATE_LIMITED: { status: 429, message: 'More than the allowed ops per second for this session.' },
  BUDGET_EXCEEDED: { status: 429, message: 'The turn used its op budget.' },
  FORGED_UPDATE: { status: 400, message: 'A Yjs update was malformed or claimed another client id.' },
  DOC_EPOCH_CHANGED: { status: 409, message: 'The document was compacted; reload it from the server.' },
  WEBHOOK_URL_REFUSED: { status: 422, message: 'The webhook URL is not allowed (scheme, credentials, or a non-public address); see reason.' },
  INTERNAL: { status: 500, message: 'An unexpected server error; nothing acknowledged was lost.' },
  UNAVAILABLE: { status: 503, message: 'A dependency (database) is unavailable; retry with the same opId.' },
} as const;
export type ErrorCode = keyof typeof ErrorCode;

/** Why an op was refused (`VALIDATION_FAILED`) or what a note is about: the `rule` field. */
export const Rule = {
  forbidden_segment: 'A path segment is __proto__, prototype or constructor.',
  invalid_pointer: 'The JSON Pointer is malformed.',
  path_not_found: 'The path does not exist in the draft.',
  invalid_op: 'The op is not an RFC 6902 operation of a known shape.',
  test_failed: 'A `test` op did not match.',
  invalid_section: 'The section is not of a known kind or shape.',
  unknown_catalog: 'The section names a catalog this server does not have (its components could not be judged).',
  missing_section: 'The op writes into a section that does not exist yet; held while a later op may add it.',
  invalid_surface: 'A surface fence in prose is not closed, has a bad info string or a line that is not one JSON value, or reuses a fence id.',
  invalid_id: 'An id does not match [a-z][a-z0-9-]{0,40} or does not match its key.',
  duplicate_id: 'The id is already used in this surface.',
  missing_root: 'The surface has no component with id "root".',
  missing_child: 'children names an id that is not in the surface.',
  double_parent: 'A component is the child of two parents.',
  cycle: 'children form a cycle.',
  too_deep: 'The tree is more than 8 levels deep.',
  unreachable: 'A component is not reachable from root.',
  children_not_allowed: 'The catalog entry does not take children (or not of that kind).',
  too_many_components: 'A surface may hold at most 200 components.',
  data_too_large: 'A surface data model may be at most 64 KB of JSON.',
  too_many_surfaces: 'A page may hold at most 30 surfaces.',
  invalid_props: 'Props do not pass the catalog entry schema.',
  invalid_binding: 'A binding is not { "path": "/json/pointer" } into the data model.',
  invalid_function: 'A function call names an unknown function or has wrong args.',
  invalid_condition: 'A visibility condition is not eq/ne/gt/lt/and/or/not of operands.',
  invalid_action: 'An action is not one of the named actions with its fields.',
  invalid_url: 'A URL is not http, https, mailto or an in-site path.',
  invalid_source: 'A data `$source` names an unknown source, has unknown query fields, a limit over 50, or is not a top-level data value.',
  value_too_large: 'A string, array, object or nesting exceeds the limits.',
  invalid_text: 'A string or key holds U+0000 or a lone UTF-16 surrogate, which the event log (JSON) cannot keep.',
  unknown_component: 'The component is not in the catalog; kept and flagged, rendered as a placeholder.',
  held_expired: 'A held step never became valid before the end of the step list.',
  // repair notes
  snapped_name: 'An unknown component or enum value was snapped to the nearest catalog entry.',
  filled_required: 'A missing required prop was filled from the catalog example.',
  dropped_prop: 'A prop the schema does not know was dropped.',
  rewrote_path: 'A positional or list-form path was rewritten to ids.',
  renamed_prop: 'A prop written under another name (an alias, or inline beside props) was moved to its catalog name.',
  coerced_value: 'A quoted number or boolean was read as the number or boolean the schema asks for.',
  rewrote_op: 'An op was rewritten to what it meant: a replace of a missing member as add, a redundant add to order as a passing test of it.',
  renamed_id: 'A camelCase or snake_case id was rewritten to kebab-case, everywhere the op names it.',
} as const;
export type Rule = keyof typeof Rule;

/**
 * What kind of failure a rule names (the Clay host's taxonomy, split by kind, not severity):
 * - `emission`: the op cannot be read as meant — its JSON, its op shape, a pointer's syntax or
 *   target, an id's spelling, the envelope of a section, component or binding, its text encoding.
 *   Nothing about the content was judged; the same intent written right passes. Ask again.
 * - `contract`: the op reads fine and what it asks for breaks the catalog (props, functions,
 *   conditions, actions, URLs, sources, children), the tree rules, the limits, the draft's state
 *   (a taken id, a failed test) or a safety rule. Final: asking again until it behaves would hide
 *   what the model cannot do.
 */
export type RefusalKind = 'emission' | 'contract';

/** Every rule's kind, exhaustive over `Rule` (a new rule does not compile until it is classified).
 *  Repair notes name emission defects that were put right; `unknown_component` is content outside
 *  the catalog, kept and flagged. */
export const RULE_KIND = {
  forbidden_segment: 'contract',
  invalid_pointer: 'emission',
  path_not_found: 'emission',
  invalid_op: 'emission',
  test_failed: 'contract',
  invalid_section: 'emission',
  // Written before its section: the same op sent after it passes, so the model is asked again.
  missing_section: 'emission',
  // A catalog this server does not have: its components cannot be judged, so asking again for the
  // same surface changes nothing (the catalog id must change).
  unknown_catalog: 'contract',
  invalid_surface: 'emission',
  invalid_id: 'emission',
  duplicate_id: 'contract',
  missing_root: 'contract',
  missing_child: 'contract',
  double_parent: 'contract',
  cycle: 'contract',
  too_deep: 'contract',
  unreachable: 'contract',
  children_not_allowed: 'contract',
  too_many_components: 'contract',
  data_too_large: 'contract',
  too_many_surfaces: 'contract',
  invalid_props: 'contract',
  invalid_binding: 'emission',
  invalid_function: 'contract',
  invalid_condition: 'contract',
  invalid_action: 'contract',
  invalid_url: 'contract',
  invalid_source: 'contract',
  value_too_large: 'contract',
  invalid_text: 'emission',
  unknown_component: 'contract',
  held_expired: 'contract',
  snapped_name: 'emission',
  filled_required: 'emission',
  dropped_prop: 'emission',
  rewrote_path: 'emission',
  renamed_prop: 'emission',
  coerced_value: 'emission',
  rewrote_op: 'emission',
  renamed_id: 'emission',
} as const satisfies Record<Rule, RefusalKind>;

/** The kind of a rule; undefined for a string that is not a rule (own keys only). */
export function ruleKind(rule: unknown): RefusalKind | undefined {
  return typeof rule === 'string' && Object.hasOwn(RULE_KIND, rule) ? RULE_KIND[rule as Rule] : undefined;
}

/** A refusal as every door reports it. `path` is a JSON Pointer into the draft (or the op). */
export interface Refusal {
  code: 'VALIDATION_FAILED';
  rule: Rule;
  /** `RULE_KIND[rule]`: whether to ask the model again (emission) or not (contract). */
  kind: RefusalKind;
  path: string;
  message: string;
  /** Index of the op in the submitted list. */
  index: number;
}

/** A refusal of rule `rule` at `path` for the op at `index` (the one way to make one). */
export function refusalOf(rule: Rule, path: string, message: string, index: number): Refusal {
  return { code: 'VALIDATION_FAILED', rule, kind: RULE_KIND[rule], path, message, index };
}

/** A repair or a flag, always reported, never silent. */
export interface Note {
  rule: Rule;
  path: string;
  message: string;
  index: number;
}

/** The error payload every HTTP error and WebSocket refusal carries (survives JSON). */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  path?: string;
  /** With `VALIDATION_FAILED` and a `rule`: that rule's kind. */
  kind?: RefusalKind;
  [key: string]: unknown;
}

export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };
export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const err = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });
