// The v1 HTTP bodies as zod schemas: the one source of request validation and of the OpenAPI
// document's components (`.meta({ id })` names a component). Responses are documented here and
// checked against what the routes really answer by test/openapi.int.test.ts. Error bodies are
// generated from the routes' error codes (openapi.ts).
import { Rule, RULE_KIND, storable } from '@weft/core';
import { RUN_ID, RunLimits } from '@weft/protocol';
import type { RunScope as RunScopeValue } from '@weft/protocol';
import type { Json } from '@weft/core';
import { z } from 'zod';
import { OP_ID } from '../commands/submit.ts';

export const DRAFT_ID = /^[a-z][a-z0-9-]{0,40}$/;
const ACTOR_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
const SCOPE_KEY = /^(\*|[a-z][a-z0-9-]{0,40})$/;

const jsonValue: z.ZodType<Json> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]))
  .meta({ id: 'JsonValue', description: 'Any JSON value.' });
const Version = z.int().min(0).meta({ description: 'A draft version: 0 is the empty draft, each committed step adds one.' });

/** A version as written in a URL or header: digits only (Number() also reads '' as 0, '0x2' as 2, and rounds past 2^53). */
export function asVersion(v: string): number | null {
  const n = /^[0-9]{1,16}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) ? n : null;
}

/** A query parameter that is a non-negative integer (`?version=3`); the message names it. */
export function versionParam(name: string, description: string) {
  return z.string().transform((v, c) => {
    const n = asVersion(v);
    if (n !== null) return n;
    c.addIssue({ code: 'custom', message: `${name} must be a non-negative integer (digits only, at most ${Number.MAX_SAFE_INTEGER}).` });
    return z.NEVER;
  }).meta({ description, pattern: '^[0-9]+$' });
}

// ---- the draft and its log ------------------------------------------------------------------

export const RuleName = z.enum(Object.keys(Rule) as [keyof typeof Rule, ...(keyof typeof Rule)[]]).meta({ id: 'Rule', description: 'docs/errors.md: why an op was refused, or what a note is about.' });
const Pointer = z.string().meta({ description: 'A JSON Pointer (RFC 6901).' });

export const Op = z.object({
  op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
  path: Pointer,
  value: jsonValue.optional(),
  from: Pointer.optional(),
}).meta({ id: 'Op', description: 'An RFC 6902 operation as applied (after repair).' });

export const Note = z.object({ rule: RuleName, path: Pointer, message: z.string(), index: z.int().min(0) })
  .meta({ id: 'Note', description: 'A repair or flag on the op at `index` of the submitted list.' });

/** `RULE_KIND`'s values (`@weft/core`), so a third kind there is a third kind here. */
const KINDS = [...new Set(Object.values(RULE_KIND))] as [(typeof RULE_KIND)[Rule], ...(typeof RULE_KIND)[Rule][]];
export const RefusalKind = z.enum(KINDS).meta({
  id: 'RefusalKind',
  description: '`emission`: the op could not be read as meant; the same intent written right passes (ask again). `contract`: it breaks the catalog, the tree rules, the limits, the draft\'s state or a safety rule (final). docs/errors.md, "Kind".',
});

export const Refusal = z.object({ code: z.literal('VALIDATION_FAILED'), rule: RuleName, kind: RefusalKind, path: Pointer, message: z.string(), index: z.int().min(0) })
  .meta({ id: 'Refusal', description: 'An op the pipeline refused (the others of its step still apply); `kind` is `RULE_KIND[rule]`.' });

/** A refusal as the log kept it: steps logged before refusals had a kind carry only `rule` (`ruleKind(rule)` gives it). */
export const LoggedRefusal = Refusal.extend({ kind: RefusalKind.optional() })
  .meta({ id: 'LoggedRefusal', description: 'A refusal of a logged step; `kind` is absent on steps logged before refusals had one (`RULE_KIND[rule]` gives it).' });

export const Draft = z.looseObject({
  id: z.string(),
  title: z.string(),
  order: z.array(z.string()).meta({ description: 'Section ids, top to bottom.' }),
  sections: z.record(z.string(), z.looseObject({ id: z.string(), kind: z.literal('surface'), catalog: z.string() })),
}).meta({ id: 'Draft', description: 'The id-keyed page draft (ARCHITECTURE.md): sections of A2UI components.' });

export const DraftResponse = z.object({ id: z.string(), version: Version, epoch: z.int().min(0), draft: Draft }).meta({ id: 'DraftResponse' });

export const DraftMeta = z.object({
  id: z.string(), title: z.string(), createdBy: z.string(), createdAt: z.iso.datetime(), headVersion: Version, epoch: z.int().min(0),
}).meta({ id: 'DraftMeta' });

export const StepResult = z.object({
  version: Version,
  applied: z.array(Op),
  repairs: z.array(Note),
  refused: z.array(Refusal),
  held: z.array(Refusal).optional().meta({ description: 'Ops of this submission waiting for their section (rule missing_section), to come in a later submission of the same turn: applied in that step, or refused (a weft.refused event) when the turn finishes.' }),
  replayed: z.boolean().optional().meta({ description: 'true when this opId was committed before: the original answer.' }),
}).meta({ id: 'StepResult' });

export const UndoResult = StepResult.extend({ undid: z.array(Version).meta({ description: 'The versions undone (or redone).' }) }).meta({ id: 'UndoResult' });

export const StepView = z.object({
  version: Version,
  opId: z.string(),
  actor: z.string(),
  actorKind: z.enum(['human', 'agent', 'admin']),
  sessionId: z.string().nullable(),
  turnId: z.string().nullable(),
  ops: z.array(Op),
  notes: z.array(Note),
  refused: z.array(LoggedRefusal),
  createdAt: z.iso.datetime(),
}).meta({ id: 'StepView', description: 'A logged step (one version).' });

export const EventsPage = z.object({
  steps: z.array(StepView),
  next: Version.nullable().meta({ description: 'Pass as `after` for the next page; null at the head.' }),
  head: Version,
}).meta({ id: 'EventsPage' });

export const VersionEntry = z.object({
  version: Version,
  kind: z.enum(['snapshot', 'turn']),
  at: z.iso.datetime(),
  turnId: z.string().nullable().optional(),
  actor: z.string().optional(),
  reason: z.string().optional(),
}).meta({ id: 'VersionEntry' });

// ---- request bodies ---------------------------------------------------------------------------

// Request bodies are strict: a misspelt field (`titel`, `ttl`) is a 400 naming it, not silently dropped.
export const CreateDraftBody = z.strictObject({
  id: z.string({ error: 'id must match [a-z][a-z0-9-]{0,40}.' }).regex(DRAFT_ID, { error: 'id must match [a-z][a-z0-9-]{0,40}.' }).optional()
    .meta({ description: 'Default: `d-` and 8 random hex digits.' }),
  title: z.string({ error: 'title must be a string of at most 500 characters.' }).max(500, { error: 'title must be a string of at most 500 characters.' }).nullish(),
}, { error: 'Send { "id"?: string, "title"?: string }.' }).meta({ id: 'CreateDraftBody' });

const scopesMessage = 'Scopes are a list of "read" and "write".';
const scopeKeyMessage = (k: unknown): string => `Scope key "${String(k)}" must be a draft id or "*".`;
const tokenShape = 'Send { "actor": { "id", "kind": "human"|"agent" }, "scopes": { "<draftId>"|"*": ["read","write"] }, "name"?, "ttlSeconds"? }.';

/** A record zod reads from own keys, except that it skips `__proto__`: refused here, not dropped silently. */
const refuseProtoKey = (v: unknown, c: z.core.$RefinementCtx): unknown => {
  if (typeof v === 'object' && v !== null && Object.hasOwn(v, '__proto__')) c.addIssue({ code: 'custom', message: scopeKeyMessage('__proto__'), path: ['__proto__'] });
  return v;
};

export const MintTokenBody = z.strictObject({
  actor: z.strictObject({
    id: z.string({ error: 'actor.id must be 1–128 characters of [A-Za-z0-9._:@-].' }).regex(ACTOR_ID, { error: 'actor.id must be 1–128 characters of [A-Za-z0-9._:@-].' })
      // The admin token's actor: a minted token named so would write, and undo, as the admin in the log.
      .refine((id) => id !== 'admin', { error: 'actor.id "admin" is the admin token\'s own; pick another id.' }),
    kind: z.enum(['human', 'agent'], { error: 'actor.kind must be "human" or "agent".' }),
  }, { error: tokenShape }),
  scopes: z.preprocess(refuseProtoKey, z.record(
    z.string().regex(SCOPE_KEY, { error: (i) => scopeKeyMessage(i.input) }),
    // write implies read: a writer always sees what it writes.
    z.array(z.enum(['read', 'write'], { error: scopesMessage }), { error: scopesMessage }).transform((v): ('read' | 'write')[] => (v.includes('write') ? ['read', 'write'] : ['read'])),
    { error: tokenShape },
  )).meta({ description: '`{ "<draftId>"|"*": ["read","write"] }`; write implies read.' }),
  name: z.string({ error: 'name must be a string.' }).optional().meta({ description: 'A label (first 200 characters kept); default the actor id.' }),
  ttlSeconds: z.int({ error: 'ttlSeconds must be a positive integer.' }).positive({ error: 'ttlSeconds must be a positive integer.' }).optional(),
}, { error: tokenShape }).meta({ id: 'MintTokenBody' });

export const UndoBody = z.object({
  scope: z.enum(['step', 'turn']).optional().catch(undefined).meta({ description: 'Default `step`: the caller\'s last step; `turn`: its last turn.' }),
  opId: z.string().regex(OP_ID).optional().catch(undefined).meta({ description: 'Idempotency key; otherwise one is made.' }),
}).catch({}).meta({ id: 'UndoBody' });

// ---- small answers ----------------------------------------------------------------------------

export const Created = z.object({ id: z.string(), version: Version });
export const MintedToken = z.object({ token: z.string().meta({ description: 'The secret, shown once (`wft_…`).' }), id: z.string().meta({ description: 'Its id, to revoke it.' }) }).meta({ id: 'MintedToken' });
export const Health = z.object({
  ok: z.boolean(), db: z.boolean(), bus: z.boolean(), rooms: z.int().min(0),
  node: z.string().optional(), ownedDrafts: z.int().min(0).optional(),
});
export const Readiness = z.object({ ok: z.boolean(), service: z.string(), checks: z.record(z.string(), z.boolean()) });

// ---- agent runs (docs/api.md "Agent runs") --------------------------------------------------------

const SECTION_OR_COMPONENT_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,100}$/;
const briefMessage = `brief must be a non-empty string of at most ${RunLimits.briefChars} characters.`;
const scopeMessage = 'scope must be { sectionId, componentId? }.';
const isPlainObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

const RunScopeBody = z.object({
  sectionId: z.string({ error: scopeMessage }).regex(SECTION_OR_COMPONENT_ID, { error: scopeMessage }),
  componentId: z.string({ error: 'scope.componentId must be a component id.' }).regex(SECTION_OR_COMPONENT_ID, { error: 'scope.componentId must be a component id.' }).optional(),
}).meta({ description: 'The section (and component) the brief is about; other keys are dropped.' });
/** The scope as a run answers it (the body's, without what was dropped). */
const RunScope = z.object({ sectionId: z.string(), componentId: z.string().optional() }).meta({ id: 'RunScope', description: 'The section (and component) the brief is about.' });

/**
 * `POST /v1/drafts/:id/runs`. The first problem answers (shape order = the order it is checked in):
 * runId, brief, model, scope — a scope that is not an object is reported at /scope/sectionId —
 * then the text encoding of brief and model (only once the rest is well-formed).
 */
export const CreateRunBody = z.strictObject({
  runId: z.string({ error: 'runId must be an id (letters, digits, _ . : -).' }).regex(RUN_ID, { error: 'runId must be an id (letters, digits, _ . : -).' })
    .meta({ description: 'The run id, chosen by the agent; also the turn id of its steps.' }),
  brief: z.string({ error: briefMessage }).refine((b) => b.trim() !== '' && b.length <= RunLimits.briefChars, { error: briefMessage })
    .meta({ description: `What to build (kept trimmed), at most ${RunLimits.briefChars} characters.` }),
  model: z.string({ error: 'model must be a name of at most 200 characters.' }).max(200, { error: 'model must be a name of at most 200 characters.' }).nullish(),
  scope: z.preprocess((v) => (v === undefined || v === null || isPlainObject(v) ? v : {}), RunScopeBody.nullish()),
}, { error: 'Send { "runId", "brief", "scope"?, "model"? }.' })
  // NUL and lone surrogates cannot be kept (jsonb, text): refused as the log refuses them.
  .superRefine((b, c) => {
    const at = !storable(b.brief) ? 'brief' : typeof b.model === 'string' && !storable(b.model) ? 'model' : null;
    if (at) c.addIssue({ code: 'custom', message: 'brief and model must be well-formed Unicode without U+0000.', path: [at] });
  })
  .transform((b): { runId: string; brief: string; scope: RunScopeValue | null; model: string | null } => ({
    runId: b.runId, brief: b.brief.trim(), model: b.model ?? null,
    scope: b.scope ? { sectionId: b.scope.sectionId, ...(b.scope.componentId !== undefined ? { componentId: b.scope.componentId } : {}) } : null,
  }))
  .meta({ id: 'CreateRunBody' });

const AgUiEvent = z.looseObject({ type: z.string() })
  .meta({ id: 'AgUiEvent', description: 'An AG-UI 1.0 event (docs/api.md, "Live stream"), with `metadata.weft.{ runId, seq }`.' });

/**
 * `POST /v1/drafts/:id/runs/:runId/events`, as documented. The route checks it with
 * `parseReportedEvents` (@weft/protocol), which lists every problem of a report (`errors[]`)
 * where a schema answers the first: the shape is stated here, the check stays there.
 */
export const ReportEventsBody = z.object({
  events: z.array(AgUiEvent.meta({ id: undefined, description: 'TEXT_MESSAGE_START/CONTENT/END, TOOL_CALL_START/ARGS/END/RESULT, STEP_STARTED/FINISHED, CUSTOM weft.ghost, and last RUN_FINISHED { result?, outcome? } or RUN_ERROR { message, code? }; every field checked.' }))
    .max(RunLimits.eventsPerReport),
}).meta({ id: 'ReportEventsBody' });

export const ReportEventsResult = z.object({
  seq: z.int().min(0).meta({ description: 'The run\'s last event number.' }),
  cancel: z.boolean().meta({ description: 'Someone pressed Stop: end the run.' }),
  summary: z.record(z.string(), z.number()).nullable().meta({ description: 'The turn\'s counts once the run ended.' }),
}).meta({ id: 'ReportEventsResult' });

export const RunView = z.object({
  runId: z.string(), draftId: z.string(), actor: z.string(),
  status: z.enum(['running', 'done', 'failed', 'cancelled']),
  brief: z.string(), scope: RunScope.nullable(), model: z.string().nullable(),
  startedAt: z.iso.datetime(), finishedAt: z.iso.datetime().nullable(),
  result: jsonValue.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  cancelRequested: z.boolean().meta({ description: 'Someone asked to stop it (the agent ends it at its next report).' }),
}).meta({ id: 'RunView' });

export const RunWithEvents = RunView.extend({ events: z.array(AgUiEvent).meta({ description: 'The transcript: complete messages and steps merged, ghosts never kept.' }) }).meta({ id: 'RunWithEvents' });

// ---- export -------------------------------------------------------------------------------------

export const ExportedReact = z.object({
  draftId: z.string(), version: Version, format: z.literal('react'),
  files: z.array(z.object({ path: z.string(), mimeType: z.string(), text: z.string() })).meta({ description: '`Page.tsx`, `weft.css`, `weft-runtime.js`.' }),
  notes: z.array(z.object({
    componentId: z.string(), sectionId: z.string(), rule: RuleName, message: z.string(), severity: z.enum(['broken', 'approximate']),
  })).meta({ description: 'What the export could not carry over as it is (a component approximated or left out).' }),
}).meta({ id: 'ExportedReact' });
