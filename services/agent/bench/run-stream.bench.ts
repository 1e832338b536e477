// What a streamed turn costs: events on the wire vs events kept, and the CPU time of reading the
// answer twice (the builder's reader and RunStream's), per chunk size a model might stream in.
//   npx tsx services/agent/bench/run-stream.bench.ts
import type { AgUiEvent } from '@weft/protocol';
import { buildFromBrief } from '../src/model-builder.ts';
import { RunStream } from '../src/run-stream.ts';
import { LocalBuildTransport } from '../src/transport.ts';
import { CHAT_LONG, CHAT_ROUND_1, CHAT_ROUND_2 } from '../test/chat-turn.ts';

const DELTAS = new Set(['TEXT_MESSAGE_CONTENT', 'TOOL_CALL_ARGS']);
async function turn(answers: string[], size: number): Promise<{ events: AgUiEvent[]; ms: number; plainMs: number }> {
  const run = async (stream: RunStream | null): Promise<number> => {
    let i = 0;
    const model = async function* () { const t = answers[Math.min(i++, answers.length - 1)]!; for (let a = 0; a < t.length; a += size) yield t.slice(a, a + size); };
    const t0 = performance.now();
    await buildFromBrief({ brief: 'b', transport: new LocalBuildTransport(), complete: stream ? stream.wrap(model) : model, systemPrompt: 'p', ...(stream ? { onStep: (r) => stream.step(r) } : {}) });
    stream?.finish();
    return performance.now() - t0;
  };
  const events: AgUiEvent[] = [];
  const plainMs = Math.min(await run(null), await run(null), await run(null));
  let ms = Infinity;
  for (let k = 0; k < 3; k++) {
    events.length = 0;
    ms = Math.min(ms, await run(new RunStream({ emit: (e) => events.push(...e), prefix: 'r', ghostEveryMs: 0 })));
  }
  return { events, ms, plainMs };
}

console.log('turn            chunk  answer-chars  events  args  ghosts  kept  turn-ms  without-stream-ms');
for (const [name, answers] of [['chat (2 rounds)', [CHAT_ROUND_1, CHAT_ROUND_2]], ['long (15 steps)', [CHAT_LONG]]] as const) {
  for (const size of [4, 16, 64]) {
    const { events, ms, plainMs } = await turn([...answers], size);
    const kept = events.filter((e) => !DELTAS.has(e.type) && e.type !== 'CUSTOM').length + events.filter((e) => e.type === 'TEXT_MESSAGE_START' || e.type === 'TOOL_CALL_START').length;
    const chars = answers.reduce((n, a) => n + a.length, 0);
    console.log(`${name.padEnd(16)}${String(size).padStart(5)}${String(chars).padStart(14)}${String(events.length).padStart(8)}${String(events.filter((e) => e.type === 'TOOL_CALL_ARGS').length).padStart(6)}${String(events.filter((e) => e.type === 'CUSTOM').length).padStart(8)}${String(kept).padStart(6)}${ms.toFixed(1).padStart(9)}${plainMs.toFixed(1).padStart(19)}`);
  }
}
console.log('(ghosts unthrottled here; the agent sends one at most every 120 ms. kept = stored events: deltas merged per part, ghosts not kept)');
