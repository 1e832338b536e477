// NOT COMMITTED: minimal reproductions for the report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateDraft } from '@weft/core';
import { WeftPeer } from '@weft/client';
import { startTestSession } from '../helpers.ts';
import type { TestSession } from '../helpers.ts';
import { sleep, jsonDiff } from '../../../../shared/testing/src/sim/index.ts';

const sec = { id: 'main', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: ['p'] }, p: { id: 'p', component: 'Card', children: [] } } };

describe('repro', () => {
  let s: TestSession;
  beforeAll(async () => { s = await startTestSession({ opsPerSecond: 1_000_000 }); });
  afterAll(async () => s.close());

  for (const which of ['offline-valid', 'offline-invalid', 'offline-both'] as string[]) it(which, async () => {
    const id = `r-${which}`;
    await s.admin.createDraft(id, 'R');
    await s.admin.submit(id, { opId: 'seed', ops: [{ op: 'add', path: '/sections/main', value: sec }] });
    const w = await s.as(`${id}-w`, { [id]: ['write'] });
    const rd = await s.as(`${id}-r`, { [id]: ['read'] });
    const a = await WeftPeer.join({ url: s.url, draftId: id, token: w.token });
    const b = await WeftPeer.join({ url: s.url, draftId: id, token: w.token });
    const v = await WeftPeer.join({ url: s.url, draftId: id, token: rd.token });
    const seen: string[] = [];
    v.doc.on('update', () => { const bad = validateDraft(v.draft()).refusals; if (bad.length) seen.push(JSON.stringify(bad.map((x) => [x.rule, x.path]))); });
    if (which === 'orphan') {
      a.applyOps([{ op: 'remove', path: '/sections/main/components/root/children/0' }, { op: 'remove', path: '/sections/main/components/p' }]);
      b.applyOps([{ op: 'add', path: '/sections/main/components/kid', value: { id: 'kid', component: 'Heading', props: { text: 'k', level: 2 } } }, { op: 'add', path: '/sections/main/components/p/children/-', value: 'kid' }]);
    } else if (which.startsWith('offline')) {
      const ws = a.provider.configuration.websocketProvider as unknown as { connect(): Promise<unknown>; disconnect(): void };
      ws.disconnect();
      await sleep(100);
      if (which !== 'offline-invalid') a.applyOps([{ op: 'replace', path: '/title', value: 'offline' }]);
      if (which !== 'offline-valid') a.applyOps([{ op: 'add', path: '/sections/main/components/p/children/-', value: 'p' }]);
      b.applyOps([{ op: 'add', path: '/sections/main/data/k', value: 1 }]);
      await sleep(300);
      await ws.connect();
    } else if (which === 'burst') {
      a.applyOps([{ op: 'add', path: '/sections/main/components/x', value: { id: 'x', component: 'Card', children: [] } }, { op: 'add', path: '/sections/main/components/root/children/-', value: 'x' }]);
      b.applyOps([{ op: 'replace', path: '/title', value: 'b1' }]);
      a.applyOps([{ op: 'add', path: '/sections/main/components/x/children/-', value: 'x' }]);
      a.applyOps([{ op: 'add', path: '/sections/main/components/y', value: { id: 'y', component: 'Heading', props: { text: 'y', level: 2 } } }, { op: 'add', path: '/sections/main/components/root/children/-', value: 'y' }]);
      b.applyOps([{ op: 'add', path: '/sections/main/components/z', value: { id: 'z', component: 'Heading', props: { text: 'z', level: 2 } } }, { op: 'add', path: '/sections/main/components/p/children/-', value: 'z' }]);
      a.applyOps([{ op: 'replace', path: '/sections/main/components/y/props', value: { text: 'y', level: 'huge' } }]);
      a.applyOps([{ op: 'replace', path: '/title', value: 'a2' }]);
    } else {
      a.applyOps([{ op: 'add', path: '/sections/main/components/x', value: { id: 'x', component: 'Heading', props: { text: 'x', level: 2 } } }, { op: 'add', path: '/sections/main/components/root/children/-', value: 'x' }]);
      a.applyOps([{ op: 'add', path: '/sections/main/components/p/children/-', value: 'p' }]);
    }
    await sleep(1500);
    const served = await s.admin.getDraft(id);
    console.log(which, 'refusals a', a.refusals.length, 'b', b.refusals.length, 'viewer saw invalid:', seen, '\nserver:', JSON.stringify(served.draft.sections['main']?.components), '\nviewer≠server:', jsonDiff(v.draft(), served.draft), '\na≠server:', jsonDiff(a.draft(), served.draft));
    const fresh = await WeftPeer.join({ url: s.url, draftId: id, token: rd.token });
    console.log('fresh≠server:', jsonDiff(fresh.draft(), served.draft));
    expect(seen).toEqual([]);
    expect(jsonDiff(fresh.draft(), served.draft)).toEqual([]);
  });
});
