// The v1 HTTP bodies as zod schemas: the one source of request validation and of the OpenAPI
// document's components (`.meta({ id })` names a component). Responses are documented here and
// checked against what the routes really answer by test/openapi.int.test.ts. Error bodies are
// generated from the routes' error codes (openapi.ts).
import { Rule } from '@weft/core';
import type { Json } from '@weft/core';
import { z } from 'zod';
import { OP_ID } from '../commands/submit.ts';

export const DRAFT_ID = /^[a-z][a-z0-9-]{0,40}$/;
const ACTOR_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
const SCOPE_KEY = /^(\*|[a-z][a-z0-9-]{0,40})$/;

const jsonValue: z.ZodType<Json> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]))
  .meta({ id: 'JsonValue', description: 'Any JSON value.' });
const Version = z.int().min(0).meta({ description: 'A draft version: 0 is the empty draft, each committed step adds one.' });

/** A query parameter that is a non-negative integer (`?version=3`); the message names it. */
export function versionParam(name: string, description: string) {
  return z.string().transform((v, c) => {
    const n = Number(v);
    if (Number.isInteger(n) && n >= 0) return n;
    c.addIssue({ code: 'custom', message: `${name} must be a non-negative integer.` });
    return z.NEVER;
  }).meta({ description, pattern: '^[0-9]+$' });
}

// ---- the draft and its log ------------------------------------------------------------------

const RuleName = z.enum(Object.keys(Rule) as [keyof typeof Rule, ...(keyof typeof Rule)[]]).meta({ id: 'Rule', description: 'docs/errors.md: why an op was refused, or what a note is about.' });
const Pointer = z.string().meta({ description: 'A JSON Pointer (RFC 6901).' });

export const Op = z.object({
  op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
  path: Pointer,
  value: jsonValue.optional(),
  from: Pointer.optional(),
}).meta({ id: 'Op', description: 'An RFC 6902 operation as applied (after repair).' });

export const Note = z.object({ rule: RuleName, path: Pointer, message: z.string(), index: z.int().min(0) })
  .meta({ id: 'Note', description: 'A repair or flag on the op at `index` of the submitted list.' });

export const Refusal = z.object({ code: z.literal('VALIDATION_FAILED'), rule: RuleName, path: Pointer, message: z.string(), index: z.int().min(0) })
  .meta({ id: 'Refusal', description: 'An op the pipeline refused (the others of its step still apply).' });

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
  refused: z.array(Refusal),
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

export const CreateDraftBody = z.object({
  id: z.string({ error: 'id must match [a-z][a-z0-9-]{0,40}.' }).regex(DRAFT_ID, { error: 'id must match [a-z][a-z0-9-]{0,40}.' }).optional()
    .meta({ description: 'Default: `d-` and 8 random hex digits.' }),
  title: z.string({ error: 'title must be a string of at most 500 characters.' }).max(500, { error: 'title must be a string of at most 500 characters.' }).nullish(),
}, { error: 'Send { "id"?: string, "title"?: string }.' }).meta({ id: 'CreateDraftBody' });

const scopesMessage = 'Scopes are a list of "read" and "write".';
const scopeKeyMessage = (k: unknown): string => `Scope key "${String(k)}" must be a draft id or "*".`;
const tokenShape = 'Send { "actor": { "id", "kind": "human"|"agent" }, "scopes": { "<draftId>"|"*": ["read","write"] }, "ttlSeconds"? }.';

/** A record zod reads from own keys, except that it skips `__proto__`: refused here, not dropped silently. */
const refuseProtoKey = (v: unknown, c: z.core.$RefinementCtx): unknown => {
  if (typeof v === 'object' && v !== null && Object.hasOwn(v, '__proto__')) c.addIssue({ code: 'custom', message: scopeKeyMessage('__proto__'), path: ['__proto__'] });
  return v;
};

export const MintTokenBody = z.object({
  actor: z.object({
    id: z.string({ error: 'actor.id must be 1–128 characters of [A-Za-z0-9._:@-].' }).regex(ACTOR_ID, { error: 'actor.id must be 1–128 characters of [A-Za-z0-9._:@-].' }),
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
