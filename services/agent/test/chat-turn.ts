// The Build chat's recorded turn (chat.e2e.test.ts): round 1 writes a hero with a typo the
// pipeline repairs ("Heding") and an add of the closing band that forgot its value (refused as an
// emission defect, invalid_op, which the agent asks again); round 2 sends the band whole.
const HERO = {
  id: 'hero', kind: 'surface', catalog: 'weft@1', data: {},
  components: {
    root: { id: 'root', component: 'Stack', props: { align: 'center' }, children: ['title', 'lede', 'go'] },
    title: { id: 'title', component: 'Heding', props: { text: 'Bread from the corner oven', level: 1 } },
    lede: { id: 'lede', component: 'Text', props: { text: 'Baked at dawn, sold by noon.' } },
    go: { id: 'go', component: 'Button', props: { label: 'See today\'s loaves' } },
  },
};
const BAND = (withButton: boolean) => ({
  id: 'cta', kind: 'surface', catalog: 'weft@1', data: {},
  components: {
    root: { id: 'root', component: 'Stack', children: ['ask', 'keep'] },
    ask: { id: 'ask', component: 'Heading', props: { text: 'Want a loaf kept for you?', level: 2 } },
    ...(withButton ? { keep: { id: 'keep', component: 'Button', props: { label: 'Keep one for me' } } } : {}),
  },
});
const line = (v: unknown): string => JSON.stringify(v);

export const CHAT_ROUND_1 = [
  line({ say: 'A hero for the bakery first, then a closing band.' }),
  line({ ops: [{ op: 'add', path: '/sections/hero', value: HERO }] }),
  line({ ops: [{ op: 'add', path: '/sections/cta' }] }),
  line({ done: true }),
].join('\n');

export const CHAT_ROUND_2 = [
  line({ say: 'The band again, whole this time.' }),
  line({ ops: [{ op: 'add', path: '/sections/cta', value: BAND(true) }] }),
  line({ done: true }),
].join('\n');

/** A brief scoped to the hero's title (click-to-scope): only that changes. */
export const CHAT_SCOPED = [
  line({ say: 'A warmer title.' }),
  line({ ops: [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: 'Warm bread from the corner oven' }] }),
].join('\n');

/** A long answer (a section per line, slowly): long enough to press Stop in the middle. */
export const CHAT_LONG = [
  line({ say: 'Writing a long page, one section at a time.' }),
  ...Array.from({ length: 15 }, (_, i) => line({ ops: [{ op: 'add', path: `/sections/s${i}`, value: { id: `s${i}`, kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Heading', props: { text: `Section number ${i} of a long page`, level: 2 } } } } }] })),
  line({ done: true }),
].join('\n');

/** What the fake model answers: the long page for a brief that asks for it, else round 1 then 2. */
export function chatAnswer(req: { messages: { role: string; content: string }[] }): string {
  if (req.messages.some((m) => m.role === 'user' && m.content.includes('long page'))) return CHAT_LONG;
  if (req.messages.some((m) => m.role === 'user' && m.content.includes('Scope: this brief is about'))) return CHAT_SCOPED;
  return req.messages.some((m) => m.role === 'assistant') ? CHAT_ROUND_2 : CHAT_ROUND_1;
}
