// The model-driven builder from the command line:
//   WEFT_MODEL_URL=https://…/v1 WEFT_MODEL=… [WEFT_MODEL_KEY=…] \
//   npx tsx services/agent/src/model-main.ts --url http://127.0.0.1:8080 --token <token> --draft demo "A landing page for …"
// The only file of the model builder that reads process.env (parsed once, frozen).
import { parseArgs } from 'node:util';
import { WeftHttpClient } from '@weft/client';
import { buildFromBrief } from './model-builder.ts';
import { chatCompletions } from './model-client.ts';
import { parseModelConfig } from './model-config.ts';
import { catalogPromptText } from './prompt.ts';
import { HttpBuildTransport } from './transport.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: {
  url: { type: 'string', default: process.env['WEFT_URL'] ?? 'http://127.0.0.1:8080' },
  token: { type: 'string', default: process.env['WEFT_TOKEN'] ?? '' },
  draft: { type: 'string', default: 'demo' },
} });
const cfg = parseModelConfig(process.env);
if (!cfg.ok || !values.token || positionals.length === 0) {
  console.error(`${cfg.ok ? '' : `${cfg.error}\n`}usage: model-main.ts --url <session> --token <token> --draft <id> "<brief>"`);
  process.exit(2);
}
const http = new WeftHttpClient(values.url, values.token);
await http.createDraft(values.draft).catch(() => undefined);
const t = await new HttpBuildTransport(http, values.draft).open();
try {
  const r = await buildFromBrief({
    brief: positionals.join(' '), transport: t, complete: chatCompletions(cfg.value), systemPrompt: catalogPromptText(),
    onStep: (s) => console.log(`[round ${s.round + 1}] ${s.status}${s.held ? ' (held)' : ''}: ${s.ops.length} op(s)${s.refused.map((x) => `\n    refused ${x.path}: ${x.message}`).join('')}${s.message ? ` ${s.message}` : ''}`),
  });
  for (const s of r.said) console.log(`model: ${s}`);
  console.log(`turn ${r.turnId}: ${r.steps.length} steps, acceptance ${(r.acceptance * 100).toFixed(0)}%, ${r.rounds} round(s), stopped by ${r.stoppedBy}`);
} finally {
  await t.close();
}
