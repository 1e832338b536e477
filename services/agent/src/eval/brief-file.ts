// A `--briefs` file for the build eval: a JSON array whose entries are a built-in brief's id
// ("landing") or { "id", "text", "seed"?: [section, …], "scope"?: { "sectionId", "componentId"? } }.
// Everything is checked before any model runs: seeds go through the pipeline (applyStep) and
// must be written without a refusal; a scope must be on the seeded page (as POST /agent/briefs
// answers 400 before the model runs). Pure: text in, briefs or one error with its JSON Pointer out.
import { applyStep, emptyDraft, parseJsonSafe } from '@weft/core';
import type { Draft, Section } from '@weft/core';
import { parseBriefRequest } from '../brief-request.ts';
import type { BriefScope } from '../brief-request.ts';
import type { Brief, EvalBrief } from './briefs.ts';

const ID = /^[a-z][a-z0-9-]{0,40}$/;
const MAX_BRIEFS = 50;
const KEYS = new Set(['id', 'text', 'seed', 'scope']);

type Parsed = { ok: true; value: EvalBrief[] } | { ok: false; error: string };

/** The draft a brief starts from: its seed sections added through the pipeline. */
export function seededDraft(id: string, seed: readonly Section[]): { ok: true; draft: Draft } | { ok: false; error: string } {
  const draft = emptyDraft(id);
  if (seed.length === 0) return { ok: true, draft };
  const r = applyStep(draft, seed.map((s) => ({ op: 'add', path: `/sections/${s.id}`, value: s })));
  const first = r.refused[0];
  return first ? { ok: false, error: `seed ${first.index}: ${first.rule} at ${first.path}: ${first.message}` } : { ok: true, draft };
}

/** Whether the scope names a part of the draft (own keys only). */
export function scopeOnPage(d: Draft, scope: BriefScope): boolean {
  const s = Object.hasOwn(d.sections, scope.sectionId) ? d.sections[scope.sectionId] : undefined;
  return s !== undefined && (scope.componentId === undefined || Object.hasOwn(s.components, scope.componentId));
}

export function parseBriefsFile(text: string, builtIn: readonly Brief[]): Parsed {
  const j = parseJsonSafe(text, { maxBytes: 2 * 1024 * 1024 });
  if (!j.ok) return { ok: false, error: `the briefs file is not usable JSON: ${j.error.message}` };
  const list = j.value;
  if (!Array.isArray(list) || list.length === 0) return { ok: false, error: 'the briefs file must be a non-empty JSON array of brief ids or { id, text, seed?, scope? }' };
  if (list.length > MAX_BRIEFS) return { ok: false, error: `the briefs file holds ${list.length} briefs; at most ${MAX_BRIEFS}` };
  const out: EvalBrief[] = [];
  const known = builtIn.map((b) => b.id).join(', ');
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    const at = `/${i}`;
    if (typeof e === 'string') {
      const b = builtIn.find((x) => x.id === e);
      if (!b) return { ok: false, error: `${at}: no built-in brief "${e.slice(0, 60)}"; built in: ${known}` };
      out.push(b);
      continue;
    }
    if (e === null || typeof e !== 'object' || Array.isArray(e)) return { ok: false, error: `${at}: a brief is a built-in id or { id, text, seed?, scope? }` };
    const extra = Object.keys(e).find((k) => !KEYS.has(k));
    if (extra !== undefined) return { ok: false, error: `${at}/${extra.slice(0, 40)}: unknown field; a brief has id, text, seed, scope` };
    if (typeof e['id'] !== 'string' || !ID.test(e['id'])) return { ok: false, error: `${at}/id: must match [a-z][a-z0-9-]{0,40}` };
    const id = e['id'];
    if (out.some((b) => b.id === id)) return { ok: false, error: `${at}/id: "${id}" is used twice` };
    // The text and scope as the agent's door reads them (one reader of a brief).
    const req = parseBriefRequest({ draftId: 'eval', brief: e['text'], ...(e['scope'] === undefined ? {} : { scope: e['scope'] }) });
    if (!req.ok) return { ok: false, error: `${at}${req.error.replace(/^\/brief/, '/text')}` };
    const seedRaw = e['seed'] ?? [];
    if (!Array.isArray(seedRaw)) return { ok: false, error: `${at}/seed: must be an array of sections` };
    const seed = seedRaw as unknown as Section[];
    if (seed.some((s) => s === null || typeof s !== 'object' || Array.isArray(s) || typeof (s as { id?: unknown }).id !== 'string')) {
      return { ok: false, error: `${at}/seed: each entry is a section { id, kind: "surface", catalog, components, data }` };
    }
    const d = seededDraft(`eval-${id}`, seed);
    if (!d.ok) return { ok: false, error: `${at}/seed: ${d.error}` };
    const scope = req.value.scope;
    if (scope && !scopeOnPage(d.draft, scope)) return { ok: false, error: `${at}/scope: ${scope.componentId ? `component "${scope.componentId}" of ` : ''}section "${scope.sectionId}" is not on the seeded page` };
    out.push({ id, text: req.value.brief, seed, ...(scope ? { scope } : {}) });
  }
  return { ok: true, value: out };
}
