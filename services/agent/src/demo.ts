// The demo a new user runs (README):
//   npx tsx services/agent/src/demo.ts --url http://127.0.0.1:8080 --token <token> [--draft agent-demo] [--pause 800] [--peer]
// It joins the draft (over HTTP, or as a Yjs peer with presence and a ghost with --peer) and
// builds a landing page step by step, printing what the pipeline did with each step. By default
// it builds its own draft ("agent-demo", never the walkthrough's "home") and, given the admin
// token, acts with an agent token of its own (actor "scripted-builder", that draft only), so its
// work reads as an agent's in the Build view.
//   … --draft trip --trip
// Trip-budget mode: adds the trip-budget surface (if missing) and answers every move of its Days
// slider in the live page by recomputing the table, chart and total, until Ctrl-C.
import { parseArgs } from 'node:util';
import { WeftHttpClient, WeftPeer } from '@weft/client';
import { LANDING_SCRIPT } from './landing-script.ts';
import { followTripBudget, TRIP_SECTION_ID, tripSection } from './trip-budget.ts';
import { runScript } from './scripted-builder.ts';
import { HttpBuildTransport, PeerBuildTransport } from './transport.ts';
import type { BuildTransport } from './transport.ts';

const { values } = parseArgs({ options: {
  url: { type: 'string', default: process.env['WEFT_URL'] ?? 'http://127.0.0.1:8080' },
  token: { type: 'string', default: process.env['WEFT_TOKEN'] ?? '' },
  draft: { type: 'string', default: 'agent-demo' },
  pause: { type: 'string', default: '800' },
  peer: { type: 'boolean', default: false },
  trip: { type: 'boolean', default: false },
} });
if (!values.token) {
  console.error('Give --token <token> (or WEFT_TOKEN); mint one with: npx tsx shared/client/src/cli/main.ts token --url … --token <admin> --actor demo-bot --scope <draft>:read,write');
  process.exit(2);
}
const given = new WeftHttpClient(values.url, values.token);
await given.createDraft(values.draft, 'Agent demo').catch(() => undefined); // exists already: fine
// Its own agent token when the given one may mint (the admin's); else the given token as is.
const own = await given.mintToken({ actor: { id: 'scripted-builder', kind: 'agent' }, scopes: { [values.draft]: ['read', 'write'] }, ttlSeconds: 3600 }).catch(() => null);
const token = own?.token ?? values.token;
const http = own ? new WeftHttpClient(values.url, token) : given;
if (values.trip) {
  const { draft } = await http.getDraft(values.draft);
  if (!Object.hasOwn(draft.sections, TRIP_SECTION_ID)) await http.submit(values.draft, { opId: `trip-setup-${Date.now()}`, ops: [{ op: 'add', path: `/sections/${TRIP_SECTION_ID}`, value: tripSection() }] });
  console.log(`Trip budget on "${values.draft}": open ${values.url}/build/${values.draft} and drag the Days slider (Ctrl-C to stop).`);
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort());
  await followTripBudget(http, values.draft, { signal: ac.signal, onReply: (r) => console.log(`  ${r.days} days → v${r.version}, recomputed ${r.recomputed.join(', ')}`) });
  process.exit(0);
}
let t: BuildTransport;
if (values.peer) t = new PeerBuildTransport(await WeftPeer.join({ url: values.url, draftId: values.draft, token, presence: { name: 'Scripted builder', agent: true, selection: null } }));
else t = await new HttpBuildTransport(http, values.draft).open();
console.log(`Building "${values.draft}" on ${values.url} as ${own ? 'scripted-builder (its own agent token)' : 'the given token'} — watch ${values.url}/build/${values.draft}`);
try {
  await runScript(t, LANDING_SCRIPT, {
    pauseMs: Number(values.pause),
    onStep: ({ index, step, result }) => {
      console.log(`\n${index + 1}. ${step.say}`);
      console.log(`   → v${result.version}: ${result.applied.length} op(s) applied`);
      for (const n of result.repairs) console.log(`   repaired ${n.path}: ${n.message}`);
      for (const r of result.refused) console.log(`   REFUSED ${r.path} (${r.rule}): ${r.message}`);
    },
  });
  console.log('\nDone. The page has hero, features, pricing, faq and cta.');
} finally {
  await t.close?.();
}
