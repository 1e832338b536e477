// The build eval (RFC "Build model eval"): every brief through the model-driven agent's own turn
// (buildFromBrief, the loop POST /agent/briefs runs) on each model, one after another so timings
// are not shared. In memory the turn's steps go through the core pipeline the room runs
// (LocalBuildTransport) and nothing is stored; against a server (--url/--token) each run builds
// a fresh draft there through the HTTP door, budgets and all, and leaves it to look at.
import { randomUUID } from 'node:crypto';
import { WeftHttpClient } from '@weft/client';
import type { Draft } from '@weft/core';
import { scopedBrief } from '../brief-request.ts';
import { buildFromBrief } from '../model-builder.ts';
import type { BuildReport, StepRecord } from '../model-builder.ts';
import { chatCompletions } from '../model-client.ts';
import type { Usage } from '../model-client.ts';
import type { ModelConfig } from '../model-config.ts';
import { catalogPromptText } from '../prompt.ts';
import { HttpBuildTransport, LocalBuildTransport } from '../transport.ts';
import type { BuildTransport } from '../transport.ts';
import { scopeOnPage, seededDraft } from './brief-file.ts';
import type { EvalBrief } from './briefs.ts';
import { rank, runRecord } from './measure.ts';
import type { ModelRow, RunRecord } from './measure.ts';

export interface EvalModel extends ModelConfig {
  /** How the model is named in the records and the table. */
  name: string;
}
export type EvalTarget = { kind: 'memory' } | { kind: 'server'; url: string; token: string };

export interface EvalOptions {
  models: readonly EvalModel[];
  briefs: readonly EvalBrief[];
  target: EvalTarget;
  /** Refusal rounds after the first answer (default 3, as the agent's door). */
  rounds?: number;
  /** One turn's time limit in ms (default 300 000); the model call is aborted after it. */
  turnTimeoutMs?: number;
  /** Each run's record as it ends (NDJSON is written from here). */
  onRun?: (r: RunRecord) => void;
  now?: () => number;
}

/** The draft of a run: in memory, or created and seeded on the server. */
async function openTarget(o: EvalOptions, brief: EvalBrief): Promise<{ transport: BuildTransport; draft: Draft; draftId: string | null; read: () => Promise<Draft> }> {
  if (o.target.kind === 'memory') {
    const d = seededDraft(`eval-${brief.id}`, brief.seed);
    if (!d.ok) throw new Error(`brief ${brief.id}: ${d.error}`);
    const t = new LocalBuildTransport(d.draft);
    return { transport: t, draft: structuredClone(d.draft), draftId: null, read: async () => t.doc };
  }
  const http = new WeftHttpClient(o.target.url, o.target.token);
  const draftId = `eval-${brief.id.slice(0, 24)}-${randomUUID().slice(0, 8)}`;
  await http.createDraft(draftId, `build-eval: ${brief.id}`);
  if (brief.seed.length > 0) {
    const r = await http.submit(draftId, { opId: `${draftId}-seed`, ops: brief.seed.map((s) => ({ op: 'add', path: `/sections/${s.id}`, value: s })) });
    const first = r.refused[0];
    if (first) throw new Error(`brief ${brief.id}: the server refused its seed: ${first.rule} at ${first.path}: ${first.message}`);
  }
  const t = await new HttpBuildTransport(http, draftId).open();
  return { transport: t, draft: (await t.draft()).draft, draftId, read: async () => (await t.draft()).draft };
}

/** An error as an operator can act on it: fetch's "fetch failed" says why only in its cause. */
function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause as { message?: unknown; code?: unknown } | undefined;
  const why = cause && typeof cause.message === 'string' ? cause.message : typeof cause?.code === 'string' ? cause.code : '';
  return why && !e.message.includes(why) ? `${e.message}: ${why}` : e.message;
}

async function runOne(o: EvalOptions, model: EvalModel, brief: EvalBrief): Promise<RunRecord> {
  const now = o.now ?? performance.now.bind(performance);
  const steps: StepRecord[] = [];
  const usage: Usage[] = [];
  let started = now();
  let firstStepMs: number | null = null;
  let report: BuildReport | null = null;
  let error: string | null = null;
  let draftId: string | null = null;
  let asBriefed: string[] | null = null;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`the turn took longer than ${o.turnTimeoutMs ?? 300_000} ms`)), o.turnTimeoutMs ?? 300_000);
  let target: Awaited<ReturnType<typeof openTarget>> | null = null;
  try {
    target = await openTarget(o, brief);
    draftId = target.draftId;
    started = now(); // the turn's time, not the draft's setup on a server
    if (brief.scope && !scopeOnPage(target.draft, brief.scope)) throw new Error(`the scope of brief ${brief.id} is not on the page`);
    report = await buildFromBrief({
      brief: scopedBrief(brief.text, target.draft, brief.scope),
      transport: target.transport,
      complete: chatCompletions(model, { signal: abort.signal, onUsage: (u) => usage.push(u) }),
      systemPrompt: catalogPromptText(),
      maxFeedbackRounds: o.rounds ?? 3,
      onStep: (s) => {
        steps.push(s);
        if (firstStepMs === null && (s.status === 'applied' || s.status === 'repaired')) firstStepMs = now() - started;
      },
    });
  } catch (e) {
    error = abort.signal.aborted ? String((abort.signal.reason as Error | undefined)?.message ?? 'aborted') : describe(e);
  } finally {
    clearTimeout(timer);
  }
  const totalMs = now() - started;
  if (target) {
    if (brief.check) asBriefed = brief.check(await target.read().catch(() => target!.draft));
    await target.transport.close?.();
  }
  return runRecord({ model: model.name, brief: brief.id, mode: o.target.kind, draftId, steps, report, error, firstStepMs, totalMs, usage, asBriefed });
}

export async function runBuildEval(o: EvalOptions): Promise<{ runs: RunRecord[]; ranking: ModelRow[] }> {
  const runs: RunRecord[] = [];
  for (const model of o.models) {
    for (const brief of o.briefs) {
      const r = await runOne(o, model, brief);
      runs.push(r);
      o.onRun?.(r);
    }
  }
  return { runs, ranking: rank(runs) };
}
