// Agent runs over HTTP (docs/api.md "Agent runs"). The agent opens a run, reports its events and
// ends it; viewers list a draft's runs with their transcripts, follow one run as a Lynx-style
// SSE stream (`delta`, `repair`, `done`, `error`), and stop one.
import type { ServerResponse } from 'node:http';
import { parseReportedEvents, RUN_ID } from '@weft/protocol';
import type { AgUiEvent, RunFinishedEvent, StepOutcome, WeftEventMeta } from '@weft/protocol';
import type { Ctx } from '../context.ts';
import { WeftError } from '../commands/errors.ts';
import { cancelRun, followRun, openRun, ownRun, readRun, recentRuns, reportEvents } from '../live/runs.ts';
import { z } from 'zod';
import { DRAFT_PARAM } from './drafts.ts';
import { readJson, sendJson } from './respond.ts';
import type { Router } from './router.ts';
import { CreateRunBody, ReportEventsBody, ReportEventsResult, RunView, RunWithEvents } from './schemas.ts';

/** The `:runId` of the run routes (any other answers 404). */
const RUN_PARAM = { description: 'The run id (`[A-Za-z0-9][A-Za-z0-9_.:-]{0,100}`), the agent\'s choice.', pattern: RUN_ID.source };
/** Runs listed with their transcripts (the Build chat on open). */
const RECENT_RUNS = 20;
/** A report carries up to this many bytes (1000 events of streamed tokens fit easily). */
const MAX_REPORT_BYTES = 1024 * 1024;

export function registerRuns(router: Router, ctx: Ctx): void {
  router.on('POST', '/v1/drafts/:id/runs', async ({ req, res, params, body }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    sendJson(res, 201, await openRun(ctx, p, params['id']!, body));
  }, {
    summary: 'Open an agent run', tags: ['runs'], access: 'bearer', params: { id: DRAFT_PARAM }, body: CreateRunBody, bodyLimit: 64 * 1024,
    description: 'Stores the run and sends `RUN_STARTED` with the brief as AG-UI `input` (`messages[0]`; scope and model in `forwardedProps`); the run\'s turn is open from now on. Needs `write`. 409 IDEMPOTENCY_CONFLICT: the draft has a run with this id; 429 RATE_LIMITED: 8 runs stream on the draft already.',
    errors: ['FORBIDDEN', 'NOT_FOUND', 'IDEMPOTENCY_CONFLICT', 'RATE_LIMITED'], responses: {
      201: { description: 'The run, `running`.', schema: RunView },
    },
  });

  router.on('POST', '/v1/drafts/:id/runs/:runId/events', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const live = ownRun(ctx, p, params['id']!, params['runId']!);
    // Checked by parseReportedEvents, which lists every problem (the spec's body documents the shape).
    const parsed = parseReportedEvents(await readJson(req, MAX_REPORT_BYTES));
    if (!parsed.ok) throw new WeftError('BAD_REQUEST', `The report was refused whole: ${parsed.errors.slice(0, 5).map((e) => `${e.path}: ${e.message}`).join('; ')}${parsed.errors.length > 5 ? ` (and ${parsed.errors.length - 5} more)` : ''}.`, { path: parsed.errors[0]!.path, errors: parsed.errors });
    sendJson(res, 200, await reportEvents(ctx, live, parsed.value));
  }, {
    summary: 'Report a run\'s events (the agent that opened it)', tags: ['runs'], access: 'bearer', params: { id: DRAFT_PARAM, runId: RUN_PARAM },
    body: ReportEventsBody, bodyLimit: MAX_REPORT_BYTES,
    description: 'Every field of every event is checked; a report with a problem is refused whole (400, `errors: [{ path, message }]` lists each, `path` is the first) and nothing of it is kept. The events go out live at once; complete messages and steps are kept. 404: no running run of this actor by that id. 410 SESSION_CLOSED: the run ended while this report waited behind the one that ended it. 413: over 1 MB, or one message or step over 512 KB.',
    errors: ['FORBIDDEN', 'NOT_FOUND', 'SESSION_CLOSED'], responses: {
      200: { description: '`cancel`: someone pressed Stop; `summary`: the turn\'s counts once the run ended.', schema: ReportEventsResult },
    },
  });

  router.on('POST', '/v1/drafts/:id/runs/:runId/cancel', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    await cancelRun(ctx, p, params['id']!, params['runId']!);
    sendJson(res, 202, { runId: params['runId'], cancelRequested: true });
  }, {
    summary: 'Stop a run (any writer)', tags: ['runs'], access: 'bearer', params: { id: DRAFT_PARAM, runId: RUN_PARAM },
    description: 'Sends `CUSTOM weft.run.cancel`; the agent learns it at its next report and ends the run with `RUN_FINISHED { outcome: { type: "cancelled" } }`. 404: no running run by that id.',
    errors: ['FORBIDDEN', 'NOT_FOUND'], responses: {
      202: { description: 'Asked.', schema: z.object({ runId: z.string(), cancelRequested: z.literal(true) }) },
    },
  });

  router.on('GET', '/v1/drafts/:id/runs', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    sendJson(res, 200, { runs: await recentRuns(ctx, p, params['id']!, RECENT_RUNS) });
  }, {
    summary: 'The draft\'s newest runs with their transcripts', tags: ['runs'], access: 'bearer', params: { id: DRAFT_PARAM },
    errors: ['NOT_FOUND'], responses: { 200: { description: `The newest ${RECENT_RUNS}, newest first.`, schema: z.object({ runs: z.array(RunWithEvents) }) } },
  });

  router.on('GET', '/v1/drafts/:id/runs/:runId', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    sendJson(res, 200, await readRun(ctx, p, params['id']!, params['runId']!));
  }, {
    summary: 'One run with its transcript', tags: ['runs'], access: 'bearer', params: { id: DRAFT_PARAM, runId: RUN_PARAM },
    errors: ['NOT_FOUND'], responses: { 200: { description: 'The run as kept.', schema: RunWithEvents } },
  });

  router.on('GET', '/v1/drafts/:id/runs/:runId/stream', async ({ req, res, params }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const id = params['id']!;
    // Events reported while the transcript is read wait here until it is written.
    const held: AgUiEvent[] = [];
    let push: (ev: AgUiEvent) => void = (ev) => held.push(ev);
    const { run, unsubscribe } = await followRun(ctx, p, id, params['runId']!, (ev) => push(ev));
    try {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      const lynx = new LynxFrames(ctx, id, res);
      let seen = 0;
      for (const ev of run.events) {
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
  }, {
    summary: 'Follow one run as Lynx GenUI SSE frames', tags: ['runs'], access: 'bearer', params: { id: DRAFT_PARAM, runId: RUN_PARAM },
    description: 'The transcript first, then live until the run ends: `delta { text, messageId | toolCallId }` (the model\'s text as it arrived), `repair { toolCallId, steps }` for a step repaired or refused, then `done { runId, outcome, result, steps, version, draft }` (the committed draft) or `error { code, message }`. A run still running on another node ends its stream with `error` UNAVAILABLE.',
    errors: ['NOT_FOUND'], responses: { 200: { description: 'text/event-stream of `delta`, `repair`, then `done` or `error`.', media: { 'text/event-stream': null } } },
  });
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
