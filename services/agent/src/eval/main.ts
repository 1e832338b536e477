// The build eval's program: `weft build-eval` (shared/client/src/cli/build-eval.ts) parses the
// command line and starts this with the job as JSON on stdin (so model keys never show in a
// process list). Prints one line per run (NDJSON with --json), writes <out>/runs.ndjson as runs
// end, then <out>/summary.md and summary.json, and prints the ranked table.
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { defaultCatalog } from '@weft/core';
import { parseBriefsFile } from './brief-file.ts';
import { evalBriefs } from './briefs.ts';
import type { EvalBrief } from './briefs.ts';
import { duration, summaryTable } from './measure.ts';
import type { RunRecord } from './measure.ts';
import { runBuildEval } from './run.ts';
import type { EvalModel, EvalTarget } from './run.ts';

/** What `weft build-eval` hands over (one JSON value on stdin). */
export interface EvalJob {
  models: EvalModel[];
  /** A --briefs file's path; null: the five built-in briefs. */
  briefsFile: string | null;
  out: string;
  target: EvalTarget;
  rounds: number;
  turnTimeoutMs: number;
  json: boolean;
}

const fail = (message: string): never => {
  process.stderr.write(`weft build-eval: ${message}\n`);
  process.exit(1);
};

let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const job = JSON.parse(input) as EvalJob;

const known = (n: string): boolean => defaultCatalog.getEntry(n) !== undefined;
let briefs: EvalBrief[] = evalBriefs(known);
if (job.briefsFile !== null) {
  let text = '';
  try {
    text = readFileSync(job.briefsFile, 'utf8');
  } catch (e) {
    fail(`cannot read --briefs ${job.briefsFile}: ${(e as Error).message}`);
  }
  const parsed = parseBriefsFile(text, evalBriefs(known));
  if (!parsed.ok) fail(`--briefs ${job.briefsFile}: ${parsed.error}`);
  else briefs = parsed.value;
}

/** mkdir -p one level at a time: Node's recursive mkdir never returns under /proc. */
function makeDir(dir: string): void {
  const chain: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) chain.unshift(d);
  for (const d of chain) mkdirSync(d);
  if (!statSync(resolve(dir)).isDirectory()) throw new Error('it is not a directory');
}
try {
  makeDir(job.out);
} catch (e) {
  fail(`cannot create --out ${job.out}: ${(e as Error).message}`);
}
const runsFile = join(job.out, 'runs.ndjson');
writeFileSync(runsFile, '');

const WHY: Record<RunRecord['stoppedBy'], string> = { done: 'no step written', rounds: 'the refusal rounds ran out', budget: 'the op budget ran out', steps: 'the step limit ran out', error: 'the turn failed' };
const human = (r: RunRecord): string => [
  `${r.model} · ${r.brief}:`, r.finished ? 'finished' : `NOT finished (${r.error ?? WHY[r.stoppedBy]})`,
  `${r.written}/${r.steps} steps written, ${r.repairs} repairs, ${r.refusals} refusals (${r.emissionRefusals} emission, ${r.contractRefusals} contract), ${r.rounds} round(s),`,
  `first step ${duration(r.firstStepMs)}, total ${duration(r.totalMs)}, ${r.tokens ? `${r.tokens.prompt}+${r.tokens.completion} tokens` : 'no usage reported'}`,
  r.asBriefed === null || r.error !== null ? '' : r.asBriefed.length === 0 ? '· page as briefed' : `· page NOT as briefed: ${r.asBriefed.join('; ')}`,
  r.draftId ? `· draft ${r.draftId}` : '',
].filter((x) => x !== '').join(' ');

process.stderr.write(`build-eval: ${job.models.length} model(s) × ${briefs.length} brief(s) (${briefs.map((b) => b.id).join(', ')}), ${job.target.kind === 'memory' ? 'in memory' : `against ${job.target.url}`}; writing ${job.out}\n`);
const { ranking } = await runBuildEval({
  models: job.models, briefs, target: job.target, rounds: job.rounds, turnTimeoutMs: job.turnTimeoutMs,
  onRun: (r) => {
    appendFileSync(runsFile, `${JSON.stringify(r)}\n`);
    process.stdout.write(`${job.json ? JSON.stringify(r) : human(r)}\n`);
  },
});
const table = summaryTable(ranking);
writeFileSync(join(job.out, 'summary.md'), `${table}\n`);
writeFileSync(join(job.out, 'summary.json'), `${JSON.stringify(ranking, null, 2)}\n`);
const failed = ranking.filter((r) => r.errors > 0).map((r) => `${r.model}: ${r.errors} of ${r.turns} turns failed (the error is in each run's line)`);
process.stdout.write(job.json ? `${JSON.stringify({ summary: ranking })}\n` : `\n${table}\n${failed.map((l) => `\n${l}`).join('')}\nruns: ${runsFile}\n`);
