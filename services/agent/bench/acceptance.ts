// Acceptance on the recorded corpus: steps written as sent after repairs / all steps sent in the
// first answer, through the real pipeline (in memory). Then whether each page comes out as
// intended once refusals went back to the (replayed) model: `<name>.fix.txt` holds its answer.
//   npx tsx services/agent/bench/acceptance.ts
import { emptyDraft } from '@weft/core';
import { buildFromBrief } from '../src/model-builder.ts';
import { catalogPromptText } from '../src/prompt.ts';
import { LocalBuildTransport } from '../src/transport.ts';
import { loadCorpus, mismatches, replayModel } from '../test/corpus.ts';

let steps = 0;
let accepted = 0;
let built = 0;
const cases = loadCorpus();
for (const c of cases) {
  const t = new LocalBuildTransport(emptyDraft('bench'));
  const r = await buildFromBrief({ brief: 'Build the page.', transport: t, complete: replayModel([c.answer, ...c.fixes]), systemPrompt: catalogPromptText(), maxFeedbackRounds: c.fixes.length });
  const first = r.steps.filter((s) => s.round === 0);
  const ok = first.filter((s) => s.status === 'applied' || s.status === 'repaired').length;
  steps += first.length;
  accepted += ok;
  const miss = mismatches(t.doc, c.expect);
  if (miss.length === 0) built++;
  const refused = first.flatMap((s) => s.refused.map((x) => `${x.path} ${x.rule}`).concat(s.message ? [s.message] : []));
  const held = first.filter((s) => s.held).length;
  const repairs = first.reduce((n, s) => n + s.repairs.length, 0);
  console.log(`${c.name.padEnd(32)} ${ok}/${first.length} steps, ${repairs} repairs, ${held} held, ${r.rounds} round(s), page ${miss.length === 0 ? 'as intended' : `WRONG: ${miss.join('; ')}`}${refused.length ? `\n    refused: ${refused.join(' | ')}` : ''}`);
}
const rate = steps === 0 ? 0 : accepted / steps;
console.log(`\nacceptance ${(rate * 100).toFixed(1)}% (${accepted}/${steps} steps), pages built as intended ${built}/${cases.length}`);
process.exitCode = rate >= 0.95 && built === cases.length ? 0 : 1;
