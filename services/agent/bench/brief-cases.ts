// The independent acceptance corpus (issue 19): the six briefs (src/eval/briefs.ts, which the
// build eval runs too) × four model styles. The answers
// (corpus/<brief>.<style>.txt, follow-ups <brief>.<style>.2.txt, .3.txt…) were written against
// the real catalogPrompt in four model styles: terse JSON Lines, chatty prose with fences,
// pretty-printed, sloppy (small open models: <think>, trailing commas, camelCase ids…).
// Pure: no I/O beyond reading the corpus files.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { briefs } from '../src/eval/briefs.ts';
import type { Brief } from '../src/eval/briefs.ts';

export const CORPUS_DIR = fileURLToPath(new URL('./corpus/', import.meta.url));
export const STYLES = ['terse', 'chatty', 'pretty', 'sloppy'] as const;

export type { Brief };
export { BAKERY, briefs } from '../src/eval/briefs.ts';

export interface Case { brief: Brief; style: string; answers: string[] }

/** Every brief × style with its answers in order (the first answer, then follow-ups). */
export function loadCases(known: (name: string) => boolean): Case[] {
  const files = readdirSync(CORPUS_DIR);
  const out: Case[] = [];
  for (const brief of briefs(known)) {
    for (const style of STYLES) {
      const first = `${brief.id}.${style}.txt`;
      if (!files.includes(first)) throw new Error(`corpus/${first} is missing`);
      const answers = [readFileSync(`${CORPUS_DIR}${first}`, 'utf8')];
      for (let n = 2; files.includes(`${brief.id}.${style}.${n}.txt`); n++) answers.push(readFileSync(`${CORPUS_DIR}${brief.id}.${style}.${n}.txt`, 'utf8'));
      out.push({ brief, style, answers });
    }
  }
  return out;
}
