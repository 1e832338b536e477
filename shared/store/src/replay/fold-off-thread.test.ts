import { describe, expect, it } from 'vitest';
import { emptyDraft } from '@weft/core';
import { foldOffThread } from './fold-off-thread.ts';
import type { OpsPage } from './ops-page.ts';

async function* pagesOf(...pages: OpsPage[]): AsyncGenerator<OpsPage> {
  for (const p of pages) yield p;
}
const page = (first: number, steps: unknown[][]): OpsPage => ({ first, last: first + steps.length - 1, count: steps.length, text: JSON.stringify(steps), more: true });

describe('the replay worker', () => {
  it('folds pages in order in a worker thread and hands back the draft', async () => {
    const draft = await foldOffThread('d', emptyDraft('d'), pagesOf(
      page(1, [[{ op: 'add', path: '/order/-', value: 'a' }], [{ op: 'replace', path: '/title', value: 'one' }]]),
      page(3, [[{ op: 'add', path: '/order/0', value: 'b' }]]),
    ));
    expect(draft).toEqual({ id: 'd', title: 'one', order: ['b', 'a'], sections: {} });
  });

  it('names the step that does not replay, and runs the next job as usual', async () => {
    await expect(foldOffThread('d', emptyDraft('d'), pagesOf(page(1, [[{ op: 'replace', path: '/title', value: 'x' }]]), page(2, [[{ op: 'remove', path: '/nope' }]]))))
      .rejects.toThrow(/draft d v2 does not replay: op 0/);
    await expect(foldOffThread('d', emptyDraft('d'), pagesOf(page(1, [[{ op: 'add', path: '/sections/__proto__', value: {} }]])))).rejects.toThrow(/forbidden segment/);
    const [a, b] = await Promise.all([
      foldOffThread('a', emptyDraft('a'), pagesOf(page(1, [[{ op: 'replace', path: '/title', value: 'A' }]]))),
      foldOffThread('b', emptyDraft('b'), pagesOf(page(1, [[{ op: 'replace', path: '/title', value: 'B' }]]))),
    ]);
    expect([a.title, b.title]).toEqual(['A', 'B']);
  });

  it('stops when the pages fail to arrive, with the fetch error', async () => {
    async function* broken(): AsyncGenerator<OpsPage> {
      yield page(1, [[{ op: 'replace', path: '/title', value: 'x' }]]);
      throw new Error('connection lost');
    }
    await expect(foldOffThread('d', emptyDraft('d'), broken())).rejects.toThrow('connection lost');
  });
});
