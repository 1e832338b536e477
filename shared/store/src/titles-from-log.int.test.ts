// Migration 000010 on real Postgres: drafts renamed before the append kept drafts.title get the
// title their log ends with; the others keep theirs, and a second run changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '@weft/migrations';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { EventStore } from './event-store.ts';
import { step } from './contract.ts';

describe('migration 2026_12_02_000010_titles_from_log', () => {
  let t: TestDatabase;
  let store: EventStore;
  beforeAll(async () => { t = await createTestDatabase(); store = new EventStore(t.db); });
  afterAll(async () => { await t.drop(); });
  const title = async (id: string): Promise<string | undefined> => (await store.getDraft(id))?.title;

  it('sets the title from the newest event that names /title; leaves the rest as it was', async () => {
    for (const id of ['a', 'b', 'c', 'd']) await store.createDraft({ id, title: `Old ${id}`, createdBy: 'u' });
    // As the append wrote them before: steps without `title`, so drafts.title stayed "Old …".
    await store.append('a', 0, [step('a1', { ops: [{ op: 'replace', path: '/title', value: 'New a' }] }), step('a2', { ops: [{ op: 'add', path: '/order/-', value: 'x' }] })]);
    await store.append('b', 0, [step('b1', { ops: [{ op: 'replace', path: '/title', value: 'B1' }, { op: 'replace', path: '/title', value: 'B2' }] })]);
    await store.append('c', 0, [step('c1', { ops: [{ op: 'add', path: '/order/-', value: 'y' }] })]);
    await store.append('d', 0, [step('d1', { ops: [{ op: 'replace', path: '/title', value: 'D1' }] }), step('d2', { ops: [{ op: 'copy', from: '/order/0', path: '/title' }] })]);
    expect(await Promise.all(['a', 'b', 'c', 'd'].map(title))).toEqual(['Old a', 'Old b', 'Old c', 'Old d']);
    const up = migrations['2026_12_02_000010_titles_from_log']!.up;
    await up(t.db);
    expect(await Promise.all(['a', 'b', 'c', 'd'].map(title))).toEqual(['New a', 'B2', 'Old c', 'Old d']);
    await up(t.db);
    expect(await Promise.all(['a', 'b', 'c', 'd'].map(title))).toEqual(['New a', 'B2', 'Old c', 'Old d']);
  });
});
