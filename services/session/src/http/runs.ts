// Agent runs over HTTP (docs/api.md "Agent runs"). The agent opens a run, reports its events and
// ends it; viewers list a draft's runs with their transcripts, follow one run as a Lynx-style
// SSE stream (`delta`, `repair`, `done`, `error`), and stop one.
import type { ServerResponse } from 'node:http';
import { storable } from '@weft/core';
import { parseReportedEvents, RUN_ID, RunLimits } from '@weft/protocol';
import type { AgUiEvent, RunFinishedEvent, RunScope, StepOutcome, WeftEventMeta } from '@weft/protocol';
import type { Ctx } from '../context.ts';
import { mustRoom } from '../commands/drafts.ts';
import { WeftError } from '../commands/errors.ts';
import { requireScope } from '../commands/principal.ts';
import { cancelRun, createRun, reportEvents } from '../live/runs.ts';
import { isObject, readJson, sendJson } from './respond.ts';
import type { Router } from './router.ts';

const SECTION_OR_COMPONENT_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,100}$/;
/** Runs listed with their transcripts (the Build chat on open). */
const RECENT_RUNS = 20;
/** A report carries up to this many bytes (1000 events of streamed tokens fit easily). */
const MAX_REPORT_BYTES = 1024 * 1024;

export function registerRuns(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/drafts/:id/runs', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'write');
    const body = await readJson(req, 64 * 1024);
    const r = parseCreate(body);
    await mustRoom(ctx, id);
    sendJson(res, 201, await createRun(ctx, { draftId: id, actor: p.actor.id, ...r }));
  });

  router.on('POST', '/v1/drafts/:id/runs/:runId/events', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'write');
    const live = ctx.runs.get(id, params['runId']!);
    // Only the actor that opened the run reports into it.
    if (!live || live.actor !== p.actor.id) throw new WeftError('NOT_FOUND', `No running run "${params['runId']}" of yours on draft "${id}".`);
    const parsed = parseReportedEvents(await readJson(req, MAX_REPORT_BYTES));
    if (!parsed.ok) throw new WeftError('BAD_REQUEST', `The report was refused whole: ${parsed.errors.slice(0, 5).map((e) => `${e.path}: ${e.message}`).join('; ')}${parsed.errors.length > 5 ? ` (and ${parsed.errors.length - 5} more)` : ''}.`, { path: parsed.errors[0]!.path, errors: parsed.errors });
    sendJson(res, 200, await reportEvents(ctx, live, parsed.value));
  });

  router.on('POST', '/v1/drafts/:id/runs/:runId/cancel', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'write');
    if (!(await cancelRun(ctx, id, params['runId']!))) throw new WeftError('NOT_FOUND', `No running run "${params['runId']}" on draft "${id}".`);
    sendJson(res, 202, { runId: params['runId'], cancelRequested: true });
  });

  router.on('GET', '/v1/drafts/:id/runs', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'read');
    await mustRoom(ctx, id);
    sendJson(res, 200, { runs: await ctx.store.runs.recent(id, RECENT_RUNS) });
  });

  router.on('GET', '/v1/drafts/:id/runs/:runId', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'read');
    const run = await ctx.store.runs.get(id, params['runId']!);
    if (!run) throw new WeftError('NOT_FOUND', `No run "${params['runId']}" on draft "${id}".`);
    sendJson(res, 200, { ...run, events: await ctx.store.runs.events(id, run.runId) });
  });

  router.on('GET', '/v1/drafts/:id/runs/:runId/stream', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    requireScope(p, id, 'read');
    const runId = params['runId']!;
    // Subscribed before the transcript is read: nothing reported meanwhile is lost (dropped by seq).
    const held: AgUiEvent[] = [];
    let push: (ev: AgUiEvent) => void = (ev) => held.push(ev);
    const unsubscribe = ctx.runs.subscribe(id, runId, (ev) => push(ev));
    try {
      const run = await ctx.store.runs.get(id, runId);
      if (!run) throw new WeftError('NOT_FOUND', `No run "${runId}" on draft "${id}".`);
      const stored = await ctx.store.runs.events(id, runId);
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      const lynx = new LynxFrames(ctx, id, res);
      let seen = 0;
      for (const ev of stored) {
        lynx.write(ev);
        seen = Math.max(seen, seqOf(ev));
      }
      if (lynx.ended || !unsubscribe) {
        if (!lynx.ended) lynx.end(run.status === 'running' ? { code: 'UNAVAILABLE', message: 'The run is not streaming on this server.' } : null);
        return;
      }
      await new Promise<void>((resolve) => {
        push = (ev) => {
          if (seqOf(ev) <= seen) return;
          lynx.write(ev);
          if (lynx.ended) resolve();
        };
        for (const ev of held.splice(0)) push(ev);
        res.on('close', () => resolve());
      });
    } finally {
      unsubscribe?.();
    }
  });
}

function parseCreate(body: unknown): { runId: string; brief: string; scope: RunScope | null; model: string | null } {
  if (!isObject(body)) throw new WeftError('BAD_REQUEST', 'Send { "runId", "brief", "scope"?, "model"? }.');
  const { runId, brief, scope, model } = body;
  if (typeof runId !== 'string' || !RUN_ID.test(runId)) throw new WeftError('BAD_REQUEST', 'runId must be an id (letters, digits, _ . : -).', { path: '/runId' });
  if (typeof brief !== 'string' || brief.trim() === '' || brief.length > RunLimits.briefChars) throw new WeftError('BAD_REQUEST', `brief must be a non-empty string of at most ${RunLimits.briefChars} characters.`, { path: '/brief' });
  if (model !== undefined && model !== null && (typeof model !== 'string' || model.length > 200)) throw new WeftError('BAD_REQUEST', 'model must be a name of at most 200 characters.', { path: '/model' });
  let sc: RunScope | null = null;
  if (scope !== undefined && scope !== null) {
    if (!isObject(scope) || typeof scope['sectionId'] !== 'string' || !SECTION_OR_COMPONENT_ID.test(scope['sectionId'])) throw new WeftError('BAD_REQUEST', 'scope must be { sectionId, componentId? }.', { path: '/scope/sectionId' });
    if (scope['componentId'] !== undefined && (typeof scope['componentId'] !== 'string' || !SECTION_OR_COMPONENT_ID.test(scope['componentId']))) throw new WeftError('BAD_REQUEST', 'scope.componentId must be a component id.', { path: '/scope/componentId' });
    sc = { sectionId: scope['sectionId'], ...(typeof scope['componentId'] === 'string' ? { componentId: scope['componentId'] } : {}) };
  }
  // NUL and lone surrogates cannot be kept (jsonb, text): refused as the log refuses them.
  if (!storable(brief) || (typeof model === 'string' && !storable(model))) throw new WeftError('BAD_REQUEST', 'brief and model must be well-formed Unicode without U+0000.', { path: storable(brief) ? '/model' : '/brief' });
  return { runId, brief: brief.trim(), scope: sc, model: typeof model === 'string' ? model : null };
}

const seqOf = (ev: AgUiEvent): number => (ev.metadata?.weft as WeftEventMeta | undefined)?.seq ?? 0;

/**
 * One run as Lynx GenUI's SSE frames: `delta` {text} for the model's text as it arrives (notes
 * and steps), `repair` for a step the pipeline repaired or refused, `done` with the validated
 * result (the steps' outcomes and the draft as committed), `error` when the run failed.
 */
class LynxFrames {
  ended = false;
  private readonly steps: StepOutcome['steps'] = [];
  private readonly ctx: Ctx;
  private readonly draftId: string;
  private readonly res: ServerResponse;
  constructor(ctx: Ctx, draftId: string, res: ServerResponse) {
    this.ctx = ctx;
    this.draftId = draftId;
    this.res = res;
  }
  private frame(event: string, data: unknown): void {
    this.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
  write(ev: AgUiEvent): void {
    if (this.ended) return;
    switch (ev.type) {
      case 'TEXT_MESSAGE_CONTENT': this.frame('delta', { text: ev.delta, messageId: ev.messageId }); break;
      case 'TOOL_CALL_ARGS': this.frame('delta', { text: ev.delta, toolCallId: ev.toolCallId }); break;
      case 'TOOL_CALL_RESULT': {
        let out: StepOutcome | null = null;
        try { out = JSON.parse(ev.content) as StepOutcome; } catch { /* not ours: no repair frame */ }
        const steps = Array.isArray(out?.steps) ? out.steps : [];
        this.steps.push(...steps);
        if (steps.some((s) => (s.repairs?.length ?? 0) > 0 || (s.refused?.length ?? 0) > 0 || s.status === 'unreadable')) this.frame('repair', { toolCallId: ev.toolCallId, steps });
        break;
      }
      case 'RUN_FINISHED': this.end(null, ev); break;
      case 'RUN_ERROR': this.end({ code: ev.code ?? 'INTERNAL', message: ev.message }); break;
      default: break;
    }
  }
  end(error: { code: string; message: string } | null, fin?: RunFinishedEvent): void {
    this.ended = true;
    if (error) this.frame('error', error);
    else {
      const room = this.ctx.rooms.peek(this.draftId);
      const view = room?.committedView();
      this.frame('done', { runId: fin?.runId ?? null, outcome: fin?.outcome?.type ?? 'success', result: fin?.result ?? null, steps: this.steps, version: view?.version ?? null, draft: view?.draft ?? null });
    }
    this.res.end();
  }
}
