#!/usr/bin/env -S node --import tsx
// `weft` entry: reads argv, WEFT_URL / WEFT_TOKEN and stdin once, then runs one command.
// Run from the repo: `npx tsx shared/client/src/cli/main.ts <command> …` (or `npm run weft -- …`).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { WeftError } from '../http-client.ts';
import { parseArgs, usageFor, USAGE } from './args.ts';
import { CliError, run } from './commands.ts';
import { buildEvalMain } from './build-eval.ts';

if (process.argv[2] === 'build-eval') process.exit(await buildEvalMain(process.argv.slice(3), process.env));
import { webhooksMain } from './webhooks.ts';

if (process.argv[2] === 'webhooks') process.exit(await webhooksMain(process.argv.slice(3), process.env));

const parsed = parseArgs(process.argv.slice(2), { url: process.env['WEFT_URL'], token: process.env['WEFT_TOKEN'] });
if (!parsed.ok) {
  process.stderr.write(`${parsed.message}\n\n${usageFor(process.argv.slice(2))}\n`);
  process.exit(2);
}
if (parsed.command.cmd === 'help') {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const abort = new AbortController();
process.once('SIGINT', () => abort.abort());
const readStdin = async (): Promise<string> => {
  if (process.stdin.isTTY) process.stderr.write('reading ops from stdin (end with Ctrl-D)…\n');
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
};

run(parsed.command, {
  out: (line) => void process.stdout.write(`${line}\n`),
  note: (line) => void process.stderr.write(`${line}\n`),
  read: (file) => (file === '-' ? readStdin() : readFile(file, 'utf8')),
  write: async (file, text) => { await mkdir(dirname(file), { recursive: true }); await writeFile(file, text); },
  signal: abort.signal,
}).then((code) => { process.exitCode = code; }, (e: unknown) => {
  const msg = e instanceof WeftError ? `${e.code}: ${e.payload.message}` : e instanceof CliError ? e.message : e instanceof Error ? e.message : String(e);
  process.stderr.write(`weft: ${msg}\n`);
  process.exitCode = 1;
});
