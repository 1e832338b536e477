// POST /agent/briefs: "ask the agent about this". The agent acts with the CALLER's token (it must
// have write scope on the draft; checked against the session API first, refused as the session
// refuses), joins the draft as a Yjs peer (presence and ghosts show to viewers) and runs the
// model-driven builder in the background as one turn. Answers 202 { runId, turnId } at once;
// GET /agent/briefs/:runId gives the status and, when done, the BuildReport. Bounded: at most
// `maxRuns` runs at once per process, each with a time limit. Mounted by the launcher.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '@weft/core';
import type { Draft } from '@weft/core';
import { WeftHttpClient, WeftPeer } from '@weft/client';
import { parseBriefRequest, scopeProblem, scopedBrief } from './brief-request.ts';
import type { BriefRequest, BriefScope } from './brief-request.ts';
import { buildFromBrief } from './model-builder.ts';
import type { BuildReport } from './model-builder.ts';
import { chatCompletions } from './model-client.ts';
import type { Complete } from './model-client.ts';
import type { ModelConfig } from './model-config.ts';
import { catalogPromptText } from './prompt.ts';
import { PeerBuildTransport } from './transport.ts';
import type { BuildTransport } from './transport.ts';
import { RunReporter } from './run-reporter.ts';
import { RunStream } from './run-stream.ts';
import { serveAgUi } from './ag-ui-door.ts';
import { scopedPart } from './brief-request.ts';
import type { AgUiEvent } from '@weft/protocol';

export interface AgentDeps {
  /** Base URL of the session API (http://host:port); a function when known only after listen. */
  sessionUrl: string | (() => string);
  /** null: no model endpoint configured; POST answers 503 UNAVAILABLE. */
  model: ModelConfig | null;
  /** Runs at once per process (default 2). */
  maxRuns?: number;
  /** Time limit of one run in ms (default 120 000); the model call is aborted after it. */
  timeLimitMs?: number;
  /** Tests: a Complete other than chatCompletions(model). */
  complete?: (signal: AbortSignal) => Complete;
}

export type RunStatus = 'running' | 'done' | 'failed';
export interface RunView {
  runId: string;
  turnId: string;
  draftId: string;
  scope: BriefScope | null;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  report: BuildReport | null;
  error: { code: string; message: string } | null;
}
interface Run extends RunView { owner: string }

export const NO_MODEL_MESSAGE = 'No model endpoint is configured: set WEFT_MODEL_URL (any OpenAI-compatible /chat/completions), WEFT_MODEL and WEFT_MODEL_KEY.';
const KEEP_RUNS = 200;
const MAX_BODY = 16 * 1024;
/** A RunAgentInput carries the conversation so far: more room than a brief. */
const MAX_AG_UI_BODY = 256 * 1024;

/** What a run's stream shows, handed to a door that streams it (ag-ui-door.ts). */
export interface RunTap {
  events(events: AgUiEvent[]): void;
  /** The draft after a step of the run committed (and once more at the end). */
  state(draft: Draft): void;
  /** The run's last event: RUN_FINISHED or RUN_ERROR. */
  end(last: AgUiEvent): void;
}
export type Launched = { run: RunView; draft: Draft; done: Promise<void>; stop(): void };
export type Launch = (token: string, brief: BriefRequest, tap?: RunTap) => Promise<{ status: number; error: { code: string; message: string; path?: string } } | Launched>;

type Handler = ((req: IncomingMessage, res: ServerResponse) => boolean) & {
  /** Resolves when every running run has ended (tests, shutdown). */
  idle(): Promise<void>;
};

export function agentHandler(deps: AgentDeps): Handler {
  const runs = new Map<string, Run>();
  const active = new Map<string, Promise<void>>();
  const maxRuns = deps.maxRuns ?? 2;
  const timeLimitMs = deps.timeLimitMs ?? 120_000;
  const base = (): string => (typeof deps.sessionUrl === 'function' ? deps.sessionUrl() : deps.sessionUrl).replace(/\/$/, '');

  /** What both doors check first: a model, the caller's token, a JSON body within `max` bytes (null: answered already). */
  const admit = async (req: IncomingMessage, res: ServerResponse, max: number): Promise<{ token: string; body: unknown } | null> => {
    const refuse = (code: ErrorCode, message: string): null => { fail(res, code, message); return null; };
    if (!deps.model && !deps.complete) return refuse('UNAVAILABLE', NO_MODEL_MESSAGE);
    const token = bearer(req);
    if (!token) return refuse('UNAUTHORIZED', 'Send "Authorization: Bearer <token>": the agent acts with your token.');
    try {
      return { token, body: JSON.parse(await readBody(req, max)) };
    } catch (e) {
      return (e as { tooLarge?: boolean }).tooLarge ? refuse('PAYLOAD_TOO_LARGE', `The body exceeds ${max} bytes.`) : refuse('MALFORMED_JSON', 'The body is not valid JSON.');
    }
  };

  /** POST /agent/ag-ui: the same run for an AG-UI client, streamed back as one AG-UI run (ag-ui-door.ts). */
  const agUi = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const a = await admit(req, res, MAX_AG_UI_BODY);
    if (a) await serveAgUi(res, req, a.token, a.body, launch);
  };

  const start = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const a = await admit(req, res, MAX_BODY);
    if (!a) return;
    const { token, body } = a;
    const parsed = parseBriefRequest(body);
    if (!parsed.ok) return fail(res, 'BAD_REQUEST', parsed.error);
    const launched = await launch(token, parsed.value);
    if ('error' in launched) return sendJson(res, launched.status, { error: launched.error });
    sendJson(res, 202, { runId: launched.run.runId, turnId: launched.run.turnId, status: 'running' });
  };

  /**
   * The brief as a run with the caller's token: the session's refusal (status and error), or the
   * run under way (`done` when it ended; `stop` ends it as Stop does). `tap` sees what the run's
   * stream sees (ag-ui-door.ts streams it back to an AG-UI client).
   */
  const launch: Launch = async (token, { draftId, brief, scope }, tap) => {
    // The caller's token must read the draft and write it: asked of the session, answered as it answers.
    const http = new WeftHttpClient(base(), token);
    const checked = await checkWrite(http, draftId);
    if ('error' in checked) return checked;
    // Before the model runs: a scope must name a part that is on the page now.
    const off = scopeProblem(checked.draft, scope);
    if (off) return { status: 400, error: { code: 'BAD_REQUEST', message: off.message, path: off.path } };
    if (active.size >= maxRuns) return { status: 429, error: { code: 'RATE_LIMITED', message: `The agent already runs ${maxRuns} briefs; retry when one has finished.` } };

    const runId = `run-${randomUUID().slice(0, 12)}`;
    const turnId = `agent-${randomUUID().slice(0, 12)}`;
    const run: Run = { runId, turnId, draftId, scope: scope ?? null, status: 'running', startedAt: new Date().toISOString(), finishedAt: null, report: null, error: null, owner: digest(token) };
    // The run is the session's (kept with the draft, on its stream); its id is the turn id.
    const ac = new AbortController();
    const reporter = new RunReporter({ sessionUrl: base(), token, draftId, runId: turnId, onCancel: () => ac.abort(new StopRequested()) });
    try {
      await reporter.open({ brief, scope: scope ?? null, model: deps.model?.model ?? null });
    } catch (e) {
      const err = e as Error & { code?: string; status?: number };
      return { status: err.status ?? 500, error: { code: err.code ?? 'INTERNAL', message: err.message } };
    }
    runs.set(runId, run);
    for (const id of runs.keys()) if (runs.size > KEEP_RUNS && runs.get(id)!.status !== 'running') runs.delete(id);
    const p = execute(run, http, brief, scope, reporter, ac, tap).finally(() => active.delete(runId));
    active.set(runId, p);
    return { run, draft: checked.draft, done: p, stop: () => ac.abort(new StopRequested()) };
  };

  const execute = async (run: Run, http: WeftHttpClient, brief: string, scope: BriefScope | undefined, reporter: RunReporter, ac: AbortController, tap?: RunTap): Promise<void> => {
    const timer = setTimeout(() => ac.abort(new Error(`the run took longer than ${timeLimitMs} ms`)), timeLimitMs);
    let peer: WeftPeer | null = null;
    const stream = new RunStream({ emit: (evs) => { reporter.emit(evs); tap?.events(evs); }, ghostOp: (op) => peer?.setGhost(op === null ? null : { op, partial: true }), prefix: run.turnId });
    let last: AgUiEvent;
    try {
      // `agent: true`: it shares the caller's user id, so viewers tell it apart by this flag.
      const presence = { name: 'Agent', color: '#7c3aed', agent: true, selection: scope ?? null };
      peer = await WeftPeer.join({ url: base(), draftId: run.draftId, token: http.token, presence, timeoutMs: 10_000 });
      const transport = turnTransport(new PeerBuildTransport(peer));
      const complete = stream.wrap(deps.complete ? deps.complete(ac.signal) : chatCompletions(deps.model!, { signal: ac.signal }));
      const report = await buildFromBrief({
        brief: scopedBrief(brief, peer.draft(), scope), transport, complete, systemPrompt: catalogPromptText(), turnId: run.turnId,
        onStep: (rec) => { stream.step(rec); if (peer) tap?.state(peer.draft()); },
      });
      run.report = report;
      last = { type: 'RUN_FINISHED', result: runResult(report), outcome: { type: 'success' } } as unknown as AgUiEvent;
    } catch (e) {
      const stopped = ac.signal.reason instanceof StopRequested;
      const code = typeof (e as { code?: unknown }).code === 'string' && (e as { code: string }).code in ErrorCode ? (e as { code: string }).code : ac.signal.aborted ? 'UNAVAILABLE' : 'INTERNAL';
      const reason = ac.signal.aborted ? String((ac.signal.reason as Error | undefined)?.message ?? 'time limit') : (e as Error).message;
      run.error = { code, message: stopped ? 'Stopped: someone pressed Stop.' : `The agent stopped: ${reason}` };
      last = stopped ? { type: 'RUN_FINISHED', result: { stoppedBy: 'stop' }, outcome: { type: 'cancelled' } } as unknown as AgUiEvent : { type: 'RUN_ERROR', code, message: run.error.message } as AgUiEvent;
    } finally {
      clearTimeout(timer);
    }
    try {
      stream.finish();
      if (peer) tap?.state(peer.draft());
      const summary = await reporter.end(last);
      if (run.report) run.report.finished = summary;
      run.status = run.report ? 'done' : 'failed';
    } finally {
      run.finishedAt = new Date().toISOString();
      tap?.end(last); // after the session kept the end: a client that then reads the run finds it ended
      peer?.close();
    }
  };

  const status = async (req: IncomingMessage, res: ServerResponse, runId: string): Promise<void> => {
    const token = bearer(req);
    if (!token) return fail(res, 'UNAUTHORIZED', 'Send "Authorization: Bearer <token>".');
    const run = runs.get(runId);
    // Only the token that started a run sees it; others learn nothing, not even that it exists.
    if (!run || run.owner !== digest(token)) return fail(res, 'NOT_FOUND', `No run "${runId}" (or not yours).`);
    const { owner: _owner, ...view } = run;
    sendJson(res, 200, view satisfies RunView);
  };

  const handle = ((req: IncomingMessage, res: ServerResponse): boolean => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path !== '/agent/briefs' && !path.startsWith('/agent/briefs/') && path !== '/agent/model' && path !== '/agent/ag-ui') return false;
    // Bearer tokens, no cookies: any origin may call (the Build view may be served elsewhere).
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'authorization, content-type', 'access-control-max-age': '600' }).end();
      return true;
    }
    const go = async (): Promise<void> => {
      if (path === '/agent/briefs' && req.method === 'POST') return start(req, res);
      if (path === '/agent/ag-ui' && req.method === 'POST') return agUi(req, res);
      // The Build chat asks first: with no model it says exactly what to set, before anyone types.
      if (path === '/agent/model' && req.method === 'GET') return sendJson(res, 200, deps.model || deps.complete ? { configured: true, model: deps.model?.model ?? 'test', message: null } : { configured: false, model: null, message: NO_MODEL_MESSAGE });
      const m = /^\/agent\/briefs\/([A-Za-z0-9-]{1,64})$/.exec(path);
      if (m && req.method === 'GET') return status(req, res, m[1]!);
      return fail(res, 'NOT_FOUND', 'POST /agent/briefs, GET /agent/briefs/:runId, GET /agent/model or POST /agent/ag-ui.');
    };
    go().catch((e: unknown) => {
      if (!res.headersSent) fail(res, 'INTERNAL', (e as Error).message);
      else res.end();
    });
    return true;
  }) as Handler;
  handle.idle = async () => {
    while (active.size > 0) await Promise.allSettled([...active.values()]);
  };
  return handle;
}

/** The peer writes; the step being written is the agent's ghost until the next one. The turn is
 *  finished by the run's last event (RunReporter.end), not here. */
function turnTransport(peer: PeerBuildTransport): BuildTransport {
  return {
    draft: () => peer.draft(),
    async submit(ops, opts) {
      peer.ghost(ops[0] ?? null);
      return peer.submit(ops, opts);
    },
    presence: (p) => peer.presence(p),
    ghost: (op) => peer.ghost(op),
    close: () => peer.close(),
  };
}

/** Someone pressed Stop (the session told the reporter). */
class StopRequested extends Error {
  constructor() {
    super('stopped');
  }
}

/** RUN_FINISHED's result: the turn in figures (the session adds its own op counts). */
function runResult(r: BuildReport): Record<string, number | string> {
  const n = (s: string): number => r.steps.filter((x) => x.status === s).length;
  return { rounds: r.rounds, written: n('applied') + n('repaired'), repaired: n('repaired'), refusedSteps: n('refused') + n('unreadable') + n('over-budget'), acceptance: Math.round(r.acceptance * 1000) / 1000, stoppedBy: r.stoppedBy, notes: r.said.length };
}

/** The draft when the token may write it; else the session's own refusal (status and error). */
async function checkWrite(http: WeftHttpClient, draftId: string): Promise<{ draft: Draft } | { status: number; error: { code: string; message: string } }> {
  const asked = async (method: string, path: string): Promise<{ status: number; body: unknown; error: { code: string; message: string } | null }> => {
    const r = await fetch(http.baseUrl + path, { method, headers: { authorization: `Bearer ${http.token}` } });
    const j = (await r.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    return { status: r.status, body: j, error: r.ok ? null : (j?.error ?? { code: 'INTERNAL', message: `the session answered ${r.status}` }) };
  };
  const read = await asked('GET', `/v1/drafts/${encodeURIComponent(draftId)}`);
  if (read.error) return { status: read.status, error: read.error };
  // Finishing a turn that was never opened needs write and changes nothing: 404 "no open turn"
  // means the scope is there; 403 is the session's refusal.
  const write = await asked('POST', `/v1/drafts/${encodeURIComponent(draftId)}/turns/probe-${randomUUID().slice(0, 12)}/finish`);
  if (write.status === 404 || !write.error) return { draft: (read.body as { draft: Draft }).draft };
  return { status: write.status, error: write.error };
}

function bearer(req: IncomingMessage): string | null {
  const h = req.headers.authorization;
  return h && h.startsWith('Bearer ') && h.length > 7 ? h.slice(7).trim() : null;
}

const digest = (token: string): string => createHash('sha256').update(token).digest('hex');

function readBody(req: IncomingMessage, max = MAX_BODY): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max && size - c.length <= max) {
        // Keep reading (and dropping) so the 413 can still be answered on this socket.
        reject(Object.assign(new Error('too large'), { tooLarge: true }));
        return;
      }
      if (size <= max) chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function fail(res: ServerResponse, code: ErrorCode, message: string): void {
  sendJson(res, ErrorCode[code].status, { error: { code, message } });
}
