// The recorded model answers (test/corpus/*.txt) and what each should build (expected.json).
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Draft } from '@weft/core';
import type { Complete } from '../src/model-client.ts';

export const CORPUS_DIR = fileURLToPath(new URL('./corpus/', import.meta.url));

export interface CorpusCase {
  name: string;
  answer: string;
  /** Answers to the refusal feedback (`<name>.fix.txt`), when the first answer has a refused step. */
  fixes: string[];
  expect: { order: string[]; components: Record<string, string> } }

export function loadCorpus(): CorpusCase[] {
  const expected = JSON.parse(readFileSync(`${CORPUS_DIR}expected.json`, 'utf8')) as Record<string, CorpusCase['expect']>;
  const files = readdirSync(CORPUS_DIR);
  return files.filter((f) => f.endsWith('.txt') && !f.endsWith('.fix.txt')).sort().map((name) => {
    const expect = expected[name];
    if (!expect) throw new Error(`corpus/${name} has no entry in expected.json`);
    const fix = name.replace(/\.txt$/, '.fix.txt');
    const fixes = files.includes(fix) ? [readFileSync(`${CORPUS_DIR}${fix}`, 'utf8')] : [];
    return { name, answer: readFileSync(`${CORPUS_DIR}${name}`, 'utf8'), fixes, expect };
  });
}

/** A model that answers with the recorded texts in turn, in chunks as a stream would. */
export function replayModel(answers: readonly string[], chunk = 37): Complete & { calls: { role: string; content: string }[][] } {
  let i = 0;
  const calls: { role: string; content: string }[][] = [];
  const complete = async function* (messages: readonly { role: 'system' | 'user' | 'assistant'; content: string }[]) {
    calls.push(messages.map((m) => ({ ...m })));
    const text = answers[Math.min(i++, answers.length - 1)] ?? '';
    for (let at = 0; at < text.length; at += chunk) yield text.slice(at, at + chunk);
  };
  return Object.assign(complete, { calls });
}

/** Differences between a built draft and what the case expects (empty = built as intended). */
export function mismatches(d: Draft, e: CorpusCase['expect']): string[] {
  const out: string[] = [];
  if (JSON.stringify(d.order) !== JSON.stringify(e.order)) out.push(`order ${JSON.stringify(d.order)} ≠ ${JSON.stringify(e.order)}`);
  for (const [key, component] of Object.entries(e.components)) {
    const [sid, cid] = key.split('/') as [string, string];
    const got = d.sections[sid]?.components[cid]?.component;
    if (got !== component) out.push(`${key} is ${got ?? 'missing'}, expected ${component}`);
  }
  return out;
}
