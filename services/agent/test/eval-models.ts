// Two fake models on one local OpenAI-compatible server, for the build eval's tests: "steady"
// answers each brief with its terse recorded answer (bench/corpus), "shaky" fumbles three of the
// five — prose with no object, a cut-off object (an emission defect, asked again every round) and
// a javascript: link (a contract violation, final) — and answers the other two in sloppy and
// chatty style. The brief is recognized from the first user message; the round from the number
// of answers already in the conversation.
import { readFileSync, existsSync } from 'node:fs';
import { defaultCatalog } from '@weft/core';
import { CORPUS_DIR } from '../bench/brief-cases.ts';
import { evalBriefs } from '../src/eval/briefs.ts';
import { fakeModel } from './services.ts';
import type { ModelRequest } from './services.ts';

const briefs = evalBriefs((n) => defaultCatalog.getEntry(n) !== undefined);
const corpus = (id: string, style: string, n: number): string | null => {
  const f = `${CORPUS_DIR}${id}.${style}${n === 1 ? '' : `.${n}`}.txt`;
  return existsSync(f) ? readFileSync(f, 'utf8') : null;
};

/** What "shaky" sends for the briefs it fumbles, every round. */
export const SHAKY = {
  pricing: 'Happy to help with pricing! Which plans would you like, and should the yearly price be discounted?',
  faq: '{"ops":[{"op":"add","path":"/sections/faq","value":{"id":"faq","kind":"surface","catalog":"weft@1","data":{},"components":{"root":{"id":"root","component":"Stack","children":["q"]},"q":{"id":"q","component":"Heading","props":{"text":"Questi',
  scope: '{"ops":[{"op":"replace","path":"/sections/hero/components/cta/props/href","value":"javascript:alert(1)"}]}',
} as const;

export function answerFor(req: ModelRequest): string {
  const first = req.messages.find((m) => m.role === 'user')?.content ?? '';
  const brief = briefs.find((b) => first.startsWith(b.text));
  const round = req.messages.filter((m) => m.role === 'assistant').length + 1;
  if (!brief) return '{"say":"I do not know this brief."}\n{"done":true}';
  if (req.model === 'steady') return corpus(brief.id, 'terse', round) ?? '{"done":true}';
  if (req.model === 'shaky') {
    if (Object.hasOwn(SHAKY, brief.id)) return SHAKY[brief.id as keyof typeof SHAKY];
    return corpus(brief.id, brief.id === 'landing' ? 'sloppy' : 'chatty', round) ?? '{"done":true}';
  }
  return '';
}

export const evalFakeModels = (): ReturnType<typeof fakeModel> => fakeModel(answerFor);
