// The page every load scenario seeds: one surface of a Stack and 10 Headings the writers edit.
import type { WeftHttpClient } from '@weft/client';

export const SECTION = 's';
export const COMPONENTS = Array.from({ length: 10 }, (_, i) => `c${i}`);
export const section = () => ({
  id: SECTION, kind: 'surface', catalog: 'weft@1',
  components: {
    root: { id: 'root', component: 'Stack', children: COMPONENTS },
    ...Object.fromEntries(COMPONENTS.map((c) => [c, { id: c, component: 'Heading', props: { text: c, level: 2 } }])),
  },
  data: {},
});

export async function seed(admin: WeftHttpClient, id: string): Promise<void> {
  await admin.createDraft(id);
  await admin.submit(id, { opId: `seed-${id}`, ops: [{ op: 'add', path: `/sections/${SECTION}`, value: section() }] });
}
