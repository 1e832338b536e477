// POST /agent/ag-ui: the agent as an AG-UI agent, for any AG-UI client (an HttpAgent pointed
// here, as AG-UI front ends do). The body is AG-UI's RunAgentInput, checked with AG-UI's own
// schema: threadId = the draft, the last user message = the brief, `forwardedProps.scope` =
// { sectionId, componentId? } when it is about one part. The answer is ONE run as SSE:
// RUN_STARTED, the draft as STATE_SNAPSHOT, the model's notes and steps as they are written
// (TEXT_MESSAGE_*, TOOL_CALL_*, STEP_*, CUSTOM weft.ghost), the draft again after each step, then
// RUN_FINISHED or RUN_ERROR. It is the same run as POST /agent/briefs's: the caller's token, kept
// with the draft and shown on its stream; a client that hangs up stops it, as Stop does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import type { Draft } from '@weft/core';
import type { AgUiEvent } from '@weft/protocol';
import { parseBriefRequest } from './brief-request.ts';
import type { BriefRequest } from './brief-request.ts';
import type { Launch } from './agent-http.ts';

export interface AgUiRun { threadId: string; runId: string; brief: BriefRequest }
type Refusal = { status: number; error: { code: string; message: string; path?: string } };

/** RunAgentInput → the brief, or a 400 naming the JSON Pointer of the first problem. */
export function parseAgUiInput(body: unknown): AgUiRun | Refusal {
  const bad = (message: string, path: string): Refusal => ({ status: 400, error: { code: 'BAD_REQUEST', message, path } });
  const r = RunAgentInputSchema.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    return bad(`Not an AG-UI RunAgentInput: ${issue.message}. Send { threadId: <draft id>, runId, messages: [{ id, role: "user", content: <the brief> }], state, tools, context, forwardedProps?: { scope? } }.`, issue.path.map((p) => `/${String(p)}`).join(''));
  }
  const input = r.data;
  const last = [...input.messages].reverse().find((m) => m.role === 'user');
  const content = last && typeof last.content === 'string' ? last.content : undefined;
  if (content === undefined) return bad('The brief is the last user message, as text: none was sent.', '/messages');
  const props = input.forwardedProps as { scope?: unknown } | undefined | null;
  const brief = parseBriefRequest({ draftId: input.threadId, brief: content, ...(props && typeof props === 'object' && props.scope !== undefined ? { scope: props.scope } : {}) });
  if (!brief.ok) {
    // The brief check names its own field: translate it to where it sits in a RunAgentInput.
    const at = brief.error.startsWith('/draftId') ? '/threadId' : brief.error.startsWith('/brief') ? '/messages' : '/forwardedProps/scope';
    return bad(brief.error.replace(/^\/\S+/, at), at);
  }
  return { threadId: input.threadId, runId: input.runId, brief: brief.value };
}

/** Streams one run to the AG-UI client that asked for it. */
export async function serveAgUi(res: ServerResponse, req: IncomingMessage, token: string, body: unknown, launch: Launch): Promise<void> {
  const parsed = parseAgUiInput(body);
  if ('error' in parsed) return void sendJson(res, parsed.status, { error: parsed.error });
  const { threadId, runId } = parsed;
  let open = true;
  let held: AgUiEvent[] | null = []; // until the run has started and the head is written
  const send = (events: AgUiEvent[]): void => {
    if (held) return void held.push(...events);
    if (!open || res.destroyed) return;
    for (const ev of events) res.write(`data: ${JSON.stringify(ev)}\n\n`);
  };
  const launched = await launch(token, parsed.brief, {
    // The run's own RUN_STARTED/RUN_FINISHED are the draft stream's (its turn id); this client's run is its own runId.
    events: (evs) => send(evs.filter((e) => e.type !== 'RUN_STARTED' && e.type !== 'RUN_FINISHED' && e.type !== 'RUN_ERROR')),
    state: (draft: Draft) => send([{ type: 'STATE_SNAPSHOT', snapshot: draft as never }]),
    end: (last) => {
      send([last.type === 'RUN_ERROR' ? last : { ...(last as object), type: 'RUN_FINISHED', threadId, runId } as AgUiEvent]);
      if (held) return; // ended before the head was written: sent below
      open = false;
      res.end();
    },
  });
  if ('error' in launched) {
    // The brief's scope sits under forwardedProps in a RunAgentInput.
    const path = launched.error.path?.startsWith('/scope') ? `/forwardedProps${launched.error.path}` : launched.error.path;
    return void sendJson(res, launched.status, { error: { ...launched.error, ...(path ? { path } : {}) } });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.write(`data: ${JSON.stringify({ type: 'RUN_STARTED', threadId, runId })}\n\n`);
  const early = held;
  held = null;
  send([{ type: 'STATE_SNAPSHOT', snapshot: launched.draft as never }, ...early]);
  if (early.some((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR')) { open = false; res.end(); }
  // The client hung up before the end: the run stops (its steps so far stay, as after Stop).
  req.socket.once('close', () => { if (open) { open = false; launched.stop(); } });
  await launched.done;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
