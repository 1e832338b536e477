// Agent acceptance on the independent corpus (issue 19): 6 briefs × 4 model styles, each run
// through the model-driven agent's door (POST /agent/briefs on the launcher, embedded PGlite)
// against a local fake OpenAI-compatible server that answers with the recorded texts in turn
// (then {"done":true} once they run out). Prints the RFC's measures: finished turns, acceptance
// (steps written as sent after repairs / all steps, and in the first round), repairs, refusals
// and rounds per turn, and per brief whether the page is what was asked.
//   npx tsx services/agent/bench/briefs.ts            # through POST /agent/briefs
//   npx tsx services/agent/bench/briefs.ts --local    # the pipeline in memory (fast; same model client)
//   … --only landing.sloppy   --verbose (every step and every refusal)
import { parseArgs } from 'node:util';
import { defaultCatalog, emptyDraft } from '@weft/core';
import type { Draft } from '@weft/core';
import { WeftHttpClient } from '@weft/client';
import { scopedBrief } from '../src/brief-request.ts';
import { buildFromBrief } from '../src/model-builder.ts';
import type { BuildReport } from '../src/model-builder.ts';
import { chatCompletions } from '../src/model-client.ts';
import { catalogPromptText } from '../src/prompt.ts';
import { LocalBuildTransport } from '../src/transport.ts';
import { fakeModel, startSession } from '../test/services.ts';
import { loadCases } from './brief-cases.ts';
import type { Case } from './brief-cases.ts';

const { values: args } = parseArgs({ options: { local: { type: 'boolean' }, only: { type: 'string' }, verbose: { type: 'boolean' } } });
const ADMIN = 'bench-briefs-admin';
const known = (n: string): boolean => defaultCatalog.getEntry(n) !== undefined;
const cases = loadCases(known).filter((c) => !args.only || `${c.brief.id}.${c.style}`.startsWith(args.only));

let queue: string[] = [];
const model = await fakeModel(() => queue.shift() ?? '{"done":true}');

interface Run { report: BuildReport | null; draft: Draft; error: string | null }

async function runLocal(c: Case): Promise<Run> {
  const d = emptyDraft(`b-${c.brief.id}-${c.style}`);
  for (const s of c.brief.seed) {
    d.sections[s.id] = structuredClone(s);
    d.order.push(s.id);
  }
  const t = new LocalBuildTransport(d);
  const report = await buildFromBrief({
    brief: scopedBrief(c.brief.text, d, c.brief.scope), transport: t, systemPrompt: catalogPromptText(),
    complete: chatCompletions({ url: model.url, model: 'recorded', key: null, stream: true }),
  });
  return { report, draft: t.doc, error: null };
}

let door: { url: string; stop: () => void } | null = null;
async function runDoor(c: Case): Promise<Run> {
  if (!door) {
    const s = await startSession(null, ADMIN, { WEFT_MODEL_URL: model.url, WEFT_MODEL: 'recorded', WEFT_MODEL_STREAM: '1' });
    door = { url: s.url, stop: () => s.proc.kill('SIGTERM') };
  }
  const admin = new WeftHttpClient(door.url, ADMIN);
  const draftId = `b-${c.brief.id}-${c.style}-${Date.now().toString(36)}`;
  await admin.createDraft(draftId);
  if (c.brief.seed.length > 0) {
    await admin.submit(draftId, { opId: `${draftId}-seed`, ops: c.brief.seed.map((s) => ({ op: 'add', path: `/sections/${s.id}`, value: s })) });
  }
  const { token } = await admin.mintToken({ actor: { id: 'bench', kind: 'human' }, scopes: { [draftId]: ['read', 'write'] } });
  const res = await fetch(`${door.url}/agent/briefs`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ draftId, brief: c.brief.text, ...(c.brief.scope ? { scope: c.brief.scope } : {}) }),
  });
  const started = (await res.json()) as { runId?: string; error?: { message: string } };
  if (!started.runId) return { report: null, draft: (await admin.getDraft(draftId)).draft, error: `POST answered ${res.status}: ${started.error?.message}` };
  let run: { status: string; report: BuildReport | null; error: { message: string } | null } = { status: 'running', report: null, error: null };
  for (let i = 0; i < 1200 && run.status === 'running'; i++) {
    await new Promise((r) => setTimeout(r, 50));
    run = (await (await fetch(`${door.url}/agent/briefs/${started.runId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as typeof run;
  }
  return { report: run.report, draft: (await admin.getDraft(draftId)).draft, error: run.status === 'done' ? null : (run.error?.message ?? `still ${run.status} after 60 s`) };
}

const total = { turns: 0, finished: 0, steps: 0, accepted: 0, firstSteps: 0, firstAccepted: 0, repairs: 0, refusals: 0, rounds: 0, asBriefed: 0 };
const left: string[] = [];
const byBrief = new Map<string, number>();
try {
  for (const c of cases) {
    queue = [...c.answers];
    const r = args.local ? await runLocal(c) : await runDoor(c);
    const name = `${c.brief.id}.${c.style}`;
    const steps = r.report?.steps ?? [];
    const ok = (s: { status: string }): boolean => s.status === 'applied' || s.status === 'repaired';
    const first = steps.filter((s) => s.round === 0);
    const repairs = steps.reduce((n, s) => n + s.repairs.length, 0);
    const refusals = steps.reduce((n, s) => n + s.refused.length + (s.status === 'unreadable' ? 1 : 0), 0);
    // In memory there is no turn to finish: a report without error counts.
    const finished = r.error === null && r.report !== null && (args.local === true || r.report.finished !== null);
    const miss = c.brief.check(r.draft);
    total.turns++;
    total.finished += finished ? 1 : 0;
    total.steps += steps.length;
    total.accepted += steps.filter(ok).length;
    total.firstSteps += first.length;
    total.firstAccepted += first.filter(ok).length;
    total.repairs += repairs;
    total.refusals += refusals;
    total.rounds += r.report?.rounds ?? 0;
    if (miss.length === 0) {
      total.asBriefed++;
      byBrief.set(c.brief.id, (byBrief.get(c.brief.id) ?? 0) + 1);
    }
    console.log(`${name.padEnd(18)} ${String(steps.filter(ok).length).padStart(2)}/${String(steps.length).padEnd(2)} steps, ${String(repairs).padStart(2)} repairs, ${refusals} refused, ${r.report?.rounds ?? 0} round(s)${finished ? '' : `, NOT FINISHED: ${r.error ?? 'no RUN_FINISHED'}`}, page ${miss.length === 0 ? 'as briefed' : `WRONG: ${miss.join('; ')}`}`);
    for (const s of steps) {
      for (const x of s.refused) left.push(`${name} round ${s.round + 1}: ${x.rule} at ${x.path}: ${x.message}`);
      if (s.status === 'unreadable') left.push(`${name} round ${s.round + 1}: unreadable: ${s.message ?? ''}`);
      if (args.verbose) console.log(`    r${s.round + 1} ${s.status}${s.held ? ' (held)' : ''} ${JSON.stringify(s.ops).slice(0, 140)}${s.repairs.map((x) => `\n       repair ${x.rule} ${x.path}: ${x.message}`).join('')}`);
    }
  }
} finally {
  (door as { stop: () => void } | null)?.stop();
  model.server.close();
}
const pct = (a: number, b: number): string => (b === 0 ? '0.0' : ((a / b) * 100).toFixed(1));
const per = (n: number): string => (total.turns === 0 ? '0' : (n / total.turns).toFixed(2));
if (left.length > 0) console.log(`\nrefusals and unreadable objects:\n${left.map((l) => `  ${l}`).join('\n')}`);
console.log(`
${args.local ? 'in memory (LocalBuildTransport)' : 'through POST /agent/briefs'}, ${total.turns} turns over ${new Set(cases.map((c) => c.brief.id)).size} briefs
finished turns      ${total.finished}/${total.turns}
acceptance          ${pct(total.accepted, total.steps)}% (${total.accepted}/${total.steps} steps), first round ${pct(total.firstAccepted, total.firstSteps)}% (${total.firstAccepted}/${total.firstSteps})
repairs per turn    ${per(total.repairs)}
refusals per turn   ${per(total.refusals)}
rounds per turn     ${per(total.rounds)}
pages as briefed    ${total.asBriefed}/${total.turns}  (${[...new Set(cases.map((c) => c.brief.id))].map((b) => `${b} ${byBrief.get(b) ?? 0}`).join(', ')})`);
process.exitCode = total.accepted >= 0.95 * total.steps && total.finished === total.turns && total.asBriefed >= Math.ceil((22 / 24) * total.turns) ? 0 : 1;
