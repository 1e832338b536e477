// `weft build-eval` (RFC "Build model eval"): the command line, parsed here (pure, tested without
// spawning anything), and run by the agent's eval program (services/agent/src/eval/main.ts) as a
// child process: the SDK never imports a service (the dependency rule), so the eval runs only
// from a checkout of the repo. The job goes to the child as JSON on stdin, keys included, so
// they never show in a process list; `key-env=VAR` keeps them off this command line too.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs as parseNodeArgs } from 'node:util';

export interface EvalModelSpec { name: string; url: string; model: string; key: string | null; stream: boolean }
export interface BuildEvalCommand {
  models: EvalModelSpec[];
  briefsFile: string | null;
  out: string;
  target: { kind: 'memory' } | { kind: 'server'; url: string; token: string };
  rounds: number;
  turnTimeoutMs: number;
  json: boolean;
}

export const BUILD_EVAL_USAGE = `weft build-eval — rank models on the build briefs (RFC "Build model eval")
  weft build-eval --model url=<base url>,model=<name>[,key=<key>|key-env=<VAR>][,name=<label>][,stream=0]
                  [--model …] [--briefs <file>] [--out <dir>] [--url <session url> --token <token>]
                  [--rounds <n>] [--timeout <ms per turn>] [--json]
  --model    an OpenAI-compatible endpoint (…/v1; POST /chat/completions) and model; repeat to compare
  --briefs   a JSON array of built-in brief ids (landing, pricing, faq, edit, scope, dashboard) or
             { "id", "text", "seed"?: [section…], "scope"?: { "sectionId", "componentId"? } };
             default: landing, pricing, faq, edit, scope
  --out      where runs.ndjson, summary.md and summary.json go (default .weft/build-eval/<time>)
  --url/--token   run each turn against a running server (a fresh draft per run, left there);
             default: in memory, through the same pipeline, nothing stored
  --rounds   refusal rounds after the first answer (default 3); --timeout per turn (default 300000)
  --json     one JSON line per run, then {"summary": […]}, instead of the human lines and table
Every run is a real model call on the endpoint's account: nothing here runs in CI but a local fake.`;

const SPEC_KEYS = ['url', 'model', 'key', 'key-env', 'name', 'stream'] as const;
type SpecKey = (typeof SPEC_KEYS)[number];

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** `url=…,model=…,key=…`: commas split only before `<word>=`, so values may hold other commas;
 *  an unknown word is refused, not read into the value before it. */
export function parseModelSpec(spec: string, env: Readonly<Record<string, string | undefined>>): Parsed<EvalModelSpec> {
  const parts = spec.split(/,(?=[A-Za-z_-]+=)/);
  const v: Partial<Record<SpecKey, string>> = {};
  for (const p of parts) {
    const i = p.indexOf('=');
    const k = i > 0 ? p.slice(0, i) : p;
    if (!(SPEC_KEYS as readonly string[]).includes(k)) return { ok: false, message: `--model "${spec.slice(0, 80)}": "${k.slice(0, 40)}" is not one of ${SPEC_KEYS.join(', ')} (write url=…,model=…)` };
    if (Object.hasOwn(v, k)) return { ok: false, message: `--model: ${k}= is given twice` };
    v[k as SpecKey] = p.slice(i + 1);
  }
  let url: URL;
  try {
    url = new URL(v.url ?? '');
  } catch {
    return { ok: false, message: `--model: url= must be the endpoint's base URL, e.g. url=https://api.example.com/v1 (got "${(v.url ?? '').slice(0, 80)}")` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: '--model: url= must be http or https' };
  const model = v.model?.trim() ?? '';
  if (model === '') return { ok: false, message: '--model: give model=<model name> as the endpoint knows it' };
  if (v.key !== undefined && v['key-env'] !== undefined) return { ok: false, message: '--model: give key= or key-env=, not both' };
  let key = v.key?.trim() || null;
  if (v['key-env'] !== undefined) {
    const name = v['key-env'];
    const val = /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && Object.hasOwn(env, name) ? env[name]?.trim() : undefined;
    if (!val) return { ok: false, message: `--model: key-env=${name.slice(0, 60)} names no set environment variable` };
    key = val;
  }
  const stream = v.stream === undefined || v.stream === '1' || v.stream === 'true' ? true : v.stream === '0' || v.stream === 'false' ? false : null;
  if (stream === null) return { ok: false, message: '--model: stream= is 1 or 0' };
  const name = (v.name?.trim() || model).slice(0, 120);
  return { ok: true, value: { name, url: url.href.replace(/\/$/, ''), model, key, stream } };
}

export function parseBuildEvalArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, now: Date = new Date()): Parsed<BuildEvalCommand> | { ok: true; help: true } {
  let v: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values: v } = parseNodeArgs({
      args: argv as string[], allowPositionals: false, strict: true,
      options: {
        model: { type: 'string', multiple: true }, briefs: { type: 'string' }, out: { type: 'string' },
        url: { type: 'string' }, token: { type: 'string' }, rounds: { type: 'string' }, timeout: { type: 'string' },
        json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    return { ok: false, message: (e as Error).message.replace(/\. To specify a positional argument.*$/s, '.') };
  }
  if (v['help'] === true) return { ok: true, help: true };
  const specs = (v['model'] as string[] | undefined) ?? [];
  if (specs.length === 0) return { ok: false, message: 'Give at least one --model url=<base url>,model=<name>.' };
  if (specs.length > 20) return { ok: false, message: 'At most 20 --model.' };
  const models: EvalModelSpec[] = [];
  for (const s of specs) {
    const m = parseModelSpec(s, env);
    if (!m.ok) return m;
    models.push(m.value);
  }
  // Names are the table's rows: two entries of one model on other hosts get the host added.
  const shared = new Set(models.map((m) => m.name).filter((n, i, all) => all.indexOf(n) !== i));
  for (const m of models) if (shared.has(m.name)) m.name = `${m.name} @ ${new URL(m.url).host}`;
  const dup = models.find((m, i) => models.findIndex((x) => x.name === m.name) !== i);
  if (dup) return { ok: false, message: `Two --model entries are both "${dup.name}"; tell them apart with name=<label>.` };
  const int = (k: string, def: number, min: number, max: number): number | Error => {
    const raw = v[k];
    if (raw === undefined) return def;
    const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
    return n >= min && n <= max ? n : new Error(`--${k} is an integer from ${min} to ${max}, got "${String(raw).slice(0, 40)}".`);
  };
  const rounds = int('rounds', 3, 0, 10);
  if (rounds instanceof Error) return { ok: false, message: rounds.message };
  const turnTimeoutMs = int('timeout', 300_000, 1000, 3_600_000);
  if (turnTimeoutMs instanceof Error) return { ok: false, message: turnTimeoutMs.message };
  const url = typeof v['url'] === 'string' ? v['url'] : undefined;
  const token = (typeof v['token'] === 'string' ? v['token'] : undefined) ?? (url ? env['WEFT_TOKEN'] : undefined);
  if (url === undefined && v['token'] !== undefined) return { ok: false, message: '--token goes with --url (the server to run against); without --url the eval runs in memory.' };
  if (url !== undefined && !/^https?:\/\/[^\s]+$/.test(url)) return { ok: false, message: '--url must be an http(s) URL.' };
  if (url !== undefined && !token) return { ok: false, message: 'Give --token <token> (or set WEFT_TOKEN): it creates a draft per run, so it needs write on "*".' };
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return { ok: true, value: {
    models, briefsFile: typeof v['briefs'] === 'string' ? v['briefs'] : null,
    out: typeof v['out'] === 'string' ? v['out'] : `.weft/build-eval/${stamp}`,
    target: url !== undefined && token ? { kind: 'server', url: url.replace(/\/$/, ''), token } : { kind: 'memory' },
    rounds, turnTimeoutMs, json: v['json'] === true,
  } };
}

const EVAL_MAIN = fileURLToPath(new URL('../../../../services/agent/src/eval/main.ts', import.meta.url));

/** Runs `weft build-eval <argv>`; resolves to the exit code (the child's output goes to ours). */
export async function buildEvalMain(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const parsed = parseBuildEvalArgs(argv, env);
  if ('help' in parsed) {
    process.stdout.write(`${BUILD_EVAL_USAGE}\n`);
    return 0;
  }
  if (!parsed.ok) {
    process.stderr.write(`${parsed.message}\n\n${BUILD_EVAL_USAGE}\n`);
    return 2;
  }
  if (!existsSync(EVAL_MAIN)) {
    process.stderr.write('weft build-eval runs from a checkout of the Weft repo (services/agent is not next to this CLI).\n');
    return 1;
  }
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), EVAL_MAIN], { stdio: ['pipe', 'inherit', 'inherit'] });
  child.stdin.end(JSON.stringify(parsed.value));
  return new Promise((resolve) => {
    child.once('error', (e) => {
      process.stderr.write(`weft build-eval: ${e.message}\n`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 130 : 1)));
  });
}
